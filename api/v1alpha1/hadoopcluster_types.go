package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LocalObjectReference names an object in the referencing object's namespace.
type LocalObjectReference struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')",message="must be an object name: a lowercase RFC 1123 subdomain (a-z, 0-9, '-' and '.', starting and ending with a letter or digit)"
	Name string `json:"name"`
}

// HadoopClusterSpec describes a YARN and MapReduce cluster whose default file system is
// the CephFS of a StorageBackend. Only storageBackendRef is required; everything else has
// a default that gives a small working cluster.
// +kubebuilder:validation:XValidation:rule="!(has(self.network) && has(self.network.hostNetwork) && self.network.hostNetwork && has(self.network.dataInterface) && self.network.dataInterface == 'lo' && has(self.nodeManagers) && has(self.nodeManagers.replicas) && self.nodeManagers.replicas > 1)",message="lo is the loopback interface: on the host's network every NodeManager would register with YARN as localhost, which works for one NodeManager only; name the nodes' data NIC (such as eth0 or ib0), leave dataInterface empty, or run one NodeManager",fieldPath=".network.dataInterface"
type HadoopClusterSpec struct {
	// StorageBackendRef names the StorageBackend in this namespace that holds the data.
	// The cluster waits until that backend is Ready. It cannot change: the
	// ResourceManager's state, the job history and the users' data live on that
	// backend's CephFS; docs/hadoopcluster.md describes moving a cluster to another.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable: the ResourceManager's state, the job history and the data live on the old backend's CephFS; create a new HadoopCluster on the new backend and copy the data (docs/hadoopcluster.md)"
	StorageBackendRef LocalObjectReference `json:"storageBackendRef"`

	// Image of the Hadoop pods. Defaults to the operator's configured Hadoop image.
	// docs/hadoopcluster.md describes what the image must contain.
	// +kubebuilder:validation:MaxLength=1024
	// +optional
	Image string `json:"image,omitempty"`

	// ImagePullPolicy of the Hadoop containers; the Kubernetes default applies when empty.
	// +kubebuilder:validation:Enum=Always;IfNotPresent;Never
	// +optional
	ImagePullPolicy corev1.PullPolicy `json:"imagePullPolicy,omitempty"`

	// ImagePullSecrets name Secrets in this namespace for pulling the image.
	// +kubebuilder:validation:MaxItems=16
	// +listType=atomic
	// +optional
	ImagePullSecrets []LocalObjectReference `json:"imagePullSecrets,omitempty"`

	// HadoopVersion is shown by kubectl get -o wide. It is informational: the image
	// decides which Hadoop runs.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	HadoopVersion string `json:"hadoopVersion,omitempty"`

	// ResourceManager is YARN's single ResourceManager.
	// +kubebuilder:default={}
	// +optional
	ResourceManager ResourceManagerSpec `json:"resourceManager,omitzero"`

	// NodeManagers run the YARN containers, and with them the MapReduce tasks.
	// +kubebuilder:default={}
	// +optional
	NodeManagers NodeManagerSpec `json:"nodeManagers,omitzero"`

	// JobHistory is the MapReduce JobHistory server.
	// +kubebuilder:default={}
	// +optional
	JobHistory JobHistorySpec `json:"jobHistory,omitzero"`

	// YARN sets up YARN's scheduler: its queues.
	// +optional
	YARN YARNSpec `json:"yarn,omitzero"`

	// Config overrides the generated Hadoop configuration, file by file. An override
	// replaces the generated value of the same key; keys the operator must own are
	// refused.
	// +optional
	Config HadoopConfig `json:"config,omitzero"`

	// Network attaches the NodeManagers, which carry Hadoop's data traffic, to extra
	// networks and devices.
	// +optional
	Network NetworkSpec `json:"network,omitzero"`

	// Placement constrains where every Hadoop pod runs.
	// +optional
	Placement Placement `json:"placement,omitzero"`

	// Metrics exposes Hadoop's own metrics to Prometheus.
	// +kubebuilder:default={}
	// +optional
	Metrics MetricsSpec `json:"metrics,omitzero"`

	// Access decides who may reach the cluster's daemons over the network.
	// +kubebuilder:default={}
	// +optional
	Access AccessSpec `json:"access,omitzero"`

	// Paused stops reconciliation of this cluster and its children; status keeps its
	// last values and a Paused reason.
	// +optional
	Paused bool `json:"paused,omitempty"`
}

// YARNSpec sets up YARN's CapacityScheduler.
type YARNSpec struct {
	// Queues are the CapacityScheduler's queues, all children of root. Empty: one
	// queue, default, with the whole cluster. Applications that name no queue, such as
	// BenchmarkRuns without spec.queue, go to default, so the list must have it, not
	// stopped. A change is applied by the ResourceManager without a restart. YARN
	// removes only stopped queues: set a queue's state to Stopped, let its
	// applications finish, then remove it.
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:XValidation:rule="size(self) == 0 || self.exists(q, q.name == 'default' && (!has(q.state) || q.state == 'Running'))",message="must have a queue named default, not stopped, where applications that name no queue go"
	// +kubebuilder:validation:XValidation:rule="size(self) == 0 || self.map(q, q.capacity).sum() == 100",message="the capacities of the queues must add up to 100"
	// +listType=map
	// +listMapKey=name
	// +optional
	Queues []Queue `json:"queues,omitempty"`
}

