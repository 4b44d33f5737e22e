package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BenchmarkRunSpec declares a benchmark to run on a HadoopCluster.
type BenchmarkRunSpec struct {
	// ClusterRef names the HadoopCluster in this namespace to run on.
	ClusterRef LocalObjectReference `json:"clusterRef"`
}

// BenchmarkPhase is where a run is in its life.
// +kubebuilder:validation:Enum=Pending;Queued;Running;Succeeded;Failed
type BenchmarkPhase string

const (
	BenchmarkPhasePending   BenchmarkPhase = "Pending"
	BenchmarkPhaseQueued    BenchmarkPhase = "Queued"
	BenchmarkPhaseRunning   BenchmarkPhase = "Running"
	BenchmarkPhaseSucceeded BenchmarkPhase = "Succeeded"
	BenchmarkPhaseFailed    BenchmarkPhase = "Failed"
)

// BenchmarkRunStatus reports progress and results.
type BenchmarkRunStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +optional
	Phase BenchmarkPhase `json:"phase,omitempty"`
	// +listType=map
	// +listMapKey=type
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// BenchmarkRun is one benchmark on one HadoopCluster, with its results in status.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=br,categories=hadoopceph
// +kubebuilder:printcolumn:name="Cluster",type=string,JSONPath=`.spec.clusterRef.name`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type BenchmarkRun struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BenchmarkRunSpec   `json:"spec,omitempty"`
	Status BenchmarkRunStatus `json:"status,omitempty"`
}

// BenchmarkRunList is a list of BenchmarkRuns.
// +kubebuilder:object:root=true
type BenchmarkRunList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []BenchmarkRun `json:"items"`
}

func init() {
	SchemeBuilder.Register(&BenchmarkRun{}, &BenchmarkRunList{})
}
