package lifecycle

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
)

// MaxEventNote is the limit the events API puts on a note.
const MaxEventNote = 1024

// Truncate shortens s to at most n bytes, marking the cut with "...".
func Truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-3] + "..."
}

// Events records events about one kind's objects.
type Events struct {
	Recorder events.EventRecorder
}

// Normal records a Normal event about an action the operator took on regarding, with
// an optional related object. Warnings come from condition transitions
// (RecordTransitions), after the status patch, so that a retried pass does not repeat
// them, and from the few actions that need a user's attention (Record).
func (e Events) Normal(regarding, related runtime.Object, reason, action, note string) {
	e.Record(regarding, related, corev1.EventTypeNormal, reason, action, note)
}

// Record records an event about regarding, with an optional related object; the note
// is cut to what the events API takes.
func (e Events) Record(regarding, related runtime.Object, eventType, reason, action, note string) {
	e.Recorder.Eventf(regarding, related, eventType, reason, action, "%s", Truncate(note, MaxEventNote))
}

// Transitions says which condition changes become events, and how.
type Transitions struct {
	// Warnings are the reasons that need a user's action rather than time.
	Warnings map[string]bool
	// Skip leaves a change out; nil keeps them all.
	Skip func(metav1.Condition) bool
	// Related names an object the event is also about; nil for none.
	Related func(metav1.Condition) runtime.Object
	// Note is the event's note; nil for the condition's message.
	Note func(metav1.Condition) string
	// OncePerReason records one event per reason of a pass.
	OncePerReason bool
}

// RecordTransitions records an event for each condition whose status or reason
// differs between before and after, so that each wait, problem or block is reported
// once, when it starts, rather than on every pass. Call it once the status with after
// is written: a pass whose write did not happen must not report its changes.
func (e Events) RecordTransitions(regarding runtime.Object, before, after []metav1.Condition, t Transitions) {
	recorded := map[string]bool{}
	for _, c := range after {
		old := meta.FindStatusCondition(before, c.Type)
		if old != nil && old.Status == c.Status && old.Reason == c.Reason {
			continue
		}
		if t.Skip != nil && t.Skip(c) {
			continue
		}
		if t.OncePerReason {
			if recorded[c.Reason] {
				continue
			}
			recorded[c.Reason] = true
		}
		eventType := corev1.EventTypeNormal
		if t.Warnings[c.Reason] {
			eventType = corev1.EventTypeWarning
		}
		var related runtime.Object
		if t.Related != nil {
			related = t.Related(c)
		}
		note := c.Message
		if t.Note != nil {
			note = t.Note(c)
		}
		e.Record(regarding, related, eventType, c.Reason, "Reconcile", note)
	}
}
