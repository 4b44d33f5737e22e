package hadoopcluster

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/fencing"
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

// evictDeadSessions starts an eviction Job for each recorded pod that is gone and for
// each pod whose node was lost (internal/fencing), then records the pods that exist
// now. Without storage the record stays as it is; without an evictor it is cleared,
// since nothing would evict.
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
	nodes, err := r.nodesOf(ctx, pods.Items)
	if err != nil {
		hc.Status.SessionPods = recorded
		return err
	}
	plan := fencing.Plan(recorded, pods.Items, nodes, r.now())
	record := plan.Record
	var errs []error
	// This runs before reconcileNetwork: the devices of Rook's public network, which
	// the Jobs join, are as the last pass recorded them, and the pods whose sessions
	// they evict were made in such a pass.
	in := hadoop.Input{Cluster: hc, Storage: *storage, Defaults: hadoop.Defaults{Image: r.HadoopImage},
		AttachmentResources: p.base.Status.Network.AttachmentResources}
	for _, e := range plan.Evict {
		if err := r.startEviction(ctx, in, e); err != nil {
			// As recorded before, so the next pass tries again.
			record = slices.DeleteFunc(record, func(s v1alpha1.SessionPod) bool { return s.UID == e.Pod.UID })
			record = append(record, e.Pod)
			errs = append(errs, err)
		}
	}
	slices.SortFunc(record, func(a, b v1alpha1.SessionPod) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.UID, b.UID))
	})
	hc.Status.SessionPods = record
	p.sessionPodsObserved = true
	return errors.Join(errs...)
}

// nodesOf reads the nodes the pods run on from the cache; a node that is not there is
// left out, which the plan reads as gone.
func (r *Reconciler) nodesOf(ctx context.Context, pods []corev1.Pod) (map[string]*corev1.Node, error) {
	nodes := map[string]*corev1.Node{}
	for _, pod := range pods {
		name := pod.Spec.NodeName
		if _, seen := nodes[name]; seen || name == "" {
			continue
		}
		node := &corev1.Node{}
		err := r.workloads.Get(ctx, types.NamespacedName{Name: name}, node)
		switch {
		case apierrors.IsNotFound(err):
			continue
		case err != nil:
			return nil, fmt.Errorf("reading node %s: %w", name, err)
		}
		nodes[name] = node
	}
	return nodes, nil
}

// startEviction creates the Job that evicts the sessions of the pod gone, or of the
// pod on a lost node. A Job of that name that exists already was made by an earlier
// pass for the same UID and reason.
func (r *Reconciler) startEviction(ctx context.Context, in hadoop.Input, e fencing.Eviction) error {
	hc, storage := in.Cluster, in.Storage
	gone := e.Pod
	var fencedAt *time.Time
	if e.NodeLost {
		fencedAt = &e.FencedAt
	}
	job := hadoop.EvictSessionsJob(in, gone.Name, types.UID(gone.UID), fencedAt)
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
	if e.NodeLost {
		r.Events.Record(hc, job, corev1.EventTypeWarning, v1alpha1.EventReasonFencingSessions, "Evict",
			fmt.Sprintf("Pod %s (uid %s) remains, but %s; Job %s evicts its CephFS sessions opened before %s, as client.%s, so that no other client waits for them",
				gone.Name, gone.UID, e.Why, job.Name, e.FencedAt.UTC().Format(time.RFC3339), storage.EvictionClientID))
		return nil
	}
	r.Events.Record(hc, job, corev1.EventTypeNormal, v1alpha1.EventReasonEvictingSessions, "Evict",
		fmt.Sprintf("Pod %s (uid %s) is gone; Job %s evicts the CephFS sessions it may have left open, as client.%s",
			gone.Name, gone.UID, job.Name, storage.EvictionClientID))
	return nil
}
