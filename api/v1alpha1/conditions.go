package v1alpha1

// Condition types shared by the kinds of this API. Ready always summarises the others.
const (
	ConditionReady = "Ready"
)

// StorageBackend condition types.
const (
	// ConditionFilesystemReady: the CephFilesystem (Rook) or the external file system
	// description is usable; for HDFS, an active NameNode answers.
	ConditionFilesystemReady = "FilesystemReady"
	// ConditionClientReady: the cephx client for Hadoop exists and its key is readable.
	ConditionClientReady = "ClientReady"
	// ConditionClientConfigReady: the rendered client config Secret (for HDFS, the
	// client ConfigMap) is current.
	ConditionClientConfigReady = "ClientConfigReady"
	// ConditionEvictorReady: the client that evicts dead Hadoop pods' CephFS sessions
	// is usable, and its config Secret current. Informational: Ready does not
	// summarise it, since Hadoop runs without eviction (a dead pod's files then wait
	// for the MDS session timeout).
	ConditionEvictorReady = "EvictorReady"
	// ConditionFilesystemSettingsApplied: the operator's Job has set the Ceph file
	// system flags a Rook-mode backend needs beside other file systems
	// (refuse_standby_for_another_fs). Informational: Ready does not summarise it,
	// since Hadoop works without them.
	ConditionFilesystemSettingsApplied = "FilesystemSettingsApplied"
	// ConditionMetadataServersHealthy: the MDS pods Rook runs for a Rook-mode
	// backend's file system are Ready and none waits in CrashLoopBackOff.
	// Informational: Ready does not summarise it, since a file system keeps serving
	// while its active daemon holds on and a standby restarts.
	ConditionMetadataServersHealthy = "MetadataServersHealthy"
	// ConditionDeletionBlocked: deletion was requested and is waiting, for example
	// because HadoopClusters still use the backend.
	ConditionDeletionBlocked = "DeletionBlocked"
)

