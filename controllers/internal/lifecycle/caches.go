package lifecycle

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// NewCache is a cache of its own beside the manager's, for kinds whose numbers grow
// with the Kubernetes cluster rather than with the operator's objects (pods, nodes):
// each kind selected and trimmed as byObject says, so that only what a controller
// reads is held. Reading a kind it was not given fails rather than starting an
// informer that would hold every object whole.
func NewCache(mgr ctrl.Manager, byObject map[client.Object]cache.ByObject) (cache.Cache, error) {
	return cache.New(mgr.GetConfig(), cache.Options{
		HTTPClient:                  mgr.GetHTTPClient(),
		Scheme:                      mgr.GetScheme(),
		Mapper:                      mgr.GetRESTMapper(),
		ReaderFailOnMissingInformer: true,
		ByObject:                    byObject,
	})
}

// InNamespaces limits a cached kind to namespaces; none means every namespace.
func InNamespaces(namespaces []string) map[string]cache.Config {
	if len(namespaces) == 0 {
		return nil
	}
	out := make(map[string]cache.Config, len(namespaces))
	for _, ns := range namespaces {
		out[ns] = cache.Config{}
	}
	return out
}

// TrimmedMeta is what a trimmed cached object keeps of obj's metadata: its identity,
// the version a watch resumes from, its labels (which map it to its owner), and
// whether it is being deleted.
func TrimmedMeta(obj metav1.Object) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:              obj.GetName(),
		Namespace:         obj.GetNamespace(),
		UID:               obj.GetUID(),
		ResourceVersion:   obj.GetResourceVersion(),
		Labels:            obj.GetLabels(),
		DeletionTimestamp: obj.GetDeletionTimestamp(),
	}
}
