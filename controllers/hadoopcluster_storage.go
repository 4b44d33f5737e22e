package controllers

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// reconcileStorage waits for the cluster's StorageBackend to be Ready and returns what
// the builders take from it, or nil with StorageReady saying what is missing. Nothing
// is copied: the client config Secret is in the cluster's namespace, and the pods
// mount it directly.
func (r *HadoopClusterReconciler) reconcileStorage(ctx context.Context, p *clusterPass) (*hadoop.Storage, error) {
	hc := p.hc
	key := client.ObjectKey{Namespace: hc.Namespace, Name: hc.Spec.StorageBackendRef.Name}
	sb := &v1alpha1.StorageBackend{}
	if err := r.Get(ctx, key, sb); err != nil {
		if apierrors.IsNotFound(err) {
			p.notReady(v1alpha1.ConditionStorageReady, v1alpha1.ReasonStorageBackendNotFound,
				fmt.Sprintf("StorageBackend %s does not exist in namespace %s: create it, or set spec.storageBackendRef.name to an existing one", key.Name, key.Namespace))
			return nil, nil
		}
		return nil, p.failed(v1alpha1.ConditionStorageReady, fmt.Errorf("reading StorageBackend %s: %w", key, err))
	}

	st := sb.Status
	ready := meta.FindStatusCondition(st.Conditions, v1alpha1.ConditionReady)
	switch {
	case ready == nil:
		p.notReady(v1alpha1.ConditionStorageReady, v1alpha1.ReasonStorageBackendNotReady,
			fmt.Sprintf("waiting for StorageBackend %s to be Ready (not reconciled yet)", key.Name))
		return nil, nil
	case ready.Status != metav1.ConditionTrue:
		p.notReady(v1alpha1.ConditionStorageReady, v1alpha1.ReasonStorageBackendNotReady,
			fmt.Sprintf("waiting for StorageBackend %s to be Ready (%s: %s)", key.Name, ready.Reason, ready.Message))
		return nil, nil
	case st.ClientConfigSecret == "" || st.ClientConfigHash == "":
		p.notReady(v1alpha1.ConditionStorageReady, v1alpha1.ReasonStorageBackendNotReady,
			fmt.Sprintf("waiting for StorageBackend %s to report its client config Secret", key.Name))
		return nil, nil
	}

	storage := storageInput(sb, r.RookNamespace)
	p.ready(v1alpha1.ConditionStorageReady,
		fmt.Sprintf("StorageBackend %s is ready: CephFS %s at %s as client.%s, client config in Secret %s", key.Name, st.FilesystemName, st.RootPath, st.ClientID, st.ClientConfigSecret))
	return &storage, nil
}

// storageInput is what Hadoop's builders need of a Ready StorageBackend. Both the
// HadoopCluster and the BenchmarkRun controller resolve a cluster's storage with it,
// so benchmark Jobs mount exactly what the cluster's pods mount.
func storageInput(sb *v1alpha1.StorageBackend, defaultRookNamespace string) hadoop.Storage {
	st := sb.Status
	storage := hadoop.Storage{
		Filesystem:         st.FilesystemName,
		RootPath:           st.RootPath,
		ClientID:           st.ClientID,
		ClientConfigSecret: st.ClientConfigSecret,
		ClientConfigHash:   st.ClientConfigHash,
	}
	if sb.Spec.CephFS.Rook != nil {
		storage.RookNamespace = rook.Namespace(sb, defaultRookNamespace)
		// The operator made the root, through Rook's subvolume group.
		storage.HandOverRoot = true
	}
	return storage
}