// Condition reasons. They are CamelCase words a user can search for in the docs.
const (
	ReasonReconciled               = "Reconciled"
	ReasonPaused                   = "Paused"
	ReasonExternal                 = "External"
	ReasonRookNamespaceNotFound    = "RookNamespaceNotFound"
	ReasonCephClusterNotFound      = "CephClusterNotFound"
	ReasonFilesystemNotFound       = "FilesystemNotFound"
	ReasonFilesystemOwnedElsewhere = "FilesystemOwnedElsewhere"
	ReasonClientOwnedElsewhere     = "ClientOwnedElsewhere"
	ReasonWaitingForFilesystem     = "WaitingForFilesystem"
	ReasonWaitingForSubVolumeGroup = "WaitingForSubVolumeGroup"
	ReasonWaitingForClient         = "WaitingForClient"
	ReasonWaitingForClientSecret   = "WaitingForClientSecret"
	ReasonMonEndpointsNotFound     = "MonEndpointsNotFound"
	ReasonSecretNotFound           = "SecretNotFound"
	ReasonSecretKeyMissing         = "SecretKeyMissing"
	ReasonInvalidKey               = "InvalidKey"
	ReasonDependencyNotReady       = "DependencyNotReady"
	ReasonInUse                    = "InUse"

	// ReasonEvictionOff: no evictor is configured (spec.cephFS.external.evictor) or it
	// is turned off (spec.cephFS.rook.evictDeadClients).
	ReasonEvictionOff = "EvictionOff"

	// ReasonApplyingSettings: the Job that sets the file system's flags runs.
	ReasonApplyingSettings = "ApplyingSettings"
	// ReasonSettingsApplied: that Job succeeded, so the flags are set.
	ReasonSettingsApplied = "SettingsApplied"
	// ReasonSettingsFailed: that Job failed, or cannot be run; the message says why
	// and what to do.
	ReasonSettingsFailed = "SettingsFailed"

	// ReasonMetadataServersReady: every MDS pod of the file system is Ready.
	ReasonMetadataServersReady = "MetadataServersReady"
	// ReasonMetadataServerCrashLooping: an MDS pod of the file system waits in
	// CrashLoopBackOff; the message names it and its restarts.
	ReasonMetadataServerCrashLooping = "MetadataServerCrashLooping"
	// ReasonMetadataServersNotReady: an MDS pod of the file system is not Ready.
	ReasonMetadataServersNotReady = "MetadataServersNotReady"
	// ReasonNoMetadataServers: Rook runs no MDS pod for the file system (yet).
	ReasonNoMetadataServers = "NoMetadataServers"

	// ReasonSubVolumeGroupOwnedElsewhere: the CephFilesystemSubVolumeGroup for Hadoop's
	// root exists and was not created for this StorageBackend.
	ReasonSubVolumeGroupOwnedElsewhere = "SubVolumeGroupOwnedElsewhere"
	// ReasonInvalidMonEndpoints: Rook's mon endpoints ConfigMap lists no usable monitor.
	ReasonInvalidMonEndpoints = "InvalidMonEndpoints"
	// ReasonClientConfigSecretConflict: a Secret with the client config's name exists
	// and is not controlled by this StorageBackend.
	ReasonClientConfigSecretConflict = "ClientConfigSecretConflict"
	// ReasonDeletingRookObjects: deletion waits for Rook to remove the objects it was
	// asked to delete (preserveOnDelete false).
	ReasonDeletingRookObjects = "DeletingRookObjects"
	// ReasonDeletingData: deletion waits for the Job that empties Hadoop's root, which
	// Rook must find empty before it deletes the subvolume group (preserveOnDelete
	// false).
	ReasonDeletingData = "DeletingData"
	// ReasonDataDeletionFailed: that Job failed; deleting it starts another.
	ReasonDataDeletionFailed = "DataDeletionFailed"
	// ReasonNamespaceTerminating: preserveOnDelete is false, and the backend's
	// namespace is being deleted, so the Job that empties Hadoop's root cannot run
	// there; the message says the ways out.
	ReasonNamespaceTerminating = "NamespaceTerminating"
	// ReasonRookNotInstalled: a Rook-mode StorageBackend, and the API server does not
	// serve Rook's kinds (or did not when the operator started).
	ReasonRookNotInstalled = "RookNotInstalled"
	// ReasonReconcileError: an API call failed; the message has the error and the
	// operator retries with backoff.
	ReasonReconcileError = "ReconcileError"
	// ReasonConfigMapNotFound: spec.hdfs.discoveryConfigMap names no ConfigMap.
	ReasonConfigMapNotFound = "ConfigMapNotFound"
	// ReasonInvalidDiscoveryConfigMap: the discovery ConfigMap lacks core-site.xml or
	// fs.defaultFS, or names a nameservice without NameNodes.
	ReasonInvalidDiscoveryConfigMap = "InvalidDiscoveryConfigMap"
	// ReasonNameNodeUnreachable: no NameNode's web server answered.
	ReasonNameNodeUnreachable = "NameNodeUnreachable"
	// ReasonNoActiveNameNode: NameNodes answered, none of them active.
	ReasonNoActiveNameNode = "NoActiveNameNode"
	// ReasonClientConfigMapConflict: a ConfigMap with the client ConfigMap's name
	// exists and is not controlled by the StorageBackend.
	ReasonClientConfigMapConflict = "ClientConfigMapConflict"
)

// Event reasons for steps that are not condition changes. Condition changes are
// recorded as events with the condition's reason.
const (
	EventReasonCreated              = "Created"
	EventReasonUpdated              = "Updated"
	EventReasonDeleted              = "Deleted"
	EventReasonClientConfigRendered = "ClientConfigRendered"
	EventReasonRookObjectsPreserved = "RookObjectsPreserved"
	// EventReasonAdopted: a backend with adoptExisting took over the subvolume group of
	// a StorageBackend that was deleted with its data preserved.
	EventReasonAdopted = "Adopted"
)

