// Package v1alpha1 holds the hadoopceph.io/v1alpha1 API: StorageBackend, HadoopCluster
// and BenchmarkRun.
// +kubebuilder:object:generate=true
// +groupName=hadoopceph.io
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The package depends on apimachinery only, so that clients can import the API without
// pulling in controller-runtime.
var (
	// GroupVersion is the API group and version of every kind in this package.
	GroupVersion = schema.GroupVersion{Group: "hadoopceph.io", Version: "v1alpha1"}

	// SchemeBuilder collects the kinds of this package; each kind's file registers itself.
	SchemeBuilder = &kindRegistry{}

	// AddToScheme adds the kinds of this package to a runtime.Scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

type kindRegistry struct {
	kinds []runtime.Object
}

// Register adds kinds to be installed by AddToScheme.
func (r *kindRegistry) Register(kinds ...runtime.Object) {
	r.kinds = append(r.kinds, kinds...)
}

// AddToScheme installs every registered kind under GroupVersion.
func (r *kindRegistry) AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, r.kinds...)
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
