package v1alpha1

// Condition types shared by the kinds of this API. Ready always summarises the others.
const (
	ConditionReady = "Ready"
)

// StorageBackend condition types.
const (
	// ConditionFilesystemReady: the CephFilesystem (Rook) or the external file system
	// description is usable.
	ConditionFilesystemReady = "FilesystemReady"
	// ConditionClientReady: the cephx client for Hadoop exists and its key is readable.
	ConditionClientReady = "ClientReady"
	// ConditionClientConfigReady: the rendered client config Secret is current.
	ConditionClientConfigReady = "ClientConfigReady"
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
)
