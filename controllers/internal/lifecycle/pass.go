package lifecycle

import (
	"errors"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
)

// Pass is what every kind's reconcile pass carries besides its own objects: the
// conditions it sets, and when it asks to run again for what no watch reports. Each
// kind's pass type embeds it.
type Pass struct {
	Conditions
	requeueAfter time.Duration
}

// NewPass starts a pass that sets conditions at list for an object of that generation.
func NewPass(list *[]metav1.Condition, generation int64) Pass {
	return Pass{Conditions: NewConditions(list, generation)}
}

// RequeueWithin asks for another pass within d at the latest: the earliest of the
// pass's requests wins.
func (p *Pass) RequeueWithin(d time.Duration) {
	if d > 0 && (p.requeueAfter == 0 || d < p.requeueAfter) {
		p.requeueAfter = d
	}
}

// StopRequeue withdraws the pass's requests for another pass: what it waited for is
// over, as a finished BenchmarkRun's deadline is.
func (p *Pass) StopRequeue() { p.requeueAfter = 0 }

// Result is the pass's result once its status write had outcome o and the pass ended
// with err: nothing more after an error, which controller-runtime retries with
// backoff; shortly again after a stale write (Requeue); else when the pass asked.
func (p *Pass) Result(o Outcome, err error) ctrl.Result {
	if r := Requeue(o, err); !r.IsZero() || err != nil {
		return r
	}
	return ctrl.Result{RequeueAfter: p.requeueAfter}
}

// Finish ends a pass from a deferred call in Reconcile, whose named results are result
// and err: write writes the status from the pass's error, its own error joins the
// pass's, and the result follows (Result).
func (p *Pass) Finish(result *ctrl.Result, err *error, write func(passErr error) (Outcome, error)) {
	o, writeErr := write(*err)
	*err = errors.Join(*err, writeErr)
	*result = p.Result(o, *err)
}
