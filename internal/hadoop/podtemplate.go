package hadoop

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
)

// Volume names shared by the pod templates.
const (
	volumeConfig = "hadoop-config"
	// volumeClientConfig is the discovery ConfigMap, in client pods.
	volumeClientConfig = "client-config"
	volumeCephClient   = "ceph-client"
	volumeTmp          = "tmp"
	volumeLogs         = "logs"
	volumeYARNData     = "yarn-data"
)

// role is what differs between the pods of the components.
type role struct {
	component Component
	command   string
	resources corev1.ResourceRequirements
	overrides v1alpha1.PodOverrides
	heap      string
	// env is added after the variables every Hadoop container gets.
	env   []corev1.EnvVar
	ports []corev1.ContainerPort
	// webPort and readinessPath answer the readiness probe once the daemon serves;
	// rpcPort answers the startup and liveness probes.
	webPort       int32
	readinessPath string
	rpcPort       int32

	addCapabilities []corev1.Capability
	hostNetwork     bool
	preStop         *corev1.LifecycleHandler
	gracePeriod     *int64
	volumes         []corev1.Volume
	mounts          []corev1.VolumeMount
	// podAffinity terms are preferences added to the user's affinity.
	podAffinity []corev1.WeightedPodAffinityTerm
	// initContainers run before the daemon, in the order given.
	initContainers []corev1.Container
	// sidecars run beside the daemon's container, which stays the pod's default one.
	sidecars []corev1.Container
}

// podTemplate is the pod of one component.
func podTemplate(in Input, r role, configHash string) corev1.PodTemplateSpec {
	hc := in.Cluster

	annotations := maps.Clone(r.overrides.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[ConfigHashAnnotation] = configHash
	annotations[cephconf.HashAnnotation] = in.Storage.ClientConfigHash
	if len(r.sidecars) > 0 {
		// kubectl logs and exec pick the daemon without -c.
		annotations[DefaultContainerAnnotation] = string(r.component)
	}
	if networks := MultusNetworks(attachmentsFor(in, r.component)); networks != "" {
		annotations[NetworksAnnotation] = networks
	}
	podLabels := r.overrides.Labels.Strings()
	if podLabels == nil {
		podLabels = map[string]string{}
	}
	maps.Copy(podLabels, Labels(hc, r.component))

	spec := corev1.PodSpec{
		ServiceAccountName: ServiceAccountName(hc),
		// Hadoop never talks to the Kubernetes API.
		AutomountServiceAccountToken: ptr.To(false),
		// Service links would put an environment variable per Service into the
		// containers, where names like HADOOP_..._PORT could collide with Hadoop's.
		EnableServiceLinks: ptr.To(false),
		ImagePullSecrets:   pullSecrets(hc.Spec.ImagePullSecrets),
		PriorityClassName:  r.overrides.PriorityClassName,
		SecurityContext: &corev1.PodSecurityContext{
			RunAsNonRoot: ptr.To(true),
			RunAsUser:    ptr.To(HadoopUID),
			RunAsGroup:   ptr.To(HadoopGID),
			// fsGroup makes the emptyDirs and claims writable, and the 0400 client
			// config files readable: the kubelet gives the group read access.
			FSGroup:             ptr.To(HadoopGID),
			FSGroupChangePolicy: ptr.To(corev1.FSGroupChangeOnRootMismatch),
			SeccompProfile:      &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
		},
		TerminationGracePeriodSeconds: r.gracePeriod,
		InitContainers:                r.initContainers,
		Containers:                    append([]corev1.Container{container(in, r)}, r.sidecars...),
		Volumes:                       append(commonVolumes(in), r.volumes...),
		NodeSelector:                  nodeSelector(hc.Spec.Placement.NodeSelector.Strings(), r.overrides.NodeSelector.Strings()),
		Tolerations:                   v1alpha1.Tolerations(concat(hc.Spec.Placement.Tolerations, r.overrides.Tolerations)),
		Affinity:                      affinity(hc.Spec.Placement.Affinity, r.podAffinity),
		TopologySpreadConstraints:     spreadConstraints(hc, r.component),
	}
	if r.hostNetwork {
		spec.HostNetwork = true
		// Without it a host-network pod resolves names with the node's resolver and
		// cannot find the ResourceManager's Service.
		spec.DNSPolicy = corev1.DNSClusterFirstWithHostNet
	}
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: podLabels, Annotations: annotations},
		Spec:       spec,
	}
}

