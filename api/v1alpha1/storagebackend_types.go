package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// StorageBackendSpec says where Hadoop's data lives: a CephFS managed through Rook, a
// CephFS of an existing Ceph cluster, or, as the baseline to compare CephFS with, an
// HDFS that already runs.
// +kubebuilder:validation:XValidation:rule="has(self.cephFS) != has(self.hdfs)",message="exactly one of cephFS or hdfs must be set"
// +kubebuilder:validation:XValidation:rule="has(self.hdfs) == has(oldSelf.hdfs)",message="the choice between cephFS and hdfs is immutable: create a new StorageBackend instead"
type StorageBackendSpec struct {
	// CephFS is the file system Hadoop uses instead of HDFS.
	// omitzero: a Go client leaves it out of an HDFS backend, as the rule above needs.
	// +optional
	CephFS CephFSSpec `json:"cephFS,omitzero"`

	// HDFS points at an HDFS that already runs, as a baseline to measure CephFS
	// against: HadoopClusters on this backend use it as their default file system.
	// The operator neither deploys nor changes it, and never deletes its data.
	// +optional
	HDFS *HDFSSpec `json:"hdfs,omitempty"`

	// Paused stops reconciliation of this backend and its Rook objects; status keeps its
	// last values and a Paused reason.
	// +optional
	Paused bool `json:"paused,omitempty"`
}

// CephFSSpec holds exactly one way of reaching CephFS.
// +kubebuilder:validation:XValidation:rule="has(self.rook) != has(self.external)",message="exactly one of rook or external must be set"
// +kubebuilder:validation:XValidation:rule="has(self.rook) == has(oldSelf.rook)",message="the choice between rook and external is immutable: create a new StorageBackend instead"
type CephFSSpec struct {
	// Rook makes the operator create (or adopt) a CephFilesystem, a subvolume group for
	// Hadoop's root and a least-privilege CephClient in a Rook-managed Ceph cluster.
	// +optional
	Rook *RookCephFS `json:"rook,omitempty"`

	// External points at a CephFS of a Ceph cluster that Rook does not manage here.
	// +optional
	External *ExternalCephFS `json:"external,omitempty"`
}