// Queue is one CapacityScheduler queue under root.
// +kubebuilder:validation:XValidation:rule="!has(self.maximumCapacity) || self.maximumCapacity >= self.capacity",message="must be at least capacity",fieldPath=".maximumCapacity"
type Queue struct {
	// Name of the queue, as applications name it (mapreduce.job.queuename).
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$`
	// +kubebuilder:validation:XValidation:rule="self != 'root'",message="root is the parent of every queue"
	Name string `json:"name"`

	// Capacity is the queue's guaranteed share of the cluster, in percent. One user
	// may take up to maximumCapacity (the queue's user-limit-factor is their ratio).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	Capacity int32 `json:"capacity"`

	// MaximumCapacity is how far, in percent of the cluster, the queue may grow into
	// what other queues leave idle. Default 100.
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	// +optional
	MaximumCapacity *int32 `json:"maximumCapacity,omitempty"`

	// State Stopped refuses new applications and lets running ones finish; YARN
	// removes a queue only once it is stopped.
	// +kubebuilder:validation:Enum=Running;Stopped
	// +kubebuilder:default=Running
	// +optional
	State QueueState `json:"state,omitempty"`

	// Submitters submit applications to this queue, and see and kill their own. Unset:
	// spec.access.yarn.submitters, and when that is unset too, every user. The admins
	// of spec.access.yarn submit to every queue.
	// +optional
	Submitters *ACLEntries `json:"submitters,omitempty"`
}

// QueueState is whether a queue takes new applications.
type QueueState string

const (
	QueueRunning QueueState = "Running"
	QueueStopped QueueState = "Stopped"
)

// ResourceManagerSpec sizes the ResourceManager pod.
type ResourceManagerSpec struct {
	// Resources of the ResourceManager container. Its JVM heap is 75% of the memory
	// limit (else request), which must be at least 512Mi.
	// +kubebuilder:default={requests: {cpu: "500m", memory: "1Gi"}, limits: {memory: "1Gi"}}
	// +kubebuilder:validation:XValidation:rule="!has(self.requests) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.requests) || !quantity(string(self.requests[k])).isLessThan(quantity('0')))",message="must not be negative",fieldPath=".requests"
	// +kubebuilder:validation:XValidation:rule="!has(self.limits) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.limits) || !quantity(string(self.limits[k])).isLessThan(quantity('0')))",message="must not be negative",fieldPath=".limits"
	// +kubebuilder:validation:XValidation:rule="!has(self.limits) || !has(self.requests) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.requests) || !(k in self.limits) || quantity(string(self.limits[k])).compareTo(quantity(string(self.requests[k]))) >= 0)",message="must not exceed the limit of the same resource: Kubernetes refuses a request larger than its limit",fieldPath=".requests"
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitzero"`

	// PodOverrides adjust the ResourceManager pod.
	// +optional
	PodOverrides PodOverrides `json:"podOverrides,omitzero"`
}

// NodeManagerSpec sizes the NodeManager StatefulSet. YARN's memory and vcores follow
// from the pod's resources unless yarn sets them. Memory minimums are checked by the
// operator, which reports them in the ConfigReady condition.
// +kubebuilder:validation:XValidation:rule="!has(self.resources) || ((has(self.resources.limits) && 'memory' in self.resources.limits) || (has(self.resources.requests) && 'memory' in self.resources.requests))",message="resources must set a memory limit or request: YARN's memory is derived from it and the pod needs at least 3584Mi",fieldPath=".resources"
type NodeManagerSpec struct {
	// Replicas is the number of NodeManagers. The scale subresource sets it.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=1000
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// Resources of each NodeManager container. YARN containers run inside this pod, so
	// its memory bounds them all: the memory limit (else request) must be at least
	// 3584Mi, which the operator checks and reports in the ConfigReady condition.
	// Extended resources from network.extendedResources are added to it.
	// +kubebuilder:default={requests: {cpu: "2", memory: "4Gi"}, limits: {memory: "4Gi"}}
	// +kubebuilder:validation:XValidation:rule="!has(self.requests) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.requests) || !quantity(string(self.requests[k])).isLessThan(quantity('0')))",message="must not be negative",fieldPath=".requests"
	// +kubebuilder:validation:XValidation:rule="!has(self.limits) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.limits) || !quantity(string(self.limits[k])).isLessThan(quantity('0')))",message="must not be negative",fieldPath=".limits"
	// +kubebuilder:validation:XValidation:rule="!has(self.limits) || !has(self.requests) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.requests) || !(k in self.limits) || quantity(string(self.limits[k])).compareTo(quantity(string(self.requests[k]))) >= 0)",message="must not exceed the limit of the same resource: Kubernetes refuses a request larger than its limit",fieldPath=".requests"
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitzero"`

	// YARN sets what each NodeManager offers YARN instead of deriving it from
	// resources.
	// +optional
	YARN *YARNResources `json:"yarn,omitempty"`

	// LocalDirs hold YARN's local directories: shuffle data, spills and localized
	// files. Defaults to an emptyDir.
	// +kubebuilder:default={emptyDir: {}}
	// +optional
	LocalDirs LocalDirs `json:"localDirs,omitzero"`

	// DecommissionTimeoutSeconds bounds a graceful decommission. Before the replicas go
	// down, the operator has YARN decommission the NodeManagers that go: they take no
	// new containers, and keep running those they have, and serving the map outputs of
	// the applications that ran there, until these finish or this many seconds have
	// passed. Only then is the StatefulSet lowered. 0 lowers it at once, and the
	// containers on the removed pods are killed and retried elsewhere.
	// +kubebuilder:default=3600
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=604800
	// +optional
	DecommissionTimeoutSeconds *int32 `json:"decommissionTimeoutSeconds,omitempty"`

	// TerminationGracePeriodSeconds bounds a NodeManager's shutdown: it stops its
	// containers, whose JVMs close their CephFS sessions, and leaves the ResourceManager.
	// +kubebuilder:default=120
	// +kubebuilder:validation:Minimum=10
	// +kubebuilder:validation:Maximum=3600
	// +optional
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`

	// PodOverrides adjust the NodeManager pods.
	// +optional
	PodOverrides PodOverrides `json:"podOverrides,omitzero"`
}

// YARNResources are the memory and vcores a NodeManager offers YARN.
type YARNResources struct {
	// Memory for YARN containers (yarn.nodemanager.resource.memory-mb), at least 2560Mi.
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).compareTo(quantity('2560Mi')) >= 0",message="must be at least 2560Mi: a MapReduce ApplicationMaster (1536Mi) and one 1024Mi task"
	// +optional
	Memory *resource.Quantity `json:"memory,omitempty"`

	// VCores for YARN containers (yarn.nodemanager.resource.cpu-vcores).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1024
	// +optional
	VCores *int32 `json:"vcores,omitempty"`
}

// LocalDirs is either an emptyDir or a volume claim per NodeManager.
// +kubebuilder:validation:XValidation:rule="has(self.emptyDir) != has(self.volumeClaim)",message="exactly one of emptyDir or volumeClaim must be set"
// +kubebuilder:validation:XValidation:rule="has(self.volumeClaim) == has(oldSelf.volumeClaim)",message="the choice between emptyDir and volumeClaim is immutable: a StatefulSet cannot change its volume claims; create a new HadoopCluster instead"
type LocalDirs struct {
	// EmptyDir keeps local data on the node for the pod's lifetime.
	// +optional
	EmptyDir *EmptyDirLocalDirs `json:"emptyDir,omitempty"`

	// VolumeClaim gives every NodeManager its own PersistentVolumeClaim.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable: a StatefulSet cannot change its volume claims; create a new HadoopCluster instead"
	// +optional
	VolumeClaim *VolumeClaimLocalDirs `json:"volumeClaim,omitempty"`
}

// EmptyDirLocalDirs configures the emptyDir of the local directories.
type EmptyDirLocalDirs struct {
	// Medium is "" for the node's disk or Memory for tmpfs, which counts against the
	// pod's memory.
	// +kubebuilder:validation:Enum="";Memory
	// +optional
	Medium corev1.StorageMedium `json:"medium,omitempty"`

	// SizeLimit evicts the pod when its local data grows past it.
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).isGreaterThan(quantity('0'))",message="must be positive"
	// +optional
	SizeLimit *resource.Quantity `json:"sizeLimit,omitempty"`
}

// VolumeClaimLocalDirs describes the PersistentVolumeClaim of each NodeManager.
type VolumeClaimLocalDirs struct {
	// StorageClassName of the claims; the cluster's default class when empty.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self == '' || self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')",message="must be a StorageClass name: a lowercase RFC 1123 subdomain (a-z, 0-9, '-' and '.')"
	// +optional
	StorageClassName *string `json:"storageClassName,omitempty"`

	// Size of each claim.
	// +kubebuilder:validation:XValidation:rule="quantity(string(self)).isGreaterThan(quantity('0'))",message="must be positive"
	Size resource.Quantity `json:"size"`
}

// JobHistorySpec configures the MapReduce JobHistory server.
type JobHistorySpec struct {
	// Enabled runs a JobHistory server, which keeps finished jobs' counters and logs
	// browsable. A pointer, because false must survive a Go client's round trip past
	// the default.
	// +kubebuilder:default=true
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// Resources of the JobHistory container. Its JVM heap is 75% of the memory limit
	// (else request), which must be at least 512Mi.
	// +kubebuilder:default={requests: {cpu: "250m", memory: "1Gi"}, limits: {memory: "1Gi"}}
	// +kubebuilder:validation:XValidation:rule="!has(self.requests) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.requests) || !quantity(string(self.requests[k])).isLessThan(quantity('0')))",message="must not be negative",fieldPath=".requests"
	// +kubebuilder:validation:XValidation:rule="!has(self.limits) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.limits) || !quantity(string(self.limits[k])).isLessThan(quantity('0')))",message="must not be negative",fieldPath=".limits"
	// +kubebuilder:validation:XValidation:rule="!has(self.limits) || !has(self.requests) || ['cpu', 'memory', 'ephemeral-storage'].all(k, !(k in self.requests) || !(k in self.limits) || quantity(string(self.limits[k])).compareTo(quantity(string(self.requests[k]))) >= 0)",message="must not exceed the limit of the same resource: Kubernetes refuses a request larger than its limit",fieldPath=".requests"
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitzero"`

	// PodOverrides adjust the JobHistory pod.
	// +optional
	PodOverrides PodOverrides `json:"podOverrides,omitzero"`
}

