package storagebackend

import (
	"context"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// backendsBy lists the StorageBackends whose index field has value.
func (r *Reconciler) backendsBy(ctx context.Context, field, value string, opts ...client.ListOption) []reconcile.Request {
	return indexes.Requests(ctx, r, &v1alpha1.StorageBackendList{}, append(opts, client.MatchingFields{field: value})...)
}

func (r *Reconciler) byRookFilesystem(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.backendsBy(ctx, indexes.RookFilesystem, obj.GetNamespace()+"/"+obj.GetName())
}

func (r *Reconciler) bySubVolumeGroup(ctx context.Context, obj client.Object) []reconcile.Request {
	svg := obj.(*cephv1.CephFilesystemSubVolumeGroup)
	return r.backendsBy(ctx, indexes.RookFilesystem, svg.Namespace+"/"+svg.Spec.FilesystemName)
}

func (r *Reconciler) byRookClient(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.backendsBy(ctx, indexes.RookClient, obj.GetNamespace()+"/"+obj.GetName())
}

// byRookNamespace maps an object of a Rook namespace (a CephCluster, the mon endpoints
// ConfigMap) to every backend using that namespace.
func (r *Reconciler) byRookNamespace(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.backendsBy(ctx, indexes.RookNamespace, obj.GetNamespace())
}

func (r *Reconciler) byNamespaceName(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.backendsBy(ctx, indexes.RookNamespace, obj.GetName())
}

// bySecret maps a Secret to the backends that read it: Rook's Secret of a CephClient,
// or the key Secret of an external backend. The client config Secrets the operator
// writes are mapped by their owner reference instead.
func (r *Reconciler) bySecret(ctx context.Context, obj client.Object) []reconcile.Request {
	reqs := r.backendsBy(ctx, indexes.KeySecret, obj.GetName(), client.InNamespace(obj.GetNamespace()))
	if clientName, ok := strings.CutPrefix(obj.GetName(), rook.ClientSecretPrefix); ok {
		reqs = append(reqs, r.backendsBy(ctx, indexes.RookClient, obj.GetNamespace()+"/"+clientName)...)
	}
	return reqs
}

func (r *Reconciler) byHadoopCluster(_ context.Context, obj client.Object) []reconcile.Request {
	hc := obj.(*v1alpha1.HadoopCluster)
	return []reconcile.Request{{NamespacedName: client.ObjectKey{Namespace: hc.Namespace, Name: hc.Spec.StorageBackendRef.Name}}}
}

// byDiscoveryConfigMap maps a ConfigMap to the HDFS backends that read it as their
// discovery ConfigMap; the client ConfigMaps the operator writes are mapped by their
// owner reference instead.
func (r *Reconciler) byDiscoveryConfigMap(ctx context.Context, obj client.Object) []reconcile.Request {
	return r.backendsBy(ctx, indexes.DiscoveryConfigMap, obj.GetName(), client.InNamespace(obj.GetNamespace()))
}