// RookCephFS describes the Rook objects the operator manages for Hadoop.
// Struct fields with a CRD default are omitzero: omitempty never omits a struct, so a Go
// client would send {} and the server would not apply the default.
// ClientName's immutability is checked here, not on the field: a rule on an optional
// field never sees it being set or cleared, and either would swap Hadoop's identity.
// +kubebuilder:validation:XValidation:rule="has(self.clientName) == has(oldSelf.clientName) && (!has(self.clientName) || self.clientName == oldSelf.clientName)",message="is immutable, including setting or clearing it after creation: it names Hadoop's CephClient",fieldPath=".clientName"
// +kubebuilder:validation:XValidation:rule="has(self.__namespace__) == has(oldSelf.__namespace__) && (!has(self.__namespace__) || self.__namespace__ == oldSelf.__namespace__)",message="is immutable, including setting or clearing it after creation: the Rook objects live there",fieldPath=".namespace"
type RookCephFS struct {
	// Namespace of the Rook CephCluster. Defaults to the operator's --rook-namespace.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",message="must be a namespace name (a lowercase RFC 1123 label)"
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// FilesystemName is the name of the CephFilesystem (and of the Ceph file system).
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=40
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",message="must be a lowercase RFC 1123 label (a-z, 0-9 and '-', starting and ending with a letter or digit)"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable: Rook names the file system's pools after it"
	FilesystemName string `json:"filesystemName"`

	// AdoptExisting uses a CephFilesystem that already exists instead of creating one.
	// The operator then never changes or deletes that CephFilesystem, and the pool
	// settings below are ignored: status reports the adopted file system's pools.
	// +kubebuilder:default=false
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable: turning adoption off would let the operator manage, and on deletion remove, a file system it did not create"
	// +optional
	AdoptExisting bool `json:"adoptExisting,omitempty"`

	// MetadataPool is the replicated pool for CephFS metadata. With an erasure-coded data
	// pool, the default data pool (which keeps only file backtraces) uses the same size.
	// +kubebuilder:default={size: 3}
	// +optional
	MetadataPool ReplicatedPool `json:"metadataPool,omitzero"`

	// DataPool holds Hadoop's file data: replicated or erasure-coded.
	// +kubebuilder:default={replicated: {size: 3}}
	// +optional
	DataPool DataPool `json:"dataPool,omitzero"`

	// FailureDomain is the CRUSH failure domain for every pool (host, osd, rack, ...).
	// +kubebuilder:default=host
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z][a-z0-9_-]*$')",message="must be a CRUSH bucket type such as host, osd, rack or zone"
	// +optional
	FailureDomain string `json:"failureDomain,omitempty"`

	// DeviceClass restricts every pool to OSDs of this class (hdd, ssd, nvme or a custom
	// class). Empty uses all OSDs.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9][a-z0-9_-]*$')",message="must be a device class name such as hdd, ssd or nvme"
	// +optional
	DeviceClass string `json:"deviceClass,omitempty"`

	// MetadataServer sizes the MDS daemons of the file system.
	// +kubebuilder:default={activeCount: 1, activeStandby: true}
	// +optional
	MetadataServer MetadataServer `json:"metadataServer,omitzero"`

	// RootPath is Hadoop's root directory inside the file system, /volumes/<group>. The
	// operator creates it as a subvolume group laid out on the Hadoop data pool, and
	// limits the Hadoop client's MDS capabilities to it.
	// +kubebuilder:default=/volumes/hadoop
	// +kubebuilder:validation:MaxLength=4096
	// +kubebuilder:validation:XValidation:rule="self.startsWith('/')",message="must be an absolute path"
	// +kubebuilder:validation:XValidation:rule="!self.matches('(^|/)[.][.](/|$)')",message="must not contain '..'"
	// +kubebuilder:validation:XValidation:rule="self.matches('^/volumes/[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",message="must be /volumes/<group> with <group> a lowercase RFC 1123 label: Rook creates Hadoop's root as a CephFS subvolume group, and those live there"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable: moving Hadoop's root would hide its data"
	// +optional
	RootPath string `json:"rootPath,omitempty"`

	// ClientName is the cephx id of Hadoop's client (client.<name>) and the name of the
	// CephClient. Defaults to hadoop-<namespace>-<name> of this StorageBackend.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",message="must be a lowercase RFC 1123 label (a-z, 0-9 and '-', starting and ending with a letter or digit)"
	// +kubebuilder:validation:XValidation:rule="self != 'admin'",message="must not be admin: Hadoop gets its own least-privilege client"
	// +optional
	ClientName string `json:"clientName,omitempty"`

	// EvictDeadClients makes the operator create a second CephClient,
	// <clientName>-evictor, whose one use is to evict the CephFS sessions of a Hadoop
	// pod that is gone, so that other clients need not wait for the MDS session
	// timeout to use the files it held. Its caps (mon "allow r", mds "allow *") are
	// the least Ceph accepts for an MDS command; the key is mounted only by the
	// eviction Jobs (docs/security.md).
	// +kubebuilder:default=true
	// +optional
	EvictDeadClients *bool `json:"evictDeadClients,omitempty"`

	// PreserveOnDelete keeps the CephFilesystem, its pools and the CephClient when this
	// StorageBackend is deleted. Only false lets the operator delete them, and with them
	// every file Hadoop stored.
	// +kubebuilder:default=true
	// +optional
	PreserveOnDelete *bool `json:"preserveOnDelete,omitempty"`
}

// ReplicatedPool is a pool that keeps Size full copies of each object.
type ReplicatedPool struct {
	// Size is the number of copies.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	Size int32 `json:"size"`
}

// ErasureCodedPool splits each object into DataChunks pieces plus CodingChunks parity
// pieces, so it survives CodingChunks lost OSDs at (k+m)/k raw storage.
type ErasureCodedPool struct {
	// DataChunks (k).
	// +kubebuilder:validation:Minimum=2
	// +kubebuilder:validation:Maximum=32
	DataChunks int32 `json:"dataChunks"`
	// CodingChunks (m).
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=16
	CodingChunks int32 `json:"codingChunks"`
}

// DataPool is either replicated or erasure-coded.
// +kubebuilder:validation:XValidation:rule="has(self.replicated) != has(self.erasureCoded)",message="exactly one of replicated or erasureCoded must be set"
// +kubebuilder:validation:XValidation:rule="has(self.replicated) == has(oldSelf.replicated)",message="the pool kind (replicated or erasureCoded) is immutable: Ceph cannot convert an existing pool"
type DataPool struct {
	// +optional
	Replicated *ReplicatedPool `json:"replicated,omitempty"`
	// ErasureCoded pools cannot change k or m once created.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable: Ceph cannot change dataChunks (k) or codingChunks (m) of an existing pool"
	// +optional
	ErasureCoded *ErasureCodedPool `json:"erasureCoded,omitempty"`
}