// PodOverrides adjust the pods of one role. Labels, annotations and environment
// variables the operator sets cannot be overridden.
type PodOverrides struct {
	// Labels added to the pods.
	// +kubebuilder:validation:MaxProperties=64
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('app.kubernetes.io/') && !k.startsWith('hadoopceph.io/'))",message="must not use the app.kubernetes.io/ or hadoopceph.io/ prefixes: the operator selects its pods by those labels"
	// +optional
	Labels Labels `json:"labels,omitempty"`

	// Annotations added to the pods.
	// +kubebuilder:validation:MaxProperties=64
	// +kubebuilder:validation:XValidation:rule="self.all(k, k != 'k8s.v1.cni.cncf.io/networks' && !k.startsWith('hadoopceph.io/'))",message="must not set k8s.v1.cni.cncf.io/networks (use spec.network.attachments) or use the hadoopceph.io/ prefix"
	// +optional
	Annotations Annotations `json:"annotations,omitempty"`

	// PriorityClassName of the pods.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$')",message="must be a PriorityClass name: a lowercase RFC 1123 subdomain (a-z, 0-9, '-' and '.')"
	// +optional
	PriorityClassName string `json:"priorityClassName,omitempty"`

	// Env adds environment variables to the Hadoop container. A variable the operator
	// sets keeps the operator's value; use config.hadoopEnv to change Hadoop's own
	// settings.
	// +kubebuilder:validation:MaxItems=64
	// +listType=map
	// +listMapKey=name
	// +optional
	Env []EnvVar `json:"env,omitempty"`

	// NodeSelector entries added to placement.nodeSelector for this role; an entry
	// here wins over one with the same key there.
	// +kubebuilder:validation:MaxProperties=32
	// +optional
	NodeSelector Labels `json:"nodeSelector,omitempty"`

	// Tolerations added to placement.tolerations for this role.
	// +kubebuilder:validation:MaxItems=32
	// +listType=atomic
	// +optional
	Tolerations []Toleration `json:"tolerations,omitempty"`
}

