package storagebackend

import (
	"context"
	"fmt"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// users names the HadoopClusters that use sb. The cache answers first; when it knows
// of none, the API server is asked: a cluster created just before the backend's
// deletion may not have reached the cache yet, and letting the deletion go on would
// take the storage (with preserveOnDelete false, its data) from under it. The API
// server cannot select by spec.storageBackendRef, so the namespace's clusters are
// read and filtered here; that happens only while a backend is being deleted.
func (r *Reconciler) users(ctx context.Context, sb *v1alpha1.StorageBackend) ([]string, error) {
	cached := &v1alpha1.HadoopClusterList{}
	if err := r.List(ctx, cached, client.InNamespace(sb.Namespace), client.MatchingFields{indexes.StorageBackendRef: sb.Name}); err != nil {
		return nil, fmt.Errorf("listing HadoopClusters that use this backend: %w", err)
	}
	names := make([]string, 0, len(cached.Items))
	for i := range cached.Items {
		names = append(names, cached.Items[i].Name)
	}
	if len(names) > 0 {
		return names, nil
	}
	live := &v1alpha1.HadoopClusterList{}
	if err := r.APIReader.List(ctx, live, client.InNamespace(sb.Namespace)); err != nil {
		return nil, fmt.Errorf("listing HadoopClusters that use this backend from the API server: %w", err)
	}
	for i := range live.Items {
		if live.Items[i].Spec.StorageBackendRef.Name == sb.Name {
			names = append(names, live.Items[i].Name)
		}
	}
	return names, nil
}

// reconcileDelete lets a StorageBackend go once no HadoopCluster uses it. Its Rook
// objects, and the data in them, stay unless preserveOnDelete is false; then the
// operator empties Hadoop's root, deletes the Rook objects it created and waits until
// they are gone. What set the file system's flags (the settings client, its Secret
// and Jobs) goes either way, and the flags stay. The client config Secrets are owned
// by the backend and go with garbage collection.
func (r *Reconciler) reconcileDelete(ctx context.Context, p *pass) error {
	sb := p.sb
	if !controllerutil.ContainsFinalizer(sb, StorageBackendFinalizer) {
		p.finalized = true
		return nil
	}

	names, err := r.users(ctx, sb)
	if err != nil {
		return err
	}
	if len(names) > 0 {
		p.Set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonInUse,
			"deletion waits until no HadoopCluster uses this backend; in use by HadoopCluster "+strings.Join(names, ", "))
		return nil
	}

	// Without Rook's API there are no Rook objects to keep or delete.
	if sb.Spec.CephFS.Rook != nil && r.APIs.Rook {
		// The client that set the file system's flags is the operator's alone, and
		// goes whatever preserveOnDelete says; the flags stay on the file system.
		if err := r.removeFilesystemSettings(ctx, p); err != nil {
			return err
		}
		if rook.PreserveOnDelete(sb) {
			r.Events.Normal(sb, nil, v1alpha1.EventReasonRookObjectsPreserved, "Delete",
				"Kept the CephFilesystem, its subvolume group and the CephClients of Hadoop and the evictor with all data, as preserveOnDelete asks; the file system keeps its flags")
		} else {
			emptied, err := r.deleteData(ctx, p)
			if err != nil || !emptied {
				return err
			}
			remaining, err := r.deleteRookObjects(ctx, p)
			if err != nil {
				return err
			}
			if len(remaining) > 0 {
				p.Set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonDeletingRookObjects,
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

// deleteData empties Hadoop's root before its subvolume group is deleted: Ceph refuses
// to remove a group that holds anything, and Rook would retry forever. A Job of the
// Hadoop image does it with the backend's own client. It reports whether the root is
// empty, or needs not be: the group is gone or already being deleted (so this step was
// done), is not this backend's to delete, or Hadoop never had a client config to write
// with. DeletionBlocked says what it waits for.
func (r *Reconciler) deleteData(ctx context.Context, p *pass) (bool, error) {
	sb := p.sb
	spec := sb.Spec.CephFS.Rook
	ns := rook.Namespace(sb, r.RookNamespace)
	svg := &cephv1.CephFilesystemSubVolumeGroup{}
	key := client.ObjectKey{Namespace: ns, Name: rook.SubVolumeGroupName(spec.FilesystemName, rook.SubVolumeGroup(spec.RootPath))}
	switch err := r.Get(ctx, key, svg); {
	case apierrors.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading CephFilesystemSubVolumeGroup %s: %w", key, err)
	case !svg.DeletionTimestamp.IsZero() || !rook.OwnedBy(svg, sb) || naming.DoNotReconcile(svg):
		return true, nil
	}
	job := &batchv1.Job{}
	name := naming.ShortName(sb.Name+"-delete-data", 63)
	jobErr := r.Get(ctx, client.ObjectKey{Namespace: sb.Namespace, Name: name}, job)
	if jobErr != nil && !apierrors.IsNotFound(jobErr) {
		return false, fmt.Errorf("reading Job %s: %w", name, jobErr)
	}
	if jobErr == nil && lifecycle.JobCondition(job, batchv1.JobComplete) != nil {
		return true, nil
	}
	// A namespace being deleted takes no new Job and deletes the one that runs, with
	// the client config Secret: the root cannot be emptied from it, and going on as if
	// it had been would only leave Rook refusing a non-empty subvolume group.
	switch terminating, err := r.namespaceTerminating(ctx, sb.Namespace); {
	case err != nil:
		return false, fmt.Errorf("reading namespace %s: %w", sb.Namespace, err)
	case terminating:
		p.Set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonNamespaceTerminating, fmt.Sprintf(
			"preserveOnDelete is false, and Hadoop's root %s must be emptied before Rook deletes it, by a Job in namespace %s, which is being deleted and takes no new objects. "+
				"To keep the data and let the namespace go, set spec.cephFS.rook.preserveOnDelete to true; to delete the data as well, then remove %s in file system %s with a Ceph client of your own (docs/storage.md)",
			spec.RootPath, sb.Namespace, spec.RootPath, spec.FilesystemName))
		return false, nil
	}

	secret := &metav1.PartialObjectMetadata{}
	secret.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	switch err := r.Get(ctx, client.ObjectKey{Namespace: sb.Namespace, Name: cephconf.SecretName(sb.Name)}, secret); {
	case apierrors.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading the client config Secret: %w", err)
	}

	if jobErr != nil {
		return false, r.startDeleteData(ctx, p, name, ns)
	}
	switch {
	case lifecycle.JobCondition(job, batchv1.JobFailed) != nil:
		p.Set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonDataDeletionFailed,
			fmt.Sprintf("preserveOnDelete is false, and Job %s, which empties Hadoop's root %s before Rook deletes it, failed: see its pods' logs; delete the Job to try again", name, spec.RootPath))
	default:
		p.Set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonDeletingData,
			fmt.Sprintf("preserveOnDelete is false: Job %s is deleting everything below Hadoop's root %s, which Rook must find empty before it deletes it", name, spec.RootPath))
	}
	return false, nil
}

// startDeleteData creates the Job that empties Hadoop's root. Its pod reaches Ceph the
// way Rook's daemons are reached: on the host's network when Rook runs them there, with
// Rook's public Multus network when it has one.
func (r *Reconciler) startDeleteData(ctx context.Context, p *pass, name, rookNamespace string) error {
	sb := p.sb
	if r.HadoopImage == "" {
		p.Set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonDataDeletionFailed,
			"preserveOnDelete is false, and Hadoop's root must be emptied before Rook deletes it, with the Hadoop image, which the operator was not given (--hadoop-image, the chart's hadoopImage)")
		return nil
	}
	net, err := r.daemonNetwork(ctx, rookNamespace)
	if err != nil {
		return err
	}
	d := hadoop.DeleteData{
		Name:      name,
		Namespace: sb.Namespace,
		Labels:    naming.StorageBackendLabels(sb),
		Image:     r.HadoopImage,
		Storage: hadoop.Storage{
			Filesystem:         sb.Spec.CephFS.Rook.FilesystemName,
			RootPath:           sb.Spec.CephFS.Rook.RootPath,
			ClientID:           rook.ClientName(sb),
			ClientConfigSecret: cephconf.SecretName(sb.Name),
		},
		HostNetwork:   net.Host,
		PublicNetwork: net.Public,
	}
	job := hadoop.DeleteDataJob(d)
	if err := controllerutil.SetControllerReference(sb, job, r.Scheme); err != nil {
		return err
	}
	if err := r.Create(ctx, job); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating Job %s: %w", name, err)
	}
	r.Events.Normal(sb, job, v1alpha1.ReasonDeletingData, "Delete",
		fmt.Sprintf("Deleting everything below Hadoop's root %s with Job %s, as preserveOnDelete: false asks", d.Storage.RootPath, name))
	p.Set(v1alpha1.ConditionDeletionBlocked, metav1.ConditionTrue, v1alpha1.ReasonDeletingData,
		fmt.Sprintf("preserveOnDelete is false: Job %s is deleting everything below Hadoop's root %s, which Rook must find empty before it deletes it", name, d.Storage.RootPath))
	return nil
}