// MetadataServer sizes the MDS daemons.
type MetadataServer struct {
	// ActiveCount is the number of active MDS ranks.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=50
	// +kubebuilder:default=1
	// +optional
	ActiveCount int32 `json:"activeCount,omitempty"`
	// ActiveStandby keeps a hot standby per active MDS that follows its journal.
	// A pointer: a Go client would drop a plain false, and the server would default it
	// back to true on the next update.
	// +kubebuilder:default=true
	// +optional
	ActiveStandby *bool `json:"activeStandby,omitempty"`
	// Resources of each MDS pod.
	// +optional
	Resources corev1.ResourceRequirements `json:"resources,omitempty"`
}

// ExternalCephFS describes a CephFS of a Ceph cluster that this operator does not manage.
// Its administrator creates the file system, Hadoop's root directory and the client.
type ExternalCephFS struct {
	// Monitors are the Ceph monitor addresses: host, host:port, v1:/v2: prefixed, or a
	// bracketed address vector such as [v2:10.0.0.1:3300,v1:10.0.0.1:6789]. Brackets
	// around a single address are for IPv6 only; ports run from 1 to 65535.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=256
	// +kubebuilder:validation:items:XValidation:rule="self.matches('^((v[12]:)?([[][0-9a-fA-F.]*:[0-9a-fA-F:.]*[]]|[a-zA-Z0-9]([-a-zA-Z0-9.]*[a-zA-Z0-9])?)(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?(/[0-9]+)?|[[]v[12]:([[][0-9a-fA-F.]*:[0-9a-fA-F:.]*[]]|[a-zA-Z0-9]([-a-zA-Z0-9.]*[a-zA-Z0-9])?)(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?(/[0-9]+)?(,v[12]:([[][0-9a-fA-F.]*:[0-9a-fA-F:.]*[]]|[a-zA-Z0-9]([-a-zA-Z0-9.]*[a-zA-Z0-9])?)(:(6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?(/[0-9]+)?)*[]])$')",message="must be a monitor address such as 10.0.0.1, 10.0.0.1:6789, v2:10.0.0.1:3300, [2001:db8::1]:6789, mon-a.example.com:6789 or [v2:10.0.0.1:3300,v1:10.0.0.1:6789], with a port from 1 to 65535"
	Monitors []string `json:"monitors"`

	// FilesystemName is the Ceph file system to mount.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9][A-Za-z0-9._-]*$')",message="must contain only letters, digits, '.', '_' and '-', starting with a letter or digit"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable: it is the file system Hadoop's data lives in"
	FilesystemName string `json:"filesystemName"`

	// ClientID is the cephx id without the client. prefix.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9][A-Za-z0-9._-]*$')",message="must be a cephx id of letters, digits, '.', '_' and '-', starting with a letter or digit"
	// +kubebuilder:validation:XValidation:rule="!self.startsWith('client.')",message="must not start with client.: give the id only, such as hadoop for client.hadoop"
	ClientID string `json:"clientID"`

	// KeySecretRef names a Secret in this namespace and the key in it that holds the
	// client's cephx key.
	KeySecretRef SecretKeyRef `json:"keySecretRef"`

	// Evictor is a second cephx client, used only to evict the CephFS sessions of a
	// Hadoop pod that is gone, so that other clients need not wait for the MDS session
	// timeout. Its caps must be mon "allow r" and mds "allow *" (the least Ceph
	// accepts for an MDS command), with no osd caps. Without it, a dead pod's sessions
	// hold their capabilities until the session timeout.
	// +optional
	Evictor *CephxClientRef `json:"evictor,omitempty"`

	// DataPool describes the pool Hadoop's root is laid out on, for status and for the
	// connector's pool choice. Omit it to use the file system's default data pool.
	// +optional
	DataPool *ExternalDataPool `json:"dataPool,omitempty"`

	// RootPath is Hadoop's root directory inside the file system; it must exist.
	// +kubebuilder:default=/
	// +kubebuilder:validation:MaxLength=4096
	// +kubebuilder:validation:XValidation:rule="self.startsWith('/')",message="must be an absolute path"
	// +kubebuilder:validation:XValidation:rule="!self.matches('(^|/)[.][.](/|$)')",message="must not contain '..'"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="is immutable: moving Hadoop's root would hide its data"
	// +optional
	RootPath string `json:"rootPath,omitempty"`
}