// HadoopConfig holds per-file overrides of the generated configuration. Each map is
// property name to value; an override replaces the generated value of the same key.
// Keys the operator must own are refused; docs/hadoopcluster.md lists them with the
// reason for each.
type HadoopConfig struct {
	// CoreSite overrides core-site.xml. fs.defaultFS, fs.ceph.impl,
	// fs.AbstractFileSystem.ceph.impl and the ceph.* keys that say how to reach CephFS
	// come from the StorageBackend and are refused. Tuning keys such as
	// ceph.object.size, ceph.data.pools or fs.ceph.block.size are allowed.
	// +kubebuilder:validation:MaxProperties=256
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() <= 256 && k.matches('^[!-~]+$'))",message="keys must be Hadoop property names: 1 to 256 printable ASCII characters without spaces"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 16384)",message="values must be at most 16384 characters"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !(k in ['fs.defaultFS', 'fs.ceph.impl', 'fs.AbstractFileSystem.ceph.impl', 'ceph.conf.file', 'ceph.conf.options', 'ceph.mon.address', 'ceph.auth.id', 'ceph.auth.keyring', 'ceph.auth.keyfile', 'ceph.root.dir']))",message="must not set fs.defaultFS, fs.ceph.impl, fs.AbstractFileSystem.ceph.impl, ceph.conf.file, ceph.conf.options, ceph.mon.address, ceph.auth.id, ceph.auth.keyring, ceph.auth.keyfile or ceph.root.dir: the operator sets the default file system and the CephFS connection from the StorageBackend (config.cephOptions takes extra libcephfs options)"
	// +optional
	CoreSite map[string]string `json:"coreSite,omitempty"`

	// YarnSite overrides yarn-site.xml. The ResourceManager and NodeManager hostname,
	// address and bind-host keys, the NodeManager's local and log directories and its
	// memory and vcores are refused: Services, volumes and nodeManagers set them.
	// +kubebuilder:validation:MaxProperties=256
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() <= 256 && k.matches('^[!-~]+$'))",message="keys must be Hadoop property names: 1 to 256 printable ASCII characters without spaces"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 16384)",message="values must be at most 16384 characters"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !(k in ['yarn.resourcemanager.hostname', 'yarn.resourcemanager.bind-host', 'yarn.resourcemanager.address', 'yarn.resourcemanager.scheduler.address', 'yarn.resourcemanager.resource-tracker.address', 'yarn.resourcemanager.admin.address', 'yarn.resourcemanager.webapp.address', 'yarn.nodemanager.hostname', 'yarn.nodemanager.bind-host', 'yarn.nodemanager.address', 'yarn.nodemanager.localizer.address', 'yarn.nodemanager.webapp.address', 'yarn.nodemanager.local-dirs', 'yarn.nodemanager.log-dirs', 'yarn.nodemanager.resource.memory-mb', 'yarn.nodemanager.resource.cpu-vcores', 'yarn.acl.enable', 'yarn.admin.acl', 'yarn.resourcemanager.nodes.exclude-path']))",message="must not set the yarn.resourcemanager.* or yarn.nodemanager.* hostname, address or bind-host keys, yarn.nodemanager.local-dirs, yarn.nodemanager.log-dirs, yarn.nodemanager.resource.memory-mb, yarn.nodemanager.resource.cpu-vcores, yarn.acl.enable, yarn.admin.acl or yarn.resourcemanager.nodes.exclude-path: the operator derives them from its Services and volumes, from spec.nodeManagers.resources (or spec.nodeManagers.yarn), from spec.access.yarn, and from scale-downs, which it decommissions"
	// +optional
	YarnSite map[string]string `json:"yarnSite,omitempty"`

	// MapredSite overrides mapred-site.xml. mapreduce.framework.name and the JobHistory
	// address and bind-host keys are refused.
	// +kubebuilder:validation:MaxProperties=256
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() <= 256 && k.matches('^[!-~]+$'))",message="keys must be Hadoop property names: 1 to 256 printable ASCII characters without spaces"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 16384)",message="values must be at most 16384 characters"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !(k in ['mapreduce.framework.name', 'mapreduce.jobhistory.address', 'mapreduce.jobhistory.webapp.address', 'mapreduce.jobhistory.admin.address', 'mapreduce.jobhistory.bind-host', 'yarn.app.mapreduce.am.job.client.port-range']))",message="must not set mapreduce.framework.name, mapreduce.jobhistory.address, mapreduce.jobhistory.webapp.address, mapreduce.jobhistory.admin.address, mapreduce.jobhistory.bind-host or yarn.app.mapreduce.am.job.client.port-range: MapReduce runs on this cluster's YARN, the JobHistory server is reached through its Service, and the NetworkPolicies open the ApplicationMasters' client ports"
	// +optional
	MapredSite map[string]string `json:"mapredSite,omitempty"`

	// SparkDefaults overrides spark-defaults.conf, which the client ConfigMap carries
	// for the image's Spark (docs/using.md): spark.executor.memory,
	// spark.executor.instances, spark.eventLog.dir and the like.
	// +kubebuilder:validation:MaxProperties=256
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() <= 256 && k.matches('^[!-~]+$'))",message="keys must be Spark property names: 1 to 256 printable ASCII characters without spaces"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 16384)",message="values must be at most 16384 characters"
	// +optional
	SparkDefaults map[string]string `json:"sparkDefaults,omitempty"`

	// HadoopEnv sets environment variables in hadoop-env.sh, which every Hadoop command
	// and daemon sources. Values are double-quoted, so $VAR references expand.
	// HADOOP_CONF_DIR is refused: the generated files live in the image's directory.
	// +kubebuilder:validation:MaxProperties=64
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() <= 128 && k.matches('^[A-Za-z_][A-Za-z0-9_]*$'))",message="keys must be environment variable names: a letter or '_', then letters, digits or '_'"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 16384)",message="values must be at most 16384 characters"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !(k in ['HADOOP_CONF_DIR']))",message="must not set HADOOP_CONF_DIR: the generated configuration is mounted into the image's configuration directory"
	// +optional
	HadoopEnv map[string]string `json:"hadoopEnv,omitempty"`

	// CephOptions are extra libcephfs options for every Hadoop client: the
	// ResourceManager, the JobHistory server, the NodeManagers and their YARN
	// containers, and the benchmark stages, such as client_oc_size or debug_client.
	// They reach the connector through ceph.conf.options. The options that name the
	// monitors, the credentials, the file system or the session tags are refused, and
	// so is Ceph's RDMA messenger (an ms_type, ms_public_type or ms_cluster_type with
	// rdma), which only pods with an RDMA device can use: network.cephOptions takes it.
	// +kubebuilder:validation:MaxProperties=16
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() <= 128 && k.matches('^[a-z][a-z0-9_]*$'))",message="keys must be Ceph option names: lowercase letters, digits and '_', starting with a letter"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 1024)",message="values must be at most 1024 characters"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !self[k].contains(','))",message="values must not contain ',': the connector separates options with commas"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !(k in ['client_fs', 'client_mds_namespace', 'client_mountpoint', 'client_metadata', 'mon_host', 'keyring', 'key', 'keyfile']))",message="must not set client_fs, client_mds_namespace, client_mountpoint, client_metadata, mon_host, keyring, key or keyfile: the operator sets them from the StorageBackend, and the connector tags each session"
	// +kubebuilder:validation:XValidation:rule="!['ms_type', 'ms_public_type', 'ms_cluster_type'].exists(o, o in self && self[o].contains('rdma'))",message="must not choose Ceph's RDMA messenger (ms_type, ms_public_type or ms_cluster_type with rdma): every Hadoop client gets these options, and the ResourceManager, the JobHistory server and the benchmark stages have no RDMA device; set it in spec.network.cephOptions, which only the NodeManagers and their YARN containers get"
	// +optional
	CephOptions map[string]string `json:"cephOptions,omitempty"`
}

// MetricsSpec exposes the metrics the Hadoop daemons keep about themselves (YARN's
// queues, applications and containers, the JVMs, RPC) to Prometheus, which the
// operator's own metrics, about its reconciles, do not show.
type MetricsSpec struct {
	// Enabled turns on Hadoop's Prometheus endpoint, /prom on the web port of the
	// ResourceManager, every NodeManager and the JobHistory server
	// (hadoop.prometheus.endpoint.enabled in core-site.xml; config.coreSite can still
	// set that key), and, where the Prometheus Operator is installed, a PodMonitor that
	// scrapes it. A pointer, because false must survive a Go client's round trip past
	// the default.
	// +kubebuilder:default=true
	// +optional
	Enabled *bool `json:"enabled,omitempty"`

	// PodMonitor adjusts the PodMonitor the operator creates when the API server
	// serves the Prometheus Operator's monitoring.coreos.com/v1 PodMonitors.
	// +optional
	PodMonitor PodMonitorSpec `json:"podMonitor,omitzero"`
}

