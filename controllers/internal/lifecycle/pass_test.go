package lifecycle

import (
	"errors"
	"testing"
	"time"

	ctrl "sigs.k8s.io/controller-runtime"
)

func TestPassRequeue(t *testing.T) {
	var p Pass
	p.RequeueWithin(time.Minute)
	p.RequeueWithin(15 * time.Second)
	p.RequeueWithin(time.Hour)
	p.RequeueWithin(0)
	if got := p.Result(Patched, nil); got != (ctrl.Result{RequeueAfter: 15 * time.Second}) {
		t.Errorf("after requests of 1m, 15s, 1h and 0: %+v, want the earliest, 15s", got)
	}
	if got := p.Result(Stale, nil); got != (ctrl.Result{RequeueAfter: StaleRetry}) {
		t.Errorf("a stale write: %+v, want StaleRetry", got)
	}
	if got := p.Result(Patched, errors.New("boom")); !got.IsZero() {
		t.Errorf("a failed pass: %+v, want controller-runtime's backoff alone", got)
	}
	p.StopRequeue()
	if got := p.Result(Unchanged, nil); !got.IsZero() {
		t.Errorf("after StopRequeue: %+v, want none", got)
	}
}

func TestPassFinish(t *testing.T) {
	p := Pass{}
	p.RequeueWithin(time.Minute)
	var result ctrl.Result
	passErr := errors.New("reading the cluster")
	err := passErr
	var wrote error
	p.Finish(&result, &err, func(e error) (Outcome, error) {
		wrote = e
		return Unchanged, errors.New("patching status")
	})
	if !errors.Is(wrote, passErr) {
		t.Errorf("the status was written from %v, want the pass's error", wrote)
	}
	if !errors.Is(err, passErr) || err.Error() != "reading the cluster\npatching status" {
		t.Errorf("error %q, want the pass's and the write's", err)
	}
	if !result.IsZero() {
		t.Errorf("result %+v, want none after an error", result)
	}

	err = nil
	p.Finish(&result, &err, func(error) (Outcome, error) { return Patched, nil })
	if err != nil || result != (ctrl.Result{RequeueAfter: time.Minute}) {
		t.Errorf("a good pass: %v, %+v, want no error and the pass's requeue", err, result)
	}
}