// HDFSSpec says how to reach an HDFS: by its NameNodes' addresses, or by a discovery
// ConfigMap such as the one Stackable's HDFS operator publishes for each HdfsCluster.
// +kubebuilder:validation:XValidation:rule="has(self.nameNodes) != has(self.discoveryConfigMap)",message="exactly one of nameNodes or discoveryConfigMap must be set"
type HDFSSpec struct {
	// NameNodes are the HDFS's NameNodes: one, or those of a highly available
	// nameservice, which is then named after this StorageBackend.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=8
	// +listType=atomic
	// +optional
	NameNodes []HDFSNameNode `json:"nameNodes,omitempty"`

	// DiscoveryConfigMap names a ConfigMap in this namespace whose core-site.xml and
	// hdfs-site.xml keys hold a client configuration: fs.defaultFS, and for a
	// nameservice its NameNodes' RPC and HTTP addresses. Stackable's HDFS operator
	// publishes one, named after the HdfsCluster. Changes to it reach the
	// HadoopClusters on this backend.
	// +optional
	DiscoveryConfigMap *LocalObjectReference `json:"discoveryConfigMap,omitempty"`
}

// HDFSNameNode is one NameNode's host and ports.
type HDFSNameNode struct {
	// Host is the NameNode's DNS name or IP address.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self.matches('^([a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?)([.][a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?)*$') || self.matches('^[0-9a-fA-F:.]+$')",message="must be a DNS name or an IP address, without a port or scheme"
	Host string `json:"host"`
	// RPCPort is the port clients reach the NameNode's RPC server on (fs.defaultFS).
	// +kubebuilder:default=8020
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	RPCPort int32 `json:"rpcPort,omitempty"`
	// HTTPPort is the NameNode's web port, where the operator asks whether it is
	// active and which replication it uses.
	// +kubebuilder:default=9870
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	HTTPPort int32 `json:"httpPort,omitempty"`
}

// CephxClientRef is a cephx id and the Secret key that holds its key.
type CephxClientRef struct {
	// ClientID is the cephx id without the client. prefix.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="self.matches('^[A-Za-z0-9][A-Za-z0-9._-]*$')",message="must be a cephx id of letters, digits, '.', '_' and '-', starting with a letter or digit"
	// +kubebuilder:validation:XValidation:rule="!self.startsWith('client.')",message="must not start with client.: give the id only, such as hadoop-evictor for client.hadoop-evictor"
	ClientID string `json:"clientID"`

	// KeySecretRef names a Secret in this namespace and the key in it that holds the
	// client's cephx key.
	KeySecretRef SecretKeyRef `json:"keySecretRef"`
}

// SecretKeyRef points at one key of a Secret in the referencing object's namespace.
type SecretKeyRef struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// +kubebuilder:default=key
	// +kubebuilder:validation:MaxLength=253
	// +optional
	Key string `json:"key,omitempty"`
}

// ExternalDataPool names an existing data pool and, optionally, how it stores data.
// +kubebuilder:validation:XValidation:rule="!(has(self.replicated) && has(self.erasureCoded))",message="at most one of replicated or erasureCoded may be set"
type ExternalDataPool struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=255
	Name string `json:"name"`
	// +optional
	Replicated *ReplicatedPool `json:"replicated,omitempty"`
	// +optional
	ErasureCoded *ErasureCodedPool `json:"erasureCoded,omitempty"`
}

// StorageBackendMode says which of the spec's ways of reaching storage is in use.
// +kubebuilder:validation:Enum=Rook;External;HDFS
type StorageBackendMode string

const (
	StorageBackendModeRook     StorageBackendMode = "Rook"
	StorageBackendModeExternal StorageBackendMode = "External"
	StorageBackendModeHDFS     StorageBackendMode = "HDFS"
)

// PoolKind says how a pool stores data.
// +kubebuilder:validation:Enum=Replicated;ErasureCoded;Unknown
type PoolKind string

const (
	PoolKindReplicated   PoolKind = "Replicated"
	PoolKindErasureCoded PoolKind = "ErasureCoded"
	PoolKindUnknown      PoolKind = "Unknown"
)

// DataPoolStatus reports one data pool of the file system.
type DataPoolStatus struct {
	// Name is the Ceph pool name.
	Name string   `json:"name"`
	Kind PoolKind `json:"kind"`
	// Size is the number of copies of a replicated pool.
	// +optional
	Size int32 `json:"size,omitempty"`
	// +optional
	DataChunks int32 `json:"dataChunks,omitempty"`
	// +optional
	CodingChunks int32 `json:"codingChunks,omitempty"`
	// RawOverhead is raw bytes stored per byte written: size, or (k+m)/k, as a decimal.
	// +optional
	RawOverhead string `json:"rawOverhead,omitempty"`
	// HadoopData is true for the pool Hadoop's root is laid out on.
	// +optional
	HadoopData bool `json:"hadoopData,omitempty"`
}

