package hadoop

import (
	"strconv"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// ResourceManagerService gives the ResourceManager a stable virtual IP. A restarted
// ResourceManager gets a new pod IP, and Hadoop's RPC clients resolve an address once;
// the Service's ClusterIP is what lets NodeManagers and ApplicationMasters reconnect.
func ResourceManagerService(hc *v1alpha1.HadoopCluster) *corev1.Service {
	return service(hc, ResourceManager, resourceManagerPorts, corev1.ServiceSpec{})
}

// NodeManagerService is the headless Service that gives every NodeManager pod a DNS
// name, which is the name the NodeManager registers with. Addresses are published
// before readiness: a NodeManager's name must resolve while it starts and registers.
func NodeManagerService(hc *v1alpha1.HadoopCluster) *corev1.Service {
	return service(hc, NodeManager, nodeManagerPorts, corev1.ServiceSpec{
		ClusterIP:                corev1.ClusterIPNone,
		PublishNotReadyAddresses: true,
	})
}

// JobHistoryService fronts the JobHistory server.
func JobHistoryService(hc *v1alpha1.HadoopCluster) *corev1.Service {
	return service(hc, JobHistory, jobHistoryPorts, corev1.ServiceSpec{})
}

// ResourceManagerHeadlessService is the governing Service of the ResourceManager's
// StatefulSet: it gives the pod a DNS name of its own
// (<pod>.<cluster>-resourcemanager-headless), as a StatefulSet's pods are meant to
// have. Clients keep using ResourceManagerService, whose address outlives the pod.
func ResourceManagerHeadlessService(hc *v1alpha1.HadoopCluster) *corev1.Service {
	return headlessService(hc, ResourceManager, resourceManagerPorts)
}

// JobHistoryHeadlessService is the governing Service of the JobHistory server's
// StatefulSet, as ResourceManagerHeadlessService is the ResourceManager's.
func JobHistoryHeadlessService(hc *v1alpha1.HadoopCluster) *corev1.Service {
	return headlessService(hc, JobHistory, jobHistoryPorts)
}

// headlessService publishes addresses before readiness, as the NodeManagers' does:
// a daemon's own name must resolve while it starts.
func headlessService(hc *v1alpha1.HadoopCluster, c Component, ports []namedPort) *corev1.Service {
	svc := service(hc, c, ports, corev1.ServiceSpec{
		ClusterIP:                corev1.ClusterIPNone,
		PublishNotReadyAddresses: true,
	})
	svc.Name = HeadlessServiceName(hc, c)
	return svc
}

func service(hc *v1alpha1.HadoopCluster, c Component, ports []namedPort, spec corev1.ServiceSpec) *corev1.Service {
	spec.Selector = SelectorLabels(hc, c)
	spec.Ports = servicePorts(ports)
	return &corev1.Service{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      ComponentName(hc, c),
			Namespace: hc.Namespace,
			Labels:    Labels(hc, c),
		},
		Spec: spec,
	}
}

// serviceHost is the in-cluster DNS name of component c's Service. It leaves out the
// cluster domain, which pods' resolvers search.
func serviceHost(hc *v1alpha1.HadoopCluster, c Component) string {
	return ComponentName(hc, c) + "." + hc.Namespace + ".svc"
}

// ResourceManagerAddress is the ResourceManager's client RPC address
// (yarn.resourcemanager.address), for status.
func ResourceManagerAddress(hc *v1alpha1.HadoopCluster) string {
	return serviceHost(hc, ResourceManager) + ":" + strconv.Itoa(PortRMClient)
}

// ResourceManagerWebURL is the ResourceManager's web UI, for status.
func ResourceManagerWebURL(hc *v1alpha1.HadoopCluster) string {
	return "http://" + serviceHost(hc, ResourceManager) + ":" + strconv.Itoa(PortRMWeb)
}

// JobHistoryWebURL is the JobHistory server's web UI, for status.
func JobHistoryWebURL(hc *v1alpha1.HadoopCluster) string {
	return "http://" + serviceHost(hc, JobHistory) + ":" + strconv.Itoa(PortJHWeb)
}

// SystemDir is where the cluster keeps its own files on CephFS: the ResourceManager's
// state, MapReduce staging and history, aggregated logs. It is per cluster, since
// clusters may share one StorageBackend, and outlives the cluster like all its data.
func SystemDir(hc *v1alpha1.HadoopCluster) string {
	return "/hadoop-system/" + hc.Namespace + "/" + hc.Name
}

// HistoryIntermediateDir is where ApplicationMasters leave their jobs' history files
// (<user>/<job>.jhist), whether a JobHistory server runs or not; one that runs moves
// them to the done directory.
func HistoryIntermediateDir(hc *v1alpha1.HadoopCluster) string {
	return SystemDir(hc) + "/history/done_intermediate"
}
