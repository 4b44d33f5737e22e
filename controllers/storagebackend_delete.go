package controllers

import (
	"context"
	"fmt"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// reconcileDelete lets a StorageBackend go once no HadoopCluster uses it. Its Rook
// objects, and the data in them, stay unless preserveOnDelete is false; then the
// operator deletes the ones it created and waits until they are gone. The client
// config Secret is owned by the backend and goes with garbage collection.
func (r *StorageBackendReconciler) reconcileDelete(ctx context.Context, p *pass) error {
	sb := p.sb
	if !controllerutil.ContainsFinalizer(sb, StorageBackendFinalizer) {
		p.finalized = true
		return nil
	}

	users := &v1alpha1.HadoopClusterList{}
	if err := r.List(ctx, users, client.InNamespace(sb.Namespace), client.MatchingFields{indexStorageBackendRef: sb.Name}); err != nil {
		return fmt.Errorf("listing HadoopClusters that use this backend: %w", err)
	}
	if len(users.Items) > 0 {
		names := make([]string, 0, len(users.Items))
		for i := range users.Items {
			names = append(names, users.Items[i].Name)
		}
		p.set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonInUse,
			"deletion waits until no HadoopCluster uses this backend; in use by HadoopCluster "+strings.Join(names, ", "))
		return nil
	}

	// Without Rook's API there are no Rook objects to keep or delete.
	if sb.Spec.CephFS.Rook != nil && r.rookServed {
		if rook.PreserveOnDelete(sb) {
			r.event(sb, nil, corev1.EventTypeNormal, v1alpha1.EventReasonRookObjectsPreserved, "Delete",
				"Kept the CephFilesystem, its subvolume group and CephClient with all data, as preserveOnDelete asks")
		} else {
			remaining, err := r.deleteRookObjects(ctx, p)
			if err != nil {
				return err
			}
			if len(remaining) > 0 {
				p.set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonDeletingRookObjects,
					"preserveOnDelete is false: waiting for Rook to delete "+strings.Join(remaining, ", "))
				return nil
			}
		}
	}

	before := sb.DeepCopy()
	controllerutil.RemoveFinalizer(sb, StorageBackendFinalizer)
	if err := r.Patch(ctx, sb, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{})); err != nil {
		return fmt.Errorf("removing finalizer: %w", err)
	}
	p.finalized = true
	return nil
}

// deleteRookObjects deletes the Rook objects created for the backend and returns those
// still there. An adopted file system is never deleted, nor is any object that was not
// created for this backend or that opted out of reconciliation.
func (r *StorageBackendReconciler) deleteRookObjects(ctx context.Context, p *pass) ([]string, error) {
	sb := p.sb
	spec := sb.Spec.CephFS.Rook
	ns := rook.Namespace(sb, r.RookNamespace)
	inRook := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }

	var remaining []string
	for _, obj := range []client.Object{
		&cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: inRook(rook.SubVolumeGroupName(spec.FilesystemName, rook.SubVolumeGroup(spec.RootPath)))},
		&cephv1.CephClient{ObjectMeta: inRook(rook.ClientName(sb))},
	} {
		present, err := r.deleteOwned(ctx, p, obj)
		if err != nil {
			return nil, err
		}
		if present {
			remaining = append(remaining, r.describe(obj))
		}
	}
	// The file system goes last: Rook does not delete one while subvolume groups in it
	// still exist.
	if spec.AdoptExisting || len(remaining) > 0 {
		return remaining, nil
	}
	fs := &cephv1.CephFilesystem{ObjectMeta: inRook(spec.FilesystemName)}
	present, err := r.deleteOwned(ctx, p, fs)
	if err != nil {
		return nil, err
	}
	if present {
		remaining = append(remaining, r.describe(fs))
	}
	return remaining, nil
}

// deleteOwned asks for obj's deletion if it is this backend's to delete, and reports
// whether it still exists and deletion must wait for it.
func (r *StorageBackendReconciler) deleteOwned(ctx context.Context, p *pass, obj client.Object) (bool, error) {
	ref := r.describe(obj)
	if err := r.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return false, fmt.Errorf("reading %s: %w", ref, err)
	}
	if !rook.OwnedBy(obj, p.sb) || rook.DoNotReconcile(obj) {
		return false, nil
	}
	if obj.GetDeletionTimestamp().IsZero() {
		if err := r.Delete(ctx, obj); err != nil && !apierrors.IsNotFound(err) {
			return false, fmt.Errorf("deleting %s: %w", ref, err)
		}
		r.event(p.sb, obj, corev1.EventTypeNormal, v1alpha1.EventReasonDeleted, "Delete",
			"Deleted "+ref+" because preserveOnDelete is false")
	}
	return true, nil
}