// hadoopMounts are the mounts every container of component c that runs Hadoop's code
// needs: the Ceph client config, the generated configuration files (the NodeManagers'
// own core-site.xml for a NodeManager, when there is one), the node-to-YARN-host map
// that core-site.xml names, /tmp and the log directory.
func hadoopMounts(in Input, c Component) []corev1.VolumeMount {
	st := in.Storage
	var mounts []corev1.VolumeMount
	if st.cephFS() {
		mounts = append(mounts, corev1.VolumeMount{Name: volumeCephClient, MountPath: CephConfDir, ReadOnly: true})
	}
	mounts = append(mounts,
		topologyMount(),
		corev1.VolumeMount{Name: volumeTmp, MountPath: TmpDir},
		corev1.VolumeMount{Name: volumeLogs, MountPath: LogDir},
	)
	// Single files, so the image's other configuration files stay visible. A subPath
	// mount does not follow ConfigMap updates, and needs not: a new configuration
	// changes the hash annotation, which replaces the pod.
	for _, file := range configFiles(st) {
		source := file
		if file == FileCoreSite && c == NodeManager && in.nodeManagerCoreSite() {
			source = FileNodeManagerCoreSite
		}
		mounts = append(mounts, corev1.VolumeMount{
			Name: volumeConfig, MountPath: ConfDir + "/" + file, SubPath: source, ReadOnly: true,
		})
	}
	return mounts
}

// restrictedSecurityContext drops every capability but those added and keeps the
// root file system read-only.
func restrictedSecurityContext(add []corev1.Capability) *corev1.SecurityContext {
	return &corev1.SecurityContext{
		AllowPrivilegeEscalation: ptr.To(false),
		ReadOnlyRootFilesystem:   ptr.To(true),
		Capabilities: &corev1.Capabilities{
			Drop: []corev1.Capability{"ALL"},
			Add:  add,
		},
	}
}

func container(in Input, r role) corev1.Container {
	return corev1.Container{
		Name:            string(r.component),
		Image:           in.image(),
		ImagePullPolicy: in.Cluster.Spec.ImagePullPolicy,
		Command:         []string{r.command},
		Env:             env(r),
		Ports:           r.ports,
		Resources:       r.resources,
		VolumeMounts:    append(hadoopMounts(in, r.component), r.mounts...),
		// A rolling update and a scale-up wait for each pod's readiness in turn, and
		// the kubelet probes readiness only at its period once the startup probe has
		// passed: short periods make a daemon ready within seconds of its ports
		// opening. A probe is a TCP connect or one small HTTP request.
		StartupProbe: &corev1.Probe{
			ProbeHandler: tcpProbe(r.rpcPort),
			// Up to five minutes: a ResourceManager recovering many applications
			// from CephFS takes a while.
			PeriodSeconds:    2,
			FailureThreshold: 150,
		},
		ReadinessProbe: &corev1.Probe{
			ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
				Path: r.readinessPath, Port: intstr.FromInt32(r.webPort),
			}},
			// Not ready after 30 s without an answer, as a long garbage collection
			// may last.
			PeriodSeconds:    5,
			TimeoutSeconds:   5,
			FailureThreshold: 6,
		},
		LivenessProbe: &corev1.Probe{
			ProbeHandler: tcpProbe(r.rpcPort),
			// Two minutes of silence, so a long garbage collection does not
			// restart a daemon.
			PeriodSeconds:    20,
			TimeoutSeconds:   5,
			FailureThreshold: 6,
		},
		Lifecycle:       lifecycle(r.preStop),
		SecurityContext: restrictedSecurityContext(r.addCapabilities),
	}
}