// PodMonitorSpec adjusts a cluster's PodMonitor. Every PodMonitor of the operator
// carries the label hadoopceph.io/metrics: hadoop, which one Prometheus can select to
// scrape every cluster.
type PodMonitorSpec struct {
	// Labels added to the PodMonitor, for a Prometheus whose podMonitorSelector
	// matches other labels, such as release: prometheus.
	// +kubebuilder:validation:MaxProperties=16
	// +kubebuilder:validation:XValidation:rule="self.all(k, !k.startsWith('app.kubernetes.io/') && !k.startsWith('hadoopceph.io/'))",message="must not use the app.kubernetes.io/ or hadoopceph.io/ prefixes: the operator sets those labels, and Prometheus may select PodMonitors by them"
	// +optional
	Labels Labels `json:"labels,omitempty"`

	// Interval between two scrapes of each daemon, a Prometheus duration such as 30s
	// or 1m30s; the Prometheus' own scrape interval when empty.
	// +kubebuilder:validation:MaxLength=32
	// +kubebuilder:validation:XValidation:rule="self == '' || (self.matches('^([0-9]+y)?([0-9]+w)?([0-9]+d)?([0-9]+h)?([0-9]+m)?([0-9]+s)?([0-9]+ms)?$') && self.matches('[1-9]'))",message="must be a positive Prometheus duration such as 30s, 1m or 1m30s: numbers with the units y, w, d, h, m, s and ms, largest first"
	// +optional
	Interval string `json:"interval,omitempty"`
}

// AccessSpec decides who reaches the cluster's daemons. Under Hadoop's simple
// authentication a client names itself, so the network is the boundary; docs/security.md
// describes what each setting protects.
type AccessSpec struct {
	// NetworkPolicies makes the operator create one NetworkPolicy per daemon that admits
	// only the cluster's own pods (its daemons and its benchmark stages) and the
	// clients listed here. False leaves the cluster's network policies to its owner, and
	// deletes the operator's. A pointer, because false must survive a Go client's round
	// trip past the default. Only a network plugin that enforces NetworkPolicies makes
	// them effective, and they do not apply to pods on the host's network.
	// +kubebuilder:default=true
	// +optional
	NetworkPolicies *bool `json:"networkPolicies,omitempty"`

	// Clients are the pods outside the cluster that may reach its daemons while the
	// operator's NetworkPolicies are on.
	// +optional
	Clients AccessClients `json:"clients,omitzero"`

	// YARN turns on YARN's access control lists and says who is on them.
	// +kubebuilder:default={}
	// +optional
	YARN YARNAccess `json:"yarn,omitzero"`
}

// YARNAccess sets YARN's access control lists: who administers YARN and its queues,
// who submits applications, who sees and kills them. Under Hadoop's simple
// authentication every client names its own user, so the lists keep well-behaved
// tenants apart and stop mistakes; against a hostile client the NetworkPolicies are
// the boundary, and Kerberos the real answer.
type YARNAccess struct {
	// ACLs sets yarn.acl.enable. False leaves every queue and application open to
	// every user, as Hadoop's defaults do. A pointer, because false must survive a Go
	// client's round trip past the default.
	// +kubebuilder:default=true
	// +optional
	ACLs *bool `json:"acls,omitempty"`

	// Admins administer YARN (yarn.admin.acl: yarn rmadmin) and every queue: they
	// submit to any queue and see, kill and move every application. hadoop, the user
	// the daemons and the benchmark stages run as, is always one of them.
	// +optional
	Admins ACLEntries `json:"admins,omitzero"`

	// Submitters submit applications to every queue that does not list its own (the
	// default queue when spec.yarn.queues is empty), and see and kill their own.
	// Unset, every user does; set, even with empty lists, only they and the admins do.
	// +optional
	Submitters *ACLEntries `json:"submitters,omitempty"`
}

// ACLEntries are the users and groups of one of Hadoop's access control lists. Groups
// are those the ResourceManager's group mapping resolves, by default the groups of
// the user of that name inside its container.
type ACLEntries struct {
	// Users by name.
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MaxLength=64
	// +kubebuilder:validation:items:Pattern=`^[A-Za-z0-9_.@$-]+$`
	// +listType=set
	// +optional
	Users []string `json:"users,omitempty"`

	// Groups by name.
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MaxLength=64
	// +kubebuilder:validation:items:Pattern=`^[A-Za-z0-9_.@$-]+$`
	// +listType=set
	// +optional
	Groups []string `json:"groups,omitempty"`
}

// AccessClients lists peers by what they need to reach.
type AccessClients struct {
	// RPC peers reach the daemons' RPC ports: they submit and watch YARN applications,
	// talk to the MapReduce ApplicationMasters, and ask the JobHistory server. A
	// Hadoop client, such as yarn jar or mapred job, needs this.
	// +kubebuilder:validation:MaxItems=16
	// +listType=atomic
	// +optional
	RPC []NetworkPeer `json:"rpc,omitempty"`

	// Web peers reach the daemons' web port: the web UIs, the REST APIs and the
	// Prometheus endpoint /prom, so a Prometheus that scrapes the cluster belongs here.
	// +kubebuilder:validation:MaxItems=16
	// +listType=atomic
	// +optional
	Web []NetworkPeer `json:"web,omitempty"`
}

// NetworkPeer selects pods as a NetworkPolicy peer does: podSelector alone selects pods
// of the cluster's namespace, namespaceSelector alone every pod of the selected
// namespaces, and both the selected pods of the selected namespaces. An empty selector
// ({}) selects all.
// +kubebuilder:validation:XValidation:rule="has(self.podSelector) || has(self.namespaceSelector)",message="must set podSelector, namespaceSelector or both: a peer without either would select nothing",fieldPath=".podSelector"
type NetworkPeer struct {
	// PodSelector selects pods by their labels.
	// +optional
	PodSelector *metav1.LabelSelector `json:"podSelector,omitempty"`

	// NamespaceSelector selects namespaces by their labels, such as
	// kubernetes.io/metadata.name.
	// +optional
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty"`
}