// deleteRookObjects deletes the Rook objects created for the backend and returns those
// still there. An adopted file system is never deleted, nor is any object that was not
// created for this backend or that opted out of reconciliation.
func (r *Reconciler) deleteRookObjects(ctx context.Context, p *pass) ([]string, error) {
	sb := p.sb
	spec := sb.Spec.CephFS.Rook
	ns := rook.Namespace(sb, r.RookNamespace)
	inRook := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: ns, Name: name} }

	var remaining []string
	for _, obj := range []client.Object{
		&cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: inRook(rook.SubVolumeGroupName(spec.FilesystemName, rook.SubVolumeGroup(spec.RootPath)))},
		&cephv1.CephClient{ObjectMeta: inRook(rook.ClientName(sb))},
		&cephv1.CephClient{ObjectMeta: inRook(rook.EvictorName(sb))},
		&cephv1.CephClient{ObjectMeta: inRook(rook.SettingsClientName(sb))},
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
func (r *Reconciler) deleteOwned(ctx context.Context, p *pass, obj client.Object) (bool, error) {
	ref := r.describe(obj)
	if err := r.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		return false, fmt.Errorf("reading %s: %w", ref, err)
	}
	if !rook.OwnedBy(obj, p.sb) || naming.DoNotReconcile(obj) {
		return false, nil
	}
	if obj.GetDeletionTimestamp().IsZero() {
		if err := r.Delete(ctx, obj); err != nil && !apierrors.IsNotFound(err) {
			return false, fmt.Errorf("deleting %s: %w", ref, err)
		}
		r.Events.Normal(p.sb, obj, v1alpha1.EventReasonDeleted, "Delete",
			"Deleted "+ref+" because preserveOnDelete is false")
	}
	return true, nil
}

// namespaceTerminating reports whether namespace is being deleted.
func (r *Reconciler) namespaceTerminating(ctx context.Context, namespace string) (bool, error) {
	ns := &metav1.PartialObjectMetadata{}
	ns.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Namespace"))
	if err := r.Get(ctx, client.ObjectKey{Name: namespace}, ns); err != nil {
		return false, client.IgnoreNotFound(err)
	}
	return !ns.DeletionTimestamp.IsZero(), nil
}
