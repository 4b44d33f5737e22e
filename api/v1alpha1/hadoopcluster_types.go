package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LocalObjectReference names an object in the referencing object's namespace.
type LocalObjectReference struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
}

// HadoopClusterSpec describes a YARN and MapReduce cluster whose default file system is
// the CephFS of a StorageBackend.
type HadoopClusterSpec struct {
	// StorageBackendRef names the StorageBackend in this namespace that holds the data.
	StorageBackendRef LocalObjectReference `json:"storageBackendRef"`

	// Image of the Hadoop pods. Defaults to the operator's configured Hadoop image.
	// +optional
	Image string `json:"image,omitempty"`

	// NodeManagers run the YARN containers.
	// +optional
	NodeManagers NodeManagerSpec `json:"nodeManagers,omitempty"`

	// Paused stops reconciliation of this cluster and its children.
	// +optional
	Paused bool `json:"paused,omitempty"`
}

// NodeManagerSpec sizes the NodeManager StatefulSet.
type NodeManagerSpec struct {
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=0
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`
}

// HadoopClusterStatus is rebuilt from what exists on every reconcile.
type HadoopClusterStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// +optional
	ReadyNodeManagers int32 `json:"readyNodeManagers,omitempty"`
}

// HadoopCluster runs YARN ResourceManager and NodeManagers on CephFS.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=hc,categories=hadoopceph
// +kubebuilder:printcolumn:name="Storage",type=string,JSONPath=`.spec.storageBackendRef.name`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
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