// HadoopCluster condition types. Ready is True when all of them are, JobHistoryReady
// only counting while the JobHistory server is enabled.
const (
	// ConditionStorageReady: the referenced StorageBackend is Ready and its client
	// config Secret is known.
	ConditionStorageReady = "StorageReady"
	// ConditionConfigReady: the spec is usable and the Hadoop configuration ConfigMap is
	// current.
	ConditionConfigReady = "ConfigReady"
	// ConditionNetworkReady: every NetworkAttachmentDefinition exists, names a device
	// a pod can request if it names one, and some node offers each extended resource
	// the NodeManagers request.
	ConditionNetworkReady = "NetworkReady"
	// ConditionResourceManagerReady: the ResourceManager pod is ready and current.
	ConditionResourceManagerReady = "ResourceManagerReady"
	// ConditionNodeManagersReady: every desired NodeManager pod is ready and current.
	ConditionNodeManagersReady = "NodeManagersReady"
	// ConditionJobHistoryReady: the JobHistory server pod is ready and current.
	ConditionJobHistoryReady = "JobHistoryReady"
)

// HadoopCluster condition reasons.
const (
	// ReasonStorageBackendNotFound: spec.storageBackendRef names no StorageBackend in
	// the namespace.
	ReasonStorageBackendNotFound = "StorageBackendNotFound"
	// ReasonStorageBackendNotReady: the StorageBackend exists and is not Ready yet; the
	// message carries its Ready reason.
	ReasonStorageBackendNotReady = "StorageBackendNotReady"
	// ReasonInvalidSpec: the spec passed the API server's validation (or predates it)
	// but cannot be built, for example NodeManager memory below YARN's minimum or an
	// override of a key the operator owns. The message names the field.
	ReasonInvalidSpec = "InvalidSpec"
	// ReasonNetworkAttachmentNotFound: a NetworkAttachmentDefinition in
	// spec.network.attachments (or Rook's public network) does not exist.
	ReasonNetworkAttachmentNotFound = "NetworkAttachmentNotFound"
	// ReasonExtendedResourceUnavailable: no node advertises an extended resource the
	// NodeManagers request (of spec.network.extendedResources, or named by an
	// attachment's NetworkAttachmentDefinition), so they cannot be scheduled.
	ReasonExtendedResourceUnavailable = "ExtendedResourceUnavailable"
	// ReasonInvalidAttachmentResource: a NetworkAttachmentDefinition the pods join
	// names, in its k8s.v1.cni.cncf.io/resourceName annotation, something that is not
	// an extended resource name, which no pod can request.
	ReasonInvalidAttachmentResource = "InvalidAttachmentResource"
	// ReasonUnschedulable: the scheduler cannot place some pods; the message has its
	// explanation.
	ReasonUnschedulable = "Unschedulable"
	// ReasonPodsNotReady: pods exist and are not all ready yet.
	ReasonPodsNotReady = "PodsNotReady"
	// ReasonRollingUpdate: pods are being replaced with the current template.
	ReasonRollingUpdate = "RollingUpdate"
	// ReasonDecommissioning: NodeManagers are being decommissioned by YARN before the
	// StatefulSet is scaled down.
	ReasonDecommissioning = "Decommissioning"
	// ReasonDisabled: the component is switched off in the spec.
	ReasonDisabled = "Disabled"
	// ReasonChildConflict: an object with the name of one of the cluster's children
	// exists and is not controlled by this HadoopCluster; it is left untouched.
	ReasonChildConflict = "ChildConflict"
)

// HadoopCluster event reasons, besides the condition changes.
const (
	// EventReasonConfigChanged: the rendered configuration changed, which rolls the pods.
	EventReasonConfigChanged = "ConfigChanged"
	// EventReasonScaled: the NodeManager StatefulSet was given a new replica count.
	EventReasonScaled = "Scaled"
	// EventReasonDecommissioning: YARN was asked to decommission NodeManagers before a
	// scale-down.
	EventReasonDecommissioning = "Decommissioning"
	// EventReasonPodReplaced: a pod was deleted, to be created anew from its
	// StatefulSet's current template, by a rolling update.
	EventReasonPodReplaced = "PodReplaced"
	// EventReasonDecommissionTimedOut: a Warning that the NodeManagers were not
	// decommissioned by the deadline and the StatefulSet was lowered anyway.
	EventReasonDecommissionTimedOut = "DecommissionTimedOut"
	// EventReasonEvictingSessions: a pod of the cluster is gone, and a Job evicts the
	// CephFS sessions it may have left open.
	EventReasonEvictingSessions = "EvictingSessions"
	// EventReasonFencingSessions: a pod of the cluster remains on a node that was lost
	// (unreachable, out of service or gone), and a Job evicts its CephFS sessions.
	EventReasonFencingSessions = "FencingSessions"
	// EventReasonReplaced: a StatefulSet whose immutable fields had to change was
	// deleted, leaving its pods running, to be created anew.
	EventReasonReplaced = "Replaced"
	// EventReasonNetworkPoliciesIneffective: a Warning that the cluster's
	// NetworkPolicies cannot protect its pods, which run on the host's network
	// (spec.network.hostNetwork).
	EventReasonNetworkPoliciesIneffective = "NetworkPoliciesIneffective"
)

