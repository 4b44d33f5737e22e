package indexes

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Requests maps a watch event to the objects of list's kind that opts select (one of
// these field indexes, often with a namespace), as reconcile requests: the one mapper
// of every controller. A failed list is logged and maps to none; the list is served by
// the cache, which reports its own failures.
func Requests(ctx context.Context, c client.Reader, list client.ObjectList, opts ...client.ListOption) []reconcile.Request {
	if err := c.List(ctx, list, opts...); err != nil {
		log.FromContext(ctx).Error(err, "listing objects to map an event to", "list", fmt.Sprintf("%T", list))
		return nil
	}
	var reqs []reconcile.Request
	_ = meta.EachListItem(list, func(item runtime.Object) error {
		if obj, ok := item.(client.Object); ok {
			reqs = append(reqs, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(obj)})
		}
		return nil
	})
	return reqs
}
