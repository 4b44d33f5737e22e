package storagebackend

import (
	"context"
	"fmt"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// The MDS pods Rook runs are the first place a sick file system shows: a daemon that
// Rook's liveness probe restarts in a loop, for instance because Ceph's monitors gave
// it to another file system. A Rook-mode backend reports its file system's daemons in
// MetadataServersHealthy, read from a cache of their own that holds only Rook's MDS
// pods, and only the fields the condition reads.

// newMDSCache is a cache of Rook's MDS pods in namespaces (all when empty).
func newMDSCache(mgr ctrl.Manager, namespaces []string) (cache.Cache, error) {
	return lifecycle.NewCache(mgr, map[client.Object]cache.ByObject{
		&corev1.Pod{}: {
			Label:      labels.SelectorFromSet(rook.MetadataServerAppLabels()),
			Namespaces: lifecycle.InNamespaces(namespaces),
			Transform:  trimMDSPod,
		},
	})
}

// trimMDSPod keeps what rook.MetadataServerHealth reads: the labels, whether the pod
// is going, its Ready condition, and its containers' restarts and states.
func trimMDSPod(obj any) (any, error) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return obj, nil
	}
	out := &corev1.Pod{ObjectMeta: lifecycle.TrimmedMeta(pod)}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodReady {
			out.Status.Conditions = []corev1.PodCondition{{Type: c.Type, Status: c.Status}}
		}
	}
	for _, c := range pod.Status.ContainerStatuses {
		s := corev1.ContainerStatus{Name: c.Name, Ready: c.Ready, RestartCount: c.RestartCount, State: c.State}
		if t := c.LastTerminationState.Terminated; t != nil {
			s.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: t.ExitCode, Reason: t.Reason}
		}
		out.Status.ContainerStatuses = append(out.Status.ContainerStatuses, s)
	}
	return out, nil
}

// byMetadataServer maps an MDS pod to the backends of its file system.
func (r *Reconciler) byMetadataServer(ctx context.Context, pod *corev1.Pod) []reconcile.Request {
	fs := rook.MetadataServerFilesystem(pod.Labels)
	if fs == "" {
		return nil
	}
	return r.backendsBy(ctx, indexes.RookFilesystem, pod.Namespace+"/"+fs)
}

// reportMetadataServers sets MetadataServersHealthy from the MDS pods of fs.
func (r *Reconciler) reportMetadataServers(ctx context.Context, p *pass, fs *cephv1.CephFilesystem) error {
	pods := &corev1.PodList{}
	if err := r.mds.List(ctx, pods, client.InNamespace(fs.Namespace), client.MatchingLabels(rook.MetadataServerLabels(fs.Name))); err != nil {
		return p.Failed(v1alpha1.ConditionMetadataServersHealthy, fmt.Errorf("listing the MDS pods of file system %s: %w", fs.Name, err))
	}
	h := rook.MetadataServerHealth(fs.Name, fs.Namespace, pods.Items)
	p.Set(v1alpha1.ConditionMetadataServersHealthy, h.Status, h.Reason, h.Message)
	return nil
}