// StorageBackendStatus is rebuilt from what exists on every reconcile.
type StorageBackendStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// +optional
	Mode StorageBackendMode `json:"mode,omitempty"`
	// Monitors are the monitor addresses written into the client config.
	// +optional
	Monitors []string `json:"monitors,omitempty"`
	// +optional
	FilesystemName string `json:"filesystemName,omitempty"`
	// RootPath is Hadoop's root directory inside the file system.
	// +optional
	RootPath string `json:"rootPath,omitempty"`
	// ClientID is the cephx id Hadoop authenticates as (without client.).
	// +optional
	ClientID string `json:"clientID,omitempty"`
	// +optional
	DataPools []DataPoolStatus `json:"dataPools,omitempty"`
	// RawOverhead of the pool that holds Hadoop's data.
	// +optional
	RawOverhead string `json:"rawOverhead,omitempty"`
	// ClientConfigSecret is the Secret in this namespace with ceph.conf and the keyring.
	// +optional
	ClientConfigSecret string `json:"clientConfigSecret,omitempty"`
	// ClientConfigHash changes whenever the rendered client config changes, so consumers
	// can roll their pods.
	// +optional
	ClientConfigHash string `json:"clientConfigHash,omitempty"`
	// EvictionClientID is the cephx id that evicts the sessions of dead Hadoop pods;
	// empty when eviction is off or its client is not ready.
	// +optional
	EvictionClientID string `json:"evictionClientID,omitempty"`
	// EvictionSecret is the Secret in this namespace with ceph.conf and the evictor's
	// keyring, mounted by the eviction Jobs alone.
	// +optional
	EvictionSecret string `json:"evictionSecret,omitempty"`
	// ClientConfigMap is, for an HDFS backend, the ConfigMap in this namespace with
	// the client's core-site.xml and hdfs-site.xml, in the shape of a discovery
	// ConfigMap; ClientConfigHash follows its content.
	// +optional
	ClientConfigMap string `json:"clientConfigMap,omitempty"`
	// HDFS reports an HDFS backend.
	// +optional
	HDFS *HDFSStatus `json:"hdfs,omitempty"`
}

// HDFSStatus is what the operator learned of an HDFS.
type HDFSStatus struct {
	// DefaultFS is the fs.defaultFS of the HadoopClusters on this backend.
	// +optional
	DefaultFS string `json:"defaultFS,omitempty"`
	// NameNodes are the NameNodes' web addresses and the state each reported.
	// +listType=atomic
	// +optional
	NameNodes []HDFSNameNodeStatus `json:"nameNodes,omitempty"`
	// Replication is the number of copies HDFS keeps of each block the HadoopClusters
	// write: dfs.replication of the client configuration, or else the active
	// NameNode's.
	// +optional
	Replication int32 `json:"replication,omitempty"`
	// BlockSize is dfs.blocksize as the clients use it, in bytes.
	// +optional
	BlockSize int64 `json:"blockSize,omitempty"`
}

// HDFSNameNodeStatus is one NameNode as last asked.
type HDFSNameNodeStatus struct {
	// HTTPAddress is host:port of its web server.
	HTTPAddress string `json:"httpAddress"`
	// State is what its NameNodeStatus bean said (active, standby, observer), or
	// unreachable.
	State string `json:"state"`
}

// StorageBackend gives Hadoop a file system to live on: CephFS, or an HDFS to compare
// it with.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=sb;sbs,categories=hadoopceph
// +kubebuilder:printcolumn:name="Mode",type=string,JSONPath=`.status.mode`
// +kubebuilder:printcolumn:name="Filesystem",type=string,JSONPath=`.status.filesystemName`
// +kubebuilder:printcolumn:name="Overhead",type=string,JSONPath=`.status.rawOverhead`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type StorageBackend struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   StorageBackendSpec   `json:"spec,omitempty"`
	Status StorageBackendStatus `json:"status,omitempty"`
}

// StorageBackendList is a list of StorageBackends.
// +kubebuilder:object:root=true
type StorageBackendList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []StorageBackend `json:"items"`
}

func init() {
	SchemeBuilder.Register(&StorageBackend{}, &StorageBackendList{})
}
