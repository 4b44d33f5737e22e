package hadoopcluster

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/fleet"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// YARNNodes is what the reconciler reads of YARN: the ResourceManager's node list
// during a decommission, and how each NodeManager registered. A *yarn.Client.
type YARNNodes interface {
	Nodes(ctx context.Context, resourceManagerURL string) ([]yarn.Node, error)
	NodeManagerIdentity(ctx context.Context, host string, port int) (yarn.NodeIdentity, error)
}

// planNodeManagers decides what the pass does about the NodeManagers (internal/fleet):
// it observes their StatefulSet and pods, asks YARN what the plan's first step names,
// and puts the decision into the pass: the status's decommission, when to look again,
// and a warning when a decommission ran out of time. The builders take the
// decision's Decommission; replacePods acts on the rest after the apply.
func (r *Reconciler) planNodeManagers(ctx context.Context, p *clusterPass) error {
	hc := p.hc
	sts, err := r.statefulSet(ctx, p, hadoop.NodeManagerName(hc))
	if err != nil || sts == nil {
		return err
	}
	pods, err := r.componentPods(ctx, hc, hadoop.NodeManager)
	if err != nil {
		return err
	}
	step := fleet.Next(fleet.Observed{
		Replicas:       ptr.Deref(hc.Spec.NodeManagers.Replicas, 1),
		TimeoutSeconds: ptr.Deref(hc.Spec.NodeManagers.DecommissionTimeoutSeconds, fleet.DefaultTimeoutSeconds),
		StatefulSet:    sts,
		Pods:           pods,
		Previous:       p.base.Status.Decommissioning,
		Hosts:          p.base.Status.NodeManagerHosts,
		Now:            r.now(),
	})

	answers := fleet.YARN{NodeIDs: map[string]string{}}
	for pod, ip := range step.Ask() {
		// One that does not answer keeps what status remembered of it.
		if id, err := r.YARN.NodeManagerIdentity(ctx, ip, hadoop.PortNMWeb); err == nil {
			answers.NodeIDs[pod] = id.ID
		}
	}
	if step.NeedsNodes(answers.NodeIDs) {
		answers.Nodes, answers.NodesErr = r.YARN.Nodes(ctx, hadoop.ResourceManagerWebURL(hc))
	}

	d := step.Decide(answers)
	p.nodeManagers = d
	hc.Status.Decommissioning = d.Status
	if d.RequeueAfter > 0 {
		p.RequeueWithin(d.RequeueAfter)
	}
	if e := d.Event; e != nil {
		r.Events.Record(hc, nil, e.Type, e.Reason, e.Action, e.Note)
	}
	return nil
}

// replacePods deletes the pods the pass decided to replace: the NodeManager the plan
// picked, and the ResourceManager's once every NodeManager runs the current template.
// Their StatefulSets create them anew from the current template.
func (r *Reconciler) replacePods(ctx context.Context, p *clusterPass) error {
	hc := p.hc
	if name := p.nodeManagers.Replace; name != "" {
		if err := r.replacePod(ctx, hc, name); err != nil {
			return err
		}
		r.Events.Normal(hc, nil, v1alpha1.EventReasonPodReplaced, "Update",
			fmt.Sprintf("Replacing NodeManager pod %s with the current template", name))
		return nil
	}
	if !p.nodeManagers.NodeManagersCurrent || hc.Status.Decommissioning != nil {
		return nil
	}
	rm, err := r.statefulSet(ctx, p, hadoop.ResourceManagerName(hc))
	if err != nil || rm == nil || rm.Status.UpdateRevision == "" || rm.Status.ObservedGeneration < rm.Generation {
		return err
	}
	pods, err := r.componentPods(ctx, hc, hadoop.ResourceManager)
	if err != nil {
		return err
	}
	for i := range pods {
		pod := &pods[i]
		if pod.DeletionTimestamp.IsZero() && pod.Labels[appsv1.ControllerRevisionHashLabelKey] != rm.Status.UpdateRevision {
			if err := r.replacePod(ctx, hc, pod.Name); err != nil {
				return err
			}
			r.Events.Normal(hc, nil, v1alpha1.EventReasonPodReplaced, "Update",
				fmt.Sprintf("Replacing ResourceManager pod %s with the current template, after the NodeManagers", pod.Name))
		}
	}
	return nil
}

// replacePod deletes a pod of hc, which its StatefulSet then creates anew.
func (r *Reconciler) replacePod(ctx context.Context, hc *v1alpha1.HadoopCluster, name string) error {
	pod := &corev1.Pod{}
	pod.Namespace, pod.Name = hc.Namespace, name
	if err := r.Delete(ctx, pod); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("deleting pod %s/%s to replace it: %w", hc.Namespace, name, err)
	}
	return nil
}
