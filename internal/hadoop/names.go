package hadoop

import (
	"k8s.io/apimachinery/pkg/labels"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// Component is one role of a Hadoop cluster.
type Component string

const (
	ResourceManager Component = "resourcemanager"
	NodeManager     Component = "nodemanager"
	JobHistory      Component = "jobhistory"
)

// Labels on every object of a HadoopCluster. The API refuses pod labels with these
// prefixes, so a user's podOverrides cannot break the selectors.
const (
	LabelName      = "app.kubernetes.io/name"
	LabelInstance  = "app.kubernetes.io/instance"
	LabelComponent = "app.kubernetes.io/component"
	// AppName is the value of LabelName.
	AppName = "hadoop"
)

// ConfigHashAnnotation carries ConfigHash of the Hadoop configuration, on the ConfigMap
// and on every pod template. Pod templates also carry cephconf.HashAnnotation with the
// client config's hash: a change of either changes the template, and so rolls the pods.
const ConfigHashAnnotation = "hadoopceph.io/config-hash"

// DefaultContainerAnnotation names the container kubectl picks in a pod of several.
const DefaultContainerAnnotation = "kubectl.kubernetes.io/default-container"

// SchedulerHashAnnotation carries the hash of the files the ResourceManager reads
// again in place, capacity-scheduler.xml and the exclude file, on the ConfigMap. Pod
// templates do not carry it, since a change must not roll the ResourceManager; the
// operator sets it on the ResourceManager's pod itself, because a pod's update has the
// kubelet refresh the pod's ConfigMap volumes at once instead of at its next periodic
// sync, up to a minute or more later.
const SchedulerHashAnnotation = "hadoopceph.io/scheduler-hash"

// Names of a cluster's children. The API limits cluster names to 36 characters, so
// <name>-resourcemanager-0, <name>-resourcemanager-headless (a Service name, at most
// 63) and the StatefulSet's controller-revision-hash label stay valid.

// ResourceManagerName names the ResourceManager StatefulSet and Service.
func ResourceManagerName(hc *v1alpha1.HadoopCluster) string {
	return ComponentName(hc, ResourceManager)
}

// NodeManagerName names the NodeManager StatefulSet, headless Service and
// PodDisruptionBudget.
func NodeManagerName(hc *v1alpha1.HadoopCluster) string {
	return ComponentName(hc, NodeManager)
}

// JobHistoryName names the JobHistory StatefulSet and Service.
func JobHistoryName(hc *v1alpha1.HadoopCluster) string {
	return ComponentName(hc, JobHistory)
}

// ConfigMapName names the ConfigMap with the Hadoop configuration files.
func ConfigMapName(hc *v1alpha1.HadoopCluster) string {
	return hc.Name + "-config"
}

// TopologyConfigMapName names the ConfigMap that maps each node to the YARN hosts of
// its NodeManagers.
func TopologyConfigMapName(hc *v1alpha1.HadoopCluster) string {
	return hc.Name + "-topology"
}

// ServiceAccountName names the ServiceAccount of every Hadoop pod.
func ServiceAccountName(hc *v1alpha1.HadoopCluster) string {
	return hc.Name + "-hadoop"
}

// PodMonitorName names the PodMonitor that scrapes the cluster's daemons.
func PodMonitorName(hc *v1alpha1.HadoopCluster) string {
	return hc.Name + "-hadoop"
}

// ComponentName names the StatefulSet and Service of component c.
func ComponentName(hc *v1alpha1.HadoopCluster, c Component) string {
	return hc.Name + "-" + string(c)
}

// HeadlessServiceName names the governing Service of component c's StatefulSet: the
// NodeManagers' is their only Service and has the component's name; the
// ResourceManager and the JobHistory server have a Service with a stable address
// under that name, and a headless one beside it.
func HeadlessServiceName(hc *v1alpha1.HadoopCluster, c Component) string {
	if c == NodeManager {
		return ComponentName(hc, c)
	}
	return ComponentName(hc, c) + "-headless"
}

// SelectorLabels select the pods of one component. They never change for a cluster,
// as a StatefulSet's selector cannot.
func SelectorLabels(hc *v1alpha1.HadoopCluster, c Component) map[string]string {
	return map[string]string{
		LabelName:      AppName,
		LabelInstance:  hc.Name,
		LabelComponent: string(c),
	}
}

// Labels are the labels of a component's objects.
func Labels(hc *v1alpha1.HadoopCluster, c Component) map[string]string {
	l := SelectorLabels(hc, c)
	l[naming.LabelManagedBy] = naming.ManagedBy
	return l
}

// clusterLabels mark objects that belong to the whole cluster rather than to one
// component.
func clusterLabels(hc *v1alpha1.HadoopCluster) map[string]string {
	return map[string]string{
		LabelName:             AppName,
		LabelInstance:         hc.Name,
		naming.LabelManagedBy: naming.ManagedBy,
	}
}

// NodeManagerSelector is the NodeManager pods' selector as a string, for the scale
// subresource's status.nodeManagerSelector.
func NodeManagerSelector(hc *v1alpha1.HadoopCluster) string {
	return labels.SelectorFromSet(SelectorLabels(hc, NodeManager)).String()
}