// env is the variables every Hadoop container gets, the role's, then the user's. A
// user's variable with the name of one set before is dropped, so the operator's value
// holds.
func env(r role) []corev1.EnvVar {
	out := []corev1.EnvVar{
		{Name: EnvPodName, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
		{Name: EnvPodNamespace, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.namespace"}}},
		{Name: EnvPodUID, ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.uid"}}},
		{Name: EnvLogDir, Value: LogDir},
	}
	if r.heap != "" {
		out = append(out, corev1.EnvVar{Name: EnvHeapSize, Value: r.heap})
	}
	out = append(out, r.env...)
	for _, e := range r.overrides.Env {
		if !slices.ContainsFunc(out, func(o corev1.EnvVar) bool { return o.Name == e.Name }) {
			out = append(out, e.Kubernetes())
		}
	}
	return out
}

func commonVolumes(in Input) []corev1.Volume {
	volumes := []corev1.Volume{
		{Name: volumeConfig, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: ConfigMapName(in.Cluster)},
		}}},
	}
	if in.Storage.cephFS() {
		// Only ceph.conf and the keyring: the key never lands in a ConfigMap, and the
		// files are readable by their owner alone (and the pod's fsGroup).
		volumes = append(volumes, cephClientVolume(in.Storage.ClientConfigSecret, 0o400))
	}
	return append(volumes,
		topologyVolume(in.Cluster),
		corev1.Volume{Name: volumeTmp, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		corev1.Volume{Name: volumeLogs, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
	)
}

func tcpProbe(port int32) corev1.ProbeHandler {
	return corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(port)}}
}

func lifecycle(preStop *corev1.LifecycleHandler) *corev1.Lifecycle {
	if preStop == nil {
		return nil
	}
	return &corev1.Lifecycle{PreStop: preStop}
}

// nodeSelector merges a role's entries over the cluster's.
func nodeSelector(cluster, role map[string]string) map[string]string {
	if len(cluster) == 0 && len(role) == 0 {
		return nil
	}
	out := maps.Clone(cluster)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, role)
	return out
}

// affinity is the user's affinity with preferred pod affinity terms added.
func affinity(user *corev1.Affinity, preferred []corev1.WeightedPodAffinityTerm) *corev1.Affinity {
	if len(preferred) == 0 {
		return user.DeepCopy()
	}
	out := user.DeepCopy()
	if out == nil {
		out = &corev1.Affinity{}
	}
	if out.PodAffinity == nil {
		out.PodAffinity = &corev1.PodAffinity{}
	}
	out.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution = append(
		out.PodAffinity.PreferredDuringSchedulingIgnoredDuringExecution, preferred...)
	return out
}

// spreadConstraints applies the cluster's constraints to component c; one without a
// label selector spreads c's pods.
func spreadConstraints(hc *v1alpha1.HadoopCluster, c Component) []corev1.TopologySpreadConstraint {
	var out []corev1.TopologySpreadConstraint
	for _, user := range hc.Spec.Placement.TopologySpreadConstraints {
		tsc := user.Kubernetes()
		if tsc.LabelSelector == nil {
			tsc.LabelSelector = &metav1.LabelSelector{MatchLabels: SelectorLabels(hc, c)}
		}
		out = append(out, tsc)
	}
	return out
}

// pullSecrets are the image pull Secrets in Kubernetes' own reference type.
func pullSecrets(refs []v1alpha1.LocalObjectReference) []corev1.LocalObjectReference {
	if refs == nil {
		return nil
	}
	out := make([]corev1.LocalObjectReference, 0, len(refs))
	for _, r := range refs {
		out = append(out, corev1.LocalObjectReference{Name: r.Name})
	}
	return out
}

// concat joins lists into a new one, nil when all are empty.
func concat[T any](lists ...[]T) []T {
	var out []T
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// cephClientVolume mounts ceph.conf and the keyring of a client config Secret (the
// StorageBackend's, or its evictor's) with mode.
func cephClientVolume(secret string, mode int32) corev1.Volume {
	return corev1.Volume{Name: volumeCephClient, VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
		SecretName: secret,
		Items: []corev1.KeyToPath{
			{Key: cephconf.KeyCephConf, Path: "ceph.conf"},
			{Key: cephconf.KeyKeyring, Path: "keyring"},
		},
		DefaultMode: ptr.To(mode),
	}}}
}