// NetworkSpec attaches the NodeManagers to the networks and devices that carry
// Hadoop's data: shuffle between NodeManagers and CephFS I/O of the YARN containers.
// +kubebuilder:validation:XValidation:rule="!(has(self.hostNetwork) && self.hostNetwork && has(self.attachments) && size(self.attachments) > 0)",message="hostNetwork cannot be combined with attachments: a host-network pod already has the node's interfaces, and Multus does not attach networks to it"
// +kubebuilder:validation:XValidation:rule="!has(self.attachments) || self.attachments.all(a, !has(a.interfaceName) || self.attachments.exists_one(b, has(b.interfaceName) && b.interfaceName == a.interfaceName))",message="attachments must use distinct interfaceName values"
// The pod's interfaces are known at admission, except on the host's network: eth0,
// each attachment's (Multus numbers unnamed ones by position, net1 first), and one
// more after them for Rook's Multus public network, which the operator appends last.
// +kubebuilder:validation:XValidation:rule="!has(self.dataInterface) || (has(self.hostNetwork) && self.hostNetwork) || self.dataInterface == 'eth0' || (has(self.attachments) && self.attachments.exists(a, has(a.interfaceName) && a.interfaceName == self.dataInterface)) || (self.dataInterface.matches('^net[1-9]$') && int(self.dataInterface.substring(3)) <= (has(self.attachments) ? size(self.attachments) : 0) + 1 && (int(self.dataInterface.substring(3)) > (has(self.attachments) ? size(self.attachments) : 0) || !has(self.attachments[int(self.dataInterface.substring(3)) - 1].interfaceName)))",message="must be an interface of the NodeManager pods: eth0, an attachment's interfaceName, net<N> for the N-th attachment without one, or the one after the attachments (Rook's Multus public network); any of the node's interfaces needs hostNetwork",fieldPath=".dataInterface"
type NetworkSpec struct {
	// Attachments are Multus networks (NetworkAttachmentDefinitions) the NodeManager
	// pods join, for example an InfiniBand, SR-IOV or 10GbE network; the benchmark
	// stages join them too. When the Rook cluster uses Multus for its public network,
	// every Hadoop pod also joins that network without being listed here. A
	// NetworkAttachmentDefinition annotated k8s.v1.cni.cncf.io/resourceName, as
	// device-backed networks such as SR-IOV are, makes every pod that joins it request
	// one such device (status.network.attachmentResources lists them), as the network's
	// CNI needs; no webhook has to add the requests.
	// +kubebuilder:validation:MaxItems=8
	// +listType=atomic
	// +optional
	Attachments []NetworkAttachment `json:"attachments,omitempty"`

	// ExtendedResources are requested (and limited) per NodeManager pod, for example
	// rdma/rdma_shared_device_a or GPUs. An attachment's device need not be listed:
	// its NetworkAttachmentDefinition's resourceName is requested already, and an
	// entry of the same name here is the same device, so the NodeManagers request the
	// larger of the two counts.
	// +kubebuilder:validation:MaxItems=8
	// +listType=map
	// +listMapKey=name
	// +optional
	ExtendedResources []ExtendedResource `json:"extendedResources,omitempty"`

	// IPCLock adds the IPC_LOCK capability, which RDMA needs to pin memory, to the
	// NodeManagers and the benchmark stages. Unset adds it when a NodeManager requests
	// an extended resource whose name contains "rdma", listed in extendedResources or
	// named by an attachment's NetworkAttachmentDefinition.
	// +optional
	IPCLock *bool `json:"ipcLock,omitempty"`

	// DataInterface is the network interface inside the NodeManager pod whose address
	// the NodeManager advertises, so shuffle traffic between NodeManagers uses it; for
	// example net1 (Multus's first attachment) or ib0 with hostNetwork. Empty uses the
	// pod's primary interface.
	// +kubebuilder:validation:MaxLength=15
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9][A-Za-z0-9_.-]*$')",message="must be a network interface name: up to 15 letters, digits, '_', '.' or '-'"
	// +optional
	DataInterface string `json:"dataInterface,omitempty"`

	// HostNetwork runs every Hadoop pod (ResourceManager, JobHistory server,
	// NodeManagers and benchmark stages) in its node's network namespace. NodeManagers
	// get the node's NICs (and RDMA devices) without Multus, and every pod reaches a
	// Ceph cluster that only the nodes' networks reach. Two NodeManagers then never
	// share a node, since their ports would collide.
	// +optional
	HostNetwork bool `json:"hostNetwork,omitempty"`
	// CephOptions are libcephfs options only for the NodeManagers and the YARN
	// containers they run, the pods that hold the data network's devices: Ceph's RDMA
	// messenger (ms_type: async+rdma, ms_async_rdma_device_name, ...). They are merged
	// over config.cephOptions, an option here winning, into a core-site.xml of the
	// NodeManagers' own, where ceph.conf.options is final, so a MapReduce job's
	// configuration cannot replace it in its tasks. The ResourceManager, the JobHistory
	// server, the benchmark stages and the operator's Jobs do not get them. The options
	// config.cephOptions refuses as the operator's are refused here too.
	// +kubebuilder:validation:MaxProperties=16
	// +kubebuilder:validation:XValidation:rule="self.all(k, k.size() <= 128 && k.matches('^[a-z][a-z0-9_]*$'))",message="keys must be Ceph option names: lowercase letters, digits and '_', starting with a letter"
	// +kubebuilder:validation:XValidation:rule="self.all(k, self[k].size() <= 1024)",message="values must be at most 1024 characters"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !self[k].contains(','))",message="values must not contain ',': the connector separates options with commas"
	// +kubebuilder:validation:XValidation:rule="self.all(k, !(k in ['client_fs', 'client_mds_namespace', 'client_mountpoint', 'client_metadata', 'mon_host', 'keyring', 'key', 'keyfile']))",message="must not set client_fs, client_mds_namespace, client_mountpoint, client_metadata, mon_host, keyring, key or keyfile: the operator sets them from the StorageBackend, and the connector tags each session"
	// +optional
	CephOptions map[string]string `json:"cephOptions,omitempty"`
}

// ExtendedResource is a device resource a device plugin advertises on nodes.
type ExtendedResource struct {
	// Name of the resource, <domain>/<name>.
	// +kubebuilder:validation:MinLength=3
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$')",message="must be an extended resource name <domain>/<name>, such as rdma/rdma_shared_device_a, nvidia.com/gpu or intel.com/sriov_netdevice"
	// +kubebuilder:validation:XValidation:rule="!self.split('/')[0].endsWith('kubernetes.io')",message="must not be in the kubernetes.io domain: those are Kubernetes' own resources, set in resources"
	Name string `json:"name"`

	// Count of devices per pod.
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1024
	// +optional
	Count int32 `json:"count,omitempty"`
}

