package lifecycle

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Outcome is what a status write did.
type Outcome int

const (
	// Unchanged: the status is what the pass started with; nothing was written, so an
	// object at rest causes no writes.
	Unchanged Outcome = iota
	// Patched: the new status is stored.
	Patched
	// Stale: the pass started from an object older than the stored one (the cache had
	// not caught up with the previous pass's write) and wrote nothing; it is repeated
	// after StaleRetry.
	Stale
	// Gone: the object was deleted meanwhile.
	Gone
)

// StaleRetry is how long a stale pass waits before it runs again; informers deliver
// the missing update within milliseconds.
const StaleRetry = 250 * time.Millisecond

// PatchStatus writes obj's status when it differs from oldStatus. The patch from base,
// the object as the pass read it, is conditional on base's resourceVersion, so a pass
// that worked from an outdated object writes nothing and events derived from status
// changes are recorded once.
func PatchStatus(ctx context.Context, c client.Client, base, obj client.Object, oldStatus, newStatus any) (Outcome, error) {
	if equality.Semantic.DeepEqual(oldStatus, newStatus) {
		return Unchanged, nil
	}
	err := c.Status().Patch(ctx, obj, client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{}))
	switch {
	case apierrors.IsConflict(err):
		return Stale, nil
	case apierrors.IsNotFound(err):
		return Gone, nil
	case err != nil:
		return Unchanged, fmt.Errorf("patching status: %w", err)
	}
	return Patched, nil
}

// Requeue is the result of a pass whose status write had outcome o: a stale pass
// without another error runs again shortly rather than being reported as an error.
func Requeue(o Outcome, passErr error) ctrl.Result {
	if o == Stale && passErr == nil {
		return ctrl.Result{RequeueAfter: StaleRetry}
	}
	return ctrl.Result{}
}
