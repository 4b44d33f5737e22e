package controllers

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// pass carries one reconcile of a StorageBackend: the object as read and the status
// being rebuilt on it.
type pass struct {
	conditionWriter
	// base is the object as read, the origin of the status patch.
	base *v1alpha1.StorageBackend
	// sb is the object whose status the pass rebuilds.
	sb *v1alpha1.StorageBackend
	// deleting passes only report on the deletion and leave the rest of the status.
	deleting bool
	// finalized is set once the finalizer is gone and the object with it.
	finalized bool
}

// newPass starts a pass. Everything in the status is rebuilt from what exists, except
// conditions, which keep their last transition times while their status holds.
func newPass(sb *v1alpha1.StorageBackend) *pass {
	p := &pass{conditionWriter: conditionWriter{&sb.Status.Conditions, sb.Generation}, base: sb.DeepCopy(), sb: sb, deleting: !sb.DeletionTimestamp.IsZero()}
	if !p.deleting {
		sb.Status = v1alpha1.StorageBackendStatus{
			ObservedGeneration: sb.Status.ObservedGeneration,
			Conditions:         sb.Status.Conditions,
		}
	}
	return p
}

func (p *pass) ready(conditionType, reason, message string) {
	p.set(conditionType, metav1.ConditionTrue, reason, message)
}

// summarize sets Ready from the conditions it summarises: true when all are, else the
// first one that is not, in the order a user should fix them.
func summarize(p *pass) {
	for _, t := range []string{v1alpha1.ConditionFilesystemReady, v1alpha1.ConditionClientReady, v1alpha1.ConditionClientConfigReady} {
		c := meta.FindStatusCondition(p.sb.Status.Conditions, t)
		if c == nil {
			p.notReady(v1alpha1.ConditionReady, v1alpha1.ReasonDependencyNotReady, t+" has not been evaluated yet")
			return
		}
		if c.Status != metav1.ConditionTrue {
			p.notReady(v1alpha1.ConditionReady, c.Reason, t+": "+c.Message)
			return
		}
	}
	st := &p.sb.Status
	p.ready(v1alpha1.ConditionReady, v1alpha1.ReasonReconciled,
		fmt.Sprintf("CephFS %s is ready for Hadoop at %s as client.%s; client config in Secret %s", st.FilesystemName, st.RootPath, st.ClientID, st.ClientConfigSecret))
}

// reconcilePaused changes nothing but Ready's reason, so that a paused backend says so;
// every other condition keeps what the last pass observed.
func (r *StorageBackendReconciler) reconcilePaused(ctx context.Context, sb *v1alpha1.StorageBackend) error {
	base := sb.DeepCopy()
	markPaused(&sb.Status.Conditions, sb.Generation)
	if equality.Semantic.DeepEqual(base.Status, sb.Status) {
		return nil
	}
	r.event(sb, nil, corev1.EventTypeNormal, v1alpha1.ReasonPaused, "Pause", "Reconciliation paused by spec.paused")
	return r.Status().Patch(ctx, sb, client.MergeFrom(base))
}

// warningReasons are condition reasons that need a user's action rather than time.
var warningReasons = map[string]bool{
	v1alpha1.ReasonRookNamespaceNotFound:        true,
	v1alpha1.ReasonCephClusterNotFound:          true,
	v1alpha1.ReasonFilesystemNotFound:           true,
	v1alpha1.ReasonFilesystemOwnedElsewhere:     true,
	v1alpha1.ReasonSubVolumeGroupOwnedElsewhere: true,
	v1alpha1.ReasonClientOwnedElsewhere:         true,
	v1alpha1.ReasonClientConfigSecretConflict:   true,
	v1alpha1.ReasonInvalidMonEndpoints:          true,
	v1alpha1.ReasonSecretNotFound:               true,
	v1alpha1.ReasonSecretKeyMissing:             true,
	v1alpha1.ReasonInvalidKey:                   true,
	v1alpha1.ReasonInUse:                        true,
	v1alpha1.ReasonReconcileError:               true,
}

// recordConditionChanges turns condition changes into events, so that each wait,
// conflict or block is reported once when it starts rather than on every pass. Parts
// becoming ready are reported through Ready alone, and conditions that only wait for
// another one are left out: that one has its own event.
func (r *StorageBackendReconciler) recordConditionChanges(sb *v1alpha1.StorageBackend, before, after []metav1.Condition) {
	for _, c := range after {
		old := meta.FindStatusCondition(before, c.Type)
		if old != nil && old.Status == c.Status && old.Reason == c.Reason {
			continue
		}
		switch {
		case c.Type == v1alpha1.ConditionReady:
			if c.Status == metav1.ConditionTrue {
				r.event(sb, nil, corev1.EventTypeNormal, c.Reason, "Reconcile", c.Message)
			}
		case c.Reason == v1alpha1.ReasonDependencyNotReady:
		case c.Status == metav1.ConditionTrue && c.Type != v1alpha1.ConditionDeletionBlocked:
		default:
			eventType := corev1.EventTypeNormal
			if warningReasons[c.Reason] {
				eventType = corev1.EventTypeWarning
			}
			r.event(sb, nil, eventType, c.Reason, "Reconcile", c.Message)
		}
	}
}

// maxEventNote is the limit the events API puts on a note.
const maxEventNote = 1024

func (r *StorageBackendReconciler) event(sb *v1alpha1.StorageBackend, related runtime.Object, eventType, reason, action, note string) {
	if len(note) > maxEventNote {
		note = note[:maxEventNote-3] + "..."
	}
	r.Recorder.Eventf(sb, related, eventType, reason, action, "%s", note)
}