// BenchmarkRun condition types. Ready is True once the run has succeeded: `kubectl wait
// --for=condition=Ready` waits for results.
const (
	// ConditionClusterReady: the HadoopCluster of spec.clusterRef exists and is Ready.
	ConditionClusterReady = "ClusterReady"
	// ConditionBaselineCompared: status.baseline compares this run with
	// spec.baselineRef. Only present with a baseline.
	ConditionBaselineCompared = "BaselineCompared"
)

// BenchmarkRun condition reasons.
const (
	// ReasonHadoopClusterNotFound: spec.clusterRef names no HadoopCluster in the
	// namespace; the run waits in Pending until it exists or the deadline passes.
	ReasonHadoopClusterNotFound = "HadoopClusterNotFound"
	// ReasonHadoopClusterNotReady: the HadoopCluster exists and is not Ready.
	ReasonHadoopClusterNotReady = "HadoopClusterNotReady"
	// ReasonQueueNotFound: spec.queue is not among the cluster's queues.
	ReasonQueueNotFound = "QueueNotFound"
	// ReasonQueued: another BenchmarkRun runs on the same HadoopCluster; the message
	// names it. Runs start in the order they were created.
	ReasonQueued = "Queued"
	// ReasonRunning: a stage runs; the message says which.
	ReasonRunning = "Running"
	// ReasonSucceeded: every stage of every repetition succeeded.
	ReasonSucceeded = "Succeeded"
	// ReasonStageFailed: a stage's Job failed; the message names the stage, the
	// repetition and the tool's last error.
	ReasonStageFailed = "StageFailed"
	// ReasonValidationFailed: TeraValidate reported error lines: the sorted output is
	// wrong. The message has the first one.
	ReasonValidationFailed = "ValidationFailed"
	// ReasonInputPathNotFound: the input path of wordCount or grep does not exist on
	// the cluster's file system; the message has the path.
	ReasonInputPathNotFound = "InputPathNotFound"
	// ReasonDeadlineExceeded: spec.deadline passed before the run finished.
	ReasonDeadlineExceeded = "DeadlineExceeded"
	// ReasonResultUnreadable: a stage ended without a report the operator can read in
	// its termination message; the message has what was there.
	ReasonResultUnreadable = "ResultUnreadable"
	// ReasonBaselineNotFound: spec.baselineRef names no BenchmarkRun in the namespace.
	ReasonBaselineNotFound = "BaselineNotFound"
	// ReasonBaselineWorkloadMismatch: the baseline runs another workload, so there is
	// nothing to compare; the run fails before it starts.
	ReasonBaselineWorkloadMismatch = "BaselineWorkloadMismatch"
	// ReasonBaselineNotSucceeded: the baseline has not succeeded (yet); the comparison
	// is made once it has.
	ReasonBaselineNotSucceeded = "BaselineNotSucceeded"
	// ReasonCompared: status.baseline holds the comparison.
	ReasonCompared = "Compared"
	// ReasonBaselineNotComparable: both runs succeeded, but they differ in parameters
	// that change the work or the cluster that did it, so there are no ratios; the
	// message and status.baseline.differences name each difference with both values.
	ReasonBaselineNotComparable = "BaselineNotComparable"
)

// BenchmarkRun event reasons, besides the condition changes.
const (
	EventReasonStageStarted   = "StageStarted"
	EventReasonStageSucceeded = "StageSucceeded"
	EventReasonStageFailed    = "StageFailed"
)