// NetworkAttachment names a NetworkAttachmentDefinition.
type NetworkAttachment struct {
	// Name of the NetworkAttachmentDefinition.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",message="must be a lowercase RFC 1123 label (a-z, 0-9 and '-', starting and ending with a letter or digit)"
	Name string `json:"name"`

	// Namespace of the NetworkAttachmentDefinition; this HadoopCluster's when empty.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",message="must be a namespace name (a lowercase RFC 1123 label)"
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// InterfaceName inside the pod; Multus names attachments net1, net2, ... in order
	// when empty.
	// +kubebuilder:validation:MaxLength=15
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9][A-Za-z0-9_.-]*$')",message="must be a network interface name: up to 15 letters, digits, '_', '.' or '-'"
	// +kubebuilder:validation:XValidation:rule="self != 'eth0' && self != 'lo'",message="must not be eth0 or lo: those are the pod's own interfaces"
	// +optional
	InterfaceName string `json:"interfaceName,omitempty"`
}

// Placement constrains where Hadoop pods run. It applies to every role; a role's
// podOverrides can add node selector entries and tolerations.
type Placement struct {
	// NodeSelector restricts pods to nodes with these labels.
	// +kubebuilder:validation:MaxProperties=32
	// +optional
	NodeSelector Labels `json:"nodeSelector,omitempty"`

	// Tolerations let pods run on tainted nodes.
	// +kubebuilder:validation:MaxItems=32
	// +listType=atomic
	// +optional
	Tolerations []Toleration `json:"tolerations,omitempty"`

	// Affinity of the pods.
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`

	// TopologySpreadConstraints spread the pods of each role. A constraint without a
	// labelSelector spreads the pods of the role it is applied to.
	// +kubebuilder:validation:MaxItems=8
	// +kubebuilder:validation:XValidation:rule="self.all(a, self.exists_one(b, b.topologyKey == a.topologyKey && b.whenUnsatisfiable == a.whenUnsatisfiable))",message="must not repeat a pair of topologyKey and whenUnsatisfiable"
	// +listType=atomic
	// +optional
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty"`

	// PreferCephOSDNodes prefers nodes that run Ceph OSDs of the Rook cluster for
	// NodeManagers, so the connector's block locations let YARN read data locally.
	// It has no effect with an external Ceph cluster, whose OSDs are not pods.
	// +optional
	PreferCephOSDNodes bool `json:"preferCephOSDNodes,omitempty"`
}

// HadoopClusterStatus is rebuilt from what exists on every reconcile.
type HadoopClusterStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Conditions: Ready summarises StorageReady, ConfigReady, NetworkReady,
	// ResourceManagerReady, NodeManagersReady and (when enabled) JobHistoryReady.
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// NodeManagerReplicas is the number of NodeManager pods that exist, for the scale
	// subresource.
	// +optional
	NodeManagerReplicas int32 `json:"nodeManagerReplicas,omitempty"`

	// ReadyNodeManagers is the number of NodeManager pods that are ready.
	// +optional
	ReadyNodeManagers int32 `json:"readyNodeManagers,omitempty"`

	// DesiredNodeManagers is spec.nodeManagers.replicas as last reconciled.
	// +optional
	DesiredNodeManagers int32 `json:"desiredNodeManagers,omitempty"`

	// NodeManagers is ready/desired, for kubectl get.
	// +optional
	NodeManagers string `json:"nodeManagers,omitempty"`

	// Decommissioning is the decommission in progress: of the NodeManagers a
	// scale-down removes, before the StatefulSet is lowered to
	// spec.nodeManagers.replicas, or of the one a rolling update replaces next.
	// +optional
	Decommissioning *Decommissioning `json:"decommissioning,omitempty"`

	// SessionPods are the cluster's pods whose CephFS sessions the operator evicts
	// once they are gone, or once their node is lost (by their UID, which the
	// connector tags each session with), when the StorageBackend has an evictor. Kept
	// here so that a pod deleted while the operator was down is still recognised.
	// +listType=map
	// +listMapKey=uid
	// +optional
	SessionPods []SessionPod `json:"sessionPods,omitempty"`

	// NodeManagerHosts are the host names YARN knows the NodeManager pods by, as each
	// NodeManager reported it, with the node each pod runs on. The operator writes them
	// to the ConfigMap <name>-topology, from which the connector names NodeManagers in
	// block locations, so that map tasks can run next to their data. A pod is asked
	// once it is ready; one that has not answered yet is missing.
	// +listType=map
	// +listMapKey=uid
	// +optional
	NodeManagerHosts []NodeManagerHost `json:"nodeManagerHosts,omitempty"`

	// NodeManagerSelector is the label selector of the NodeManager pods, for the scale
	// subresource (and so for autoscalers).
	// +optional
	NodeManagerSelector string `json:"nodeManagerSelector,omitempty"`

	// ResourceManagerAddress is host:port of the ResourceManager's client RPC
	// (yarn.resourcemanager.address) inside the cluster.
	// +optional
	ResourceManagerAddress string `json:"resourceManagerAddress,omitempty"`

	// ResourceManagerWebURL is the ResourceManager's web UI inside the cluster.
	// +optional
	ResourceManagerWebURL string `json:"resourceManagerWebURL,omitempty"`

	// JobHistoryWebURL is the JobHistory server's web UI inside the cluster.
	// +optional
	JobHistoryWebURL string `json:"jobHistoryWebURL,omitempty"`

	// ConfigHash identifies the rendered Hadoop configuration; pods carry it in an
	// annotation, so a change rolls them.
	// +optional
	ConfigHash string `json:"configHash,omitempty"`

	// Network is what the operator found out about the networks the pods join.
	// +optional
	Network NetworkStatus `json:"network,omitzero"`

	// Client names what a Hadoop or Spark client in another pod of this namespace
	// needs to use the cluster (docs/using.md).
	// +optional
	Client ClientStatus `json:"client,omitzero"`
}

// ClientStatus names the objects that let pods other than the cluster's own submit
// work to YARN and read and write the cluster's storage. All of them are in the
// cluster's namespace.
type ClientStatus struct {
	// ConfigMap is the discovery ConfigMap: core-site.xml, yarn-site.xml,
	// mapred-site.xml, hadoop-env.sh (and hdfs-site.xml on an HDFS backend) and
	// log4j.properties, a whole HADOOP_CONF_DIR for a client, mounted as a directory.
	// +optional
	ConfigMap string `json:"configMap,omitempty"`

	// Secret holds ceph.conf and the keyring of the cluster's CephFS client, which
	// core-site.xml expects at /etc/ceph. Empty on an HDFS backend.
	// +optional
	Secret string `json:"secret,omitempty"`

	// PodTemplate names a PodTemplate of a client pod in the cluster's image, with the
	// configuration, the keyring, the networks and the labels a client needs; its
	// container only sleeps. kubectl hadoopceph shell and run start their pods from it.
	// +optional
	PodTemplate string `json:"podTemplate,omitempty"`
}

