package hadoop

import (
	"fmt"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Readiness endpoints of the daemons' REST APIs: they answer once the web server and
// the service behind it are up.
const (
	resourceManagerReadyPath = "/ws/v1/cluster/info"
	nodeManagerReadyPath     = "/ws/v1/node/info"
	jobHistoryReadyPath      = "/ws/v1/history/info"
)

// rookOSDLabel selects Rook's OSD pods.
var rookOSDLabel = map[string]string{"app": "rook-ceph-osd"}

// ResourceManagerStatefulSet runs the single ResourceManager. A StatefulSet rather than
// a Deployment because it never runs two pods at once, even during a rollout: two
// ResourceManagers would both write the state store on CephFS.
func ResourceManagerStatefulSet(in Input, configHash string) *appsv1.StatefulSet {
	rm := in.Cluster.Spec.ResourceManager
	var init []corev1.Container
	if in.Storage.HandOverRoot {
		init = []corev1.Container{handOverRootContainer(in)}
	}
	volumes, mounts := []corev1.Volume{schedulerVolume(in)}, []corev1.VolumeMount{schedulerMount()}
	if in.rackMapping() {
		// The token reads the rack table (racks.go).
		volumes, mounts = append(volumes, apiTokenVolume()), append(mounts, apiTokenMount())
	}
	sts := statefulSet(in, ptr.To[int32](1), role{
		component:      ResourceManager,
		command:        StartResourceManager,
		resources:      withExtendedResources(rm.Resources, attachmentDevices(in, ResourceManager)),
		overrides:      rm.PodOverrides,
		heap:           daemonHeap(rm.Resources),
		ports:          containerPorts(resourceManagerPorts),
		webPort:        PortRMWeb,
		readinessPath:  resourceManagerReadyPath,
		rpcPort:        PortRMClient,
		hostNetwork:    in.Cluster.Spec.Network.HostNetwork,
		initContainers: init,
		volumes:        volumes,
		mounts:         mounts,
		sidecars:       []corev1.Container{schedulerRefresher(in)},
	}, configHash)
	// The operator replaces the ResourceManager's pod itself, after the NodeManagers
	// (internal/fleet).
	sts.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
	return sts
}

// JobHistoryStatefulSet runs the JobHistory server.
func JobHistoryStatefulSet(in Input, configHash string) *appsv1.StatefulSet {
	jh := in.Cluster.Spec.JobHistory
	return statefulSet(in, ptr.To[int32](1), role{
		component:     JobHistory,
		command:       StartJobHistory,
		resources:     withExtendedResources(jh.Resources, attachmentDevices(in, JobHistory)),
		overrides:     jh.PodOverrides,
		heap:          daemonHeap(jh.Resources),
		ports:         containerPorts(jobHistoryPorts),
		webPort:       PortJHWeb,
		readinessPath: jobHistoryReadyPath,
		rpcPort:       PortJHRPC,
		hostNetwork:   in.Cluster.Spec.Network.HostNetwork,
	}, configHash)
}

// NodeManagerStatefulSet runs the NodeManagers. Its replicas are
// spec.nodeManagers.replicas, or the current count while the leaving NodeManagers
// are decommissioned, and nothing else in it depends on them, so scaling changes only
// that field.
func NodeManagerStatefulSet(in Input, configHash string) *appsv1.StatefulSet {
	hc := in.Cluster
	nm, net := hc.Spec.NodeManagers, hc.Spec.Network
	r := role{
		component:     NodeManager,
		command:       StartNodeManager,
		resources:     withExtendedResources(nm.Resources, NodeManagerDevices(in)),
		overrides:     nm.PodOverrides,
		heap:          fmt.Sprintf("%dm", nodeManagerHeapMiB),
		ports:         containerPorts(nodeManagerPorts),
		webPort:       PortNMWeb,
		readinessPath: nodeManagerReadyPath,
		rpcPort:       PortNMRPC,
		// With the host's network the API server turns these container ports into
		// host ports, and the scheduler then keeps two NodeManagers off one node. The
		// roles' ports differ, so they may share one.
		hostNetwork: net.HostNetwork,
		preStop: &corev1.LifecycleHandler{Exec: &corev1.ExecAction{
			Command: []string{StopNodeManager},
		}},
		gracePeriod: nm.TerminationGracePeriodSeconds,
		mounts:      []corev1.VolumeMount{{Name: volumeYARNData, MountPath: YARNDataDir}},
	}
	if ipcLock(in) {
		r.addCapabilities = []corev1.Capability{"IPC_LOCK"}
	}
	if net.DataInterface != "" {
		r.env = []corev1.EnvVar{{Name: EnvDataInterface, Value: net.DataInterface}}
	}
	if hc.Spec.Placement.PreferCephOSDNodes && in.Storage.RookNamespace != "" {
		r.podAffinity = []corev1.WeightedPodAffinityTerm{{
			Weight: 100,
			PodAffinityTerm: corev1.PodAffinityTerm{
				LabelSelector: &metav1.LabelSelector{MatchLabels: rookOSDLabel},
				Namespaces:    []string{in.Storage.RookNamespace},
				TopologyKey:   corev1.LabelHostname,
			},
		}}
	}
	if ed := nm.LocalDirs.EmptyDir; ed != nil || nm.LocalDirs.VolumeClaim == nil {
		source := &corev1.EmptyDirVolumeSource{}
		if ed != nil {
			source.Medium, source.SizeLimit = ed.Medium, ed.SizeLimit
		}
		r.volumes = []corev1.Volume{{Name: volumeYARNData, VolumeSource: corev1.VolumeSource{EmptyDir: source}}}
	}

	sts := statefulSet(in, nodeManagerReplicas(in), r, configHash)
	// NodeManagers do not depend on one another; starting and stopping them one by
	// one would only slow scaling down.
	sts.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
	// The operator replaces outdated NodeManagers one at a time, each decommissioned
	// by YARN first, rather than the StatefulSet killing their containers
	// (internal/fleet).
	sts.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
	if vc := nm.LocalDirs.VolumeClaim; vc != nil {
		sts.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{
			ObjectMeta: metav1.ObjectMeta{Name: volumeYARNData, Labels: Labels(hc, NodeManager)},
			Spec: corev1.PersistentVolumeClaimSpec{
				AccessModes:      []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
				StorageClassName: vc.StorageClassName,
				Resources: corev1.VolumeResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceStorage: vc.Size},
				},
			},
		}}
		// Local directories are scratch space: nothing in them outlives a job.
		sts.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: appsv1.DeletePersistentVolumeClaimRetentionPolicyType,
			WhenScaled:  appsv1.DeletePersistentVolumeClaimRetentionPolicyType,
		}
	}
	return sts
}

