// Package fleet plans a HadoopCluster's NodeManagers from what a pass observed: the
// scale-down YARN decommissions first, the rolling update that replaces one pod at a
// time, and when to look again. It reads nothing and writes nothing; the controller
// observes, asks YARN what the plan's first step names, and acts on the decision.
package fleet

import (
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Observed is what a pass saw of a cluster's NodeManagers before building anything.
type Observed struct {
	// Replicas is spec.nodeManagers.replicas, defaulted.
	Replicas int32
	// TimeoutSeconds is spec.nodeManagers.decommissionTimeoutSeconds, defaulted; 0
	// leaves YARN out: pods go at once.
	TimeoutSeconds int32
	// StatefulSet is the NodeManagers' StatefulSet; nil before it exists.
	StatefulSet *appsv1.StatefulSet
	// Pods are the NodeManager pods.
	Pods []corev1.Pod
	// Previous is status.decommissioning as the pass read it: a decommission that a
	// pass continues keeps its start and deadline.
	Previous *v1alpha1.Decommissioning
	// Hosts is status.nodeManagerHosts as the pass read it: how each pod registered.
	Hosts []v1alpha1.NodeManagerHost
	// Now is the pass's time.
	Now time.Time
}

// pod is the NodeManager pod of that name; nil when there is none.
func (o Observed) pod(name string) *corev1.Pod {
	for i := range o.Pods {
		if o.Pods[i].Name == name {
			return &o.Pods[i]
		}
	}
	return nil
}