// NetworkStatus is what the operator found out about the networks the pods join.
type NetworkStatus struct {
	// AttachmentResources are the NetworkAttachmentDefinitions the pods join that name
	// a device in their k8s.v1.cni.cncf.io/resourceName annotation, such as the
	// virtual functions of an SR-IOV network. A pod that joins one requests and limits
	// one such device, and as many as the attachments it joins that name it: the
	// NodeManagers (at least the count of spec.network.extendedResources), the
	// benchmark stages, whose pods are built from this list, and for Rook's Multus
	// public network every Hadoop pod. Empty when the API server does not serve
	// NetworkAttachmentDefinitions.
	// +listType=atomic
	// +optional
	AttachmentResources []AttachmentResource `json:"attachmentResources,omitempty"`

	// LinkRates are the NetworkAttachmentDefinitions the pods join whose
	// hadoopceph.io/link-rate annotation gives the rate of the links their network
	// runs on, which the operator cannot see for itself. A BenchmarkRun records the
	// rate of the network its data interface is on in status.setup.network.rate, and
	// a comparison tells runs on links of other rates apart. An annotation that is not
	// a rate is left out, and NetworkReady's message names it.
	// +listType=atomic
	// +optional
	LinkRates []AttachmentLinkRate `json:"linkRates,omitempty"`
}

// AttachmentLinkRate is the link rate a NetworkAttachmentDefinition's annotation gives.
type AttachmentLinkRate struct {
	// Namespace of the NetworkAttachmentDefinition.
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace"`
	// Name of the NetworkAttachmentDefinition.
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name"`
	// Rate as the annotation gives it, such as 10Gbit.
	// +kubebuilder:validation:MaxLength=32
	Rate string `json:"rate"`
}

// AttachmentResource is the device a NetworkAttachmentDefinition asks of its pods.
type AttachmentResource struct {
	// Namespace of the NetworkAttachmentDefinition.
	Namespace string `json:"namespace"`
	// Name of the NetworkAttachmentDefinition.
	Name string `json:"name"`
	// ResourceName is the extended resource its k8s.v1.cni.cncf.io/resourceName
	// annotation names.
	ResourceName string `json:"resourceName"`
}

// Decommissioning is a graceful decommission of NodeManagers: for a scale-down, or
// for a rolling update, which replaces them one at a time.
type Decommissioning struct {
	// Reason is ScaleDown or RollingUpdate.
	// +kubebuilder:validation:Enum=ScaleDown;RollingUpdate
	Reason string `json:"reason"`

	// Replicas is the NodeManager count once the nodes below are decommissioned: what
	// a scale-down lowers the StatefulSet to.
	Replicas int32 `json:"replicas"`

	// StartTime is when the operator first asked YARN to decommission them.
	StartTime metav1.Time `json:"startTime"`

	// Deadline is when the StatefulSet is lowered whatever YARN reports: the
	// decommission timeout and a minute for the ResourceManager to act on it.
	Deadline metav1.Time `json:"deadline"`

	// Nodes are the leaving NodeManagers, one per pod.
	// +listType=atomic
	// +optional
	Nodes []DecommissioningNode `json:"nodes,omitempty"`
}

// Reasons of a Decommissioning.
const (
	DecommissionScaleDown     = "ScaleDown"
	DecommissionRollingUpdate = "RollingUpdate"
)

// DecommissioningNode is one leaving NodeManager as YARN reports it.
type DecommissioningNode struct {
	// Pod is the NodeManager's pod.
	Pod string `json:"pod"`

	// NodeID is the NodeManager's YARN node ID (host:port); empty when it is not
	// registered with the ResourceManager.
	// +optional
	NodeID string `json:"nodeID,omitempty"`

	// State is YARN's state of the node: RUNNING until the ResourceManager has read
	// its exclude list, then DECOMMISSIONING, then DECOMMISSIONED.
	// +optional
	State string `json:"state,omitempty"`

	// Containers is the number of YARN containers still running on the node.
	// +optional
	Containers int32 `json:"containers,omitempty"`
}

// HadoopCluster runs YARN ResourceManager and NodeManagers on CephFS.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:subresource:scale:specpath=.spec.nodeManagers.replicas,statuspath=.status.nodeManagerReplicas,selectorpath=.status.nodeManagerSelector
// +kubebuilder:resource:shortName=hc,categories=hadoopceph
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="NodeManagers",type=string,JSONPath=`.status.nodeManagers`
// +kubebuilder:printcolumn:name="Storage",type=string,JSONPath=`.spec.storageBackendRef.name`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,priority=1
// +kubebuilder:printcolumn:name="Version",type=string,JSONPath=`.spec.hadoopVersion`,priority=1
// +kubebuilder:printcolumn:name="ResourceManager",type=string,JSONPath=`.status.resourceManagerAddress`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.size() <= 36 && self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$')",message="name must start with a letter and be at most 36 characters of a-z, 0-9 and '-': the cluster's Services and StatefulSets are named <name>-resourcemanager and so on, and must stay valid DNS labels",fieldPath=".metadata"
type HadoopCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   HadoopClusterSpec   `json:"spec,omitempty"`
	Status HadoopClusterStatus `json:"status,omitempty"`
}

// HadoopClusterList is a list of HadoopClusters.
// +kubebuilder:object:root=true
type HadoopClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []HadoopCluster `json:"items"`
}

func init() {
	SchemeBuilder.Register(&HadoopCluster{}, &HadoopClusterList{})
}

// NodeManagerHost is the YARN host of one NodeManager pod.
type NodeManagerHost struct {
	// Pod is the NodeManager's pod.
	Pod string `json:"pod"`
	// UID of the pod. A pod's YARN host does not change during its life, so it is
	// learnt once per UID.
	UID string `json:"uid"`
	// NodeName is the Kubernetes node the pod runs on. The topology file lists the
	// pod's YARN host under each name Ceph may give that node's CRUSH host: the node's
	// name, and its kubernetes.io/hostname label as is and with dots replaced by dashes
	// (Rook's CRUSH host names).
	NodeName string `json:"nodeName"`
	// YARNHost is the host of the NodeManager's YARN node ID: its pod's name on the
	// pod network, the canonical name of spec.network.dataInterface's address, or the
	// node's host name on the host network.
	YARNHost string `json:"yarnHost"`
}

// SessionPod is a pod of the cluster that holds CephFS sessions.
type SessionPod struct {
	// Name of the pod.
	Name string `json:"name"`
	// UID of the pod, which its sessions carry as client_metadata.pod_uid.
	UID string `json:"uid"`
	// Fenced is when the pod's sessions were evicted because its node was lost
	// (unreachable, out of service or gone) while the pod object remained; they are
	// not evicted again when the pod goes.
	// +optional
	Fenced *metav1.Time `json:"fenced,omitempty"`
}
