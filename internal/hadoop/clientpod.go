package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Client labels the pods of Hadoop clients that are not daemons, such as the stages of
// a BenchmarkRun: they submit MapReduce jobs to the cluster and copy data into CephFS.
const Client Component = "client"

// ClientContainer is what differs between client pods.
type ClientContainer struct {
	Command   string
	Args      []string
	Resources corev1.ResourceRequirements
	// Heap is HADOOP_HEAPSIZE_MAX of the Hadoop commands the container runs.
	Heap string
	// Env is added after the variables every Hadoop container gets.
	Env []corev1.EnvVar
}

// ClientPodTemplateSpec is the pod of a Hadoop client: the cluster's image, configuration
// files and CephFS client config mounted as in the daemons' pods, with the same
// security settings and placement. It joins the NodeManagers' networks (attachments,
// host network, IPC_LOCK), because clients move data to and from CephFS as the
// NodeManagers' containers do, and so requests the one device per attachment that
// the attachments' NetworkAttachmentDefinitions name, without which the network's CNI
// cannot attach it. It requests none of spec.network.extendedResources beyond those:
// they are counted per NodeManager and meant for YARN's containers. Nor does it get
// spec.network.cephOptions, whose RDMA messenger needs the NodeManagers' devices: it
// mounts the core-site.xml the ResourceManager does. It has no ports and no probes: a
// client runs a command and exits. configHash is the cluster's ConfigHash, recorded in
// the pod's annotations like the daemons', so a pod shows which configuration it ran
// with.
func ClientPodTemplateSpec(in Input, configHash string, c ClientContainer) corev1.PodTemplateSpec {
	net := in.Cluster.Spec.Network
	r := role{
		component:   Client,
		command:     c.Command,
		resources:   withExtendedResources(c.Resources, attachmentDevices(in, NodeManager)),
		heap:        c.Heap,
		env:         c.Env,
		hostNetwork: net.HostNetwork,
	}
	if ipcLock(in) {
		r.addCapabilities = []corev1.Capability{"IPC_LOCK"}
	}
	t := podTemplate(in, r, configHash)
	if networks := MultusNetworks(attachmentsFor(in, NodeManager)); networks != "" {
		t.Annotations[NetworksAnnotation] = networks
	} else {
		delete(t.Annotations, NetworksAnnotation)
	}
	container := &t.Spec.Containers[0]
	container.Args = c.Args
	container.StartupProbe, container.ReadinessProbe, container.LivenessProbe = nil, nil, nil
	// Spark's settings, from the discovery ConfigMap, beside the Hadoop files in the
	// image's HADOOP_CONF_DIR: the image's Spark reads them there, as it does in a pod
	// of one's own that mounts the discovery ConfigMap whole as HADOOP_CONF_DIR.
	t.Spec.Volumes = append(t.Spec.Volumes, corev1.Volume{Name: volumeClientConfig, VolumeSource: corev1.VolumeSource{
		ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: ClientConfigMapName(in.Cluster)},
			Items:                []corev1.KeyToPath{{Key: FileSparkDefaults, Path: FileSparkDefaults}},
		},
	}})
	container.VolumeMounts = append(container.VolumeMounts, corev1.VolumeMount{
		Name: volumeClientConfig, MountPath: ConfDir + "/" + FileSparkDefaults, SubPath: FileSparkDefaults, ReadOnly: true,
	})
	return t
}

// A client pod's JVMs submit and follow jobs (TeraSort's client also samples its
// input) and copy files: the benchmark stages' size. A Spark driver in client mode
// needs more, in a pod of the user's own (docs/using.md). The memory limit is the
// request: a client that outgrows it is stopped, rather than a daemon of the cluster
// on the same node.
var clientPodResources = corev1.ResourceRequirements{
	Requests: corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("250m"),
		corev1.ResourceMemory: resource.MustParse("1Gi"),
	},
	Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")},
}

// clientPodHeap is HADOOP_HEAPSIZE_MAX of the Hadoop commands a client pod runs.
const clientPodHeap = "512m"

// ClientPodTemplate is the PodTemplate of a client pod: ClientPodTemplateSpec, whose
// container idles so that commands run in it with kubectl exec, with
// RestartPolicy Never, since a client pod is made for a session and not kept.
func ClientPodTemplate(in Input, configHash string) *corev1.PodTemplate {
	hc := in.Cluster
	t := ClientPodTemplateSpec(in, configHash, ClientContainer{
		Command:   "sleep",
		Args:      []string{"infinity"},
		Resources: *clientPodResources.DeepCopy(),
		Heap:      clientPodHeap,
	})
	t.Spec.RestartPolicy = corev1.RestartPolicyNever
	// The default container of kubectl exec and logs, though there is only one.
	t.Annotations[DefaultContainerAnnotation] = string(Client)
	return &corev1.PodTemplate{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodTemplate"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      ClientPodTemplateName(hc),
			Namespace: hc.Namespace,
			Labels:    Labels(hc, Client),
		},
		Template: t,
	}
}
