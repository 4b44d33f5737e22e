package hadoopcluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// A Hadoop process killed before it unmounts CephFS (a lost node, an OOM kill, a
// pod deleted without grace) leaves its MDS sessions open, and they keep their
// capabilities until the MDS gives up on them after the session timeout: every other
// client that touches those files waits that long. The connector tags each session
// with its pod's UID, so once a pod is gone the operator evicts whatever sessions
// carry that UID, through a short Job with the StorageBackend's evictor key.
//
// status.sessionPods remembers the UIDs of the cluster's pods. A pod whose UID is
// recorded there and is no longer in the cache is gone for good (UIDs are never
// reused, and a pod in the cache once stays there until it is deleted), even if it
// went while the operator was down. A pod the operator never saw is never evicted, so
// a cache that lags behind cannot get a live pod's sessions evicted.

// evictDeadSessions starts an eviction Job for each recorded pod that is gone, then
// records the pods that exist now. Without storage the record stays as it is; without
// an evictor it is cleared, since nothing would evict.
func (r *Reconciler) evictDeadSessions(ctx context.Context, p *clusterPass, storage *hadoop.Storage) error {
	hc := p.hc
	recorded := p.base.Status.SessionPods
	switch {
	case storage == nil:
		hc.Status.SessionPods = recorded
		return nil
	case storage.EvictionSecret == "":
		hc.Status.SessionPods = nil
		return nil
	}
	pods := &corev1.PodList{}
	if err := r.workloads.List(ctx, pods, client.InNamespace(hc.Namespace), client.MatchingLabels{hadoop.LabelInstance: hc.Name}); err != nil {
		hc.Status.SessionPods = recorded
		return fmt.Errorf("listing the cluster's pods: %w", err)
	}
	live := map[types.UID]bool{}
	current := make([]v1alpha1.SessionPod, 0, len(pods.Items))
	for _, pod := range pods.Items {
		live[pod.UID] = true
		current = append(current, v1alpha1.SessionPod{Name: pod.Name, UID: string(pod.UID)})
	}
	var errs []error
	for _, gone := range recorded {
		if live[types.UID(gone.UID)] {
			continue
		}
		if err := r.startEviction(ctx, hc, *storage, gone); err != nil {
			// Kept on record, so the next pass tries again.
			current = append(current, gone)
			errs = append(errs, err)
		}
	}
	slices.SortFunc(current, func(a, b v1alpha1.SessionPod) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
	})
	hc.Status.SessionPods = current
	p.sessionPodsObserved = true
	return errors.Join(errs...)
}

// startEviction creates the Job that evicts the sessions of the pod gone. A Job of
// that name that exists already was made by an earlier pass for the same UID.
func (r *Reconciler) startEviction(ctx context.Context, hc *v1alpha1.HadoopCluster, storage hadoop.Storage, gone v1alpha1.SessionPod) error {
	job := hadoop.EvictSessionsJob(hadoop.Input{Cluster: hc, Storage: storage, Defaults: hadoop.Defaults{Image: r.HadoopImage}},
		gone.Name, types.UID(gone.UID))
	if err := controllerutil.SetControllerReference(hc, job, r.Scheme); err != nil {
		return err
	}
	err := r.Create(ctx, job)
	switch {
	case apierrors.IsAlreadyExists(err):
		return nil
	case err != nil:
		return fmt.Errorf("creating Job %s to evict the CephFS sessions of pod %s: %w", job.Name, gone.Name, err)
	}
	r.record(hc, job, corev1.EventTypeNormal, v1alpha1.EventReasonEvictingSessions, "Evict",
		fmt.Sprintf("Pod %s (uid %s) is gone; Job %s evicts the CephFS sessions it may have left open, as client.%s",
			gone.Name, gone.UID, job.Name, storage.EvictionClientID))
	return nil
}