func statefulSet(in Input, replicas *int32, r role, configHash string) *appsv1.StatefulSet {
	hc := in.Cluster
	return &appsv1.StatefulSet{
		TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      ComponentName(hc, r.component),
			Namespace: hc.Namespace,
			Labels:    Labels(hc, r.component),
		},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    replicas,
			ServiceName: HeadlessServiceName(hc, r.component),
			Selector:    &metav1.LabelSelector{MatchLabels: SelectorLabels(hc, r.component)},
			Template:    podTemplate(in, r, configHash),
			UpdateStrategy: appsv1.StatefulSetUpdateStrategy{
				Type: appsv1.RollingUpdateStatefulSetStrategyType,
			},
		},
	}
}

// withExtendedResources adds the devices to both requests and limits, since
// Kubernetes requires the two to be equal for extended resources.
func withExtendedResources(r corev1.ResourceRequirements, devices []v1alpha1.ExtendedResource) corev1.ResourceRequirements {
	out := *r.DeepCopy()
	if len(devices) == 0 {
		return out
	}
	if out.Requests == nil {
		out.Requests = corev1.ResourceList{}
	}
	if out.Limits == nil {
		out.Limits = corev1.ResourceList{}
	}
	for _, d := range devices {
		// A zero count is an unset one that the API server would default to 1.
		q := *resource.NewQuantity(int64(max(d.Count, 1)), resource.DecimalSI)
		out.Requests[corev1.ResourceName(d.Name)] = q
		out.Limits[corev1.ResourceName(d.Name)] = q
	}
	return out
}

// ipcLock reports whether NodeManagers get IPC_LOCK: as spec.network.ipcLock says, or,
// when unset, when they request an RDMA device. RDMA registers (pins) memory with the
// NIC, which needs the capability or a high memlock limit.
func ipcLock(in Input) bool {
	if l := in.Cluster.Spec.Network.IPCLock; l != nil {
		return *l
	}
	for _, d := range NodeManagerDevices(in) {
		if strings.Contains(strings.ToLower(d.Name), "rdma") {
			return true
		}
	}
	return false
}
