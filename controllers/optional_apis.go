package controllers

import (
	"context"
	"errors"
	"fmt"
	"time"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/manager"
)

// ErrOptionalAPIInstalled is what the manager stops with when Rook or Multus was
// installed after it started. Its controllers were set up without watches on those
// kinds (see served_apis.go) and controller-runtime's builder cannot add them later,
// so the process ends and its Deployment starts it again, this time with the watches.
var ErrOptionalAPIInstalled = errors.New("an API the operator was started without is now served")

// optionalAPIPollInterval is how often the operator looks for Rook's and Multus's
// APIs while they are missing: two discovery requests, cheap enough to make an
// installation take effect within half a minute.
const optionalAPIPollInterval = 30 * time.Second

// optionalAPI is one API the operator works without and uses when it is served.
type optionalAPI struct {
	name  string
	kinds []schema.GroupVersionKind
}

func rookAPI() optionalAPI {
	api := optionalAPI{name: "Rook (ceph.rook.io)"}
	for _, kind := range rookKinds {
		api.kinds = append(api.kinds, cephv1.SchemeGroupVersion.WithKind(kind))
	}
	return api
}

func networkAttachmentAPI() optionalAPI {
	return optionalAPI{name: "Multus (k8s.cni.cncf.io)", kinds: []schema.GroupVersionKind{networkAttachmentGVK}}
}

// optionalAPIWatcher is a manager runnable that ends the manager once one of the
// APIs that were missing at start is served.
type optionalAPIWatcher struct {
	missing   []optionalAPI
	interval  time.Duration
	discovery discovery.DiscoveryInterface
}

// addOptionalAPIWatcher adds a watcher for the optional APIs that the manager's
// controllers were set up without; none when every one is served.
func addOptionalAPIWatcher(mgr ctrl.Manager) error {
	rookServed, err := servesRook(mgr.GetRESTMapper())
	if err != nil {
		return err
	}
	nadServed, err := servesNetworkAttachments(mgr.GetRESTMapper())
	if err != nil {
		return err
	}
	var missing []optionalAPI
	if !rookServed {
		missing = append(missing, rookAPI())
	}
	if !nadServed {
		missing = append(missing, networkAttachmentAPI())
	}
	if len(missing) == 0 {
		return nil
	}
	dc, err := discovery.NewDiscoveryClientForConfig(mgr.GetConfig())
	if err != nil {
		return fmt.Errorf("creating a discovery client: %w", err)
	}
	return mgr.Add(&optionalAPIWatcher{missing: missing, interval: optionalAPIPollInterval, discovery: dc})
}

// NeedLeaderElection is false: a replica waiting for the lease must also restart, or
// it would lead later without the watches.
func (w *optionalAPIWatcher) NeedLeaderElection() bool {
	return false
}

// Start polls until one missing API is served, and then returns
// ErrOptionalAPIInstalled naming it; it returns nil when ctx ends first. A failed
// lookup is logged and retried, as the API server may just be unavailable.
func (w *optionalAPIWatcher) Start(ctx context.Context) error {
	log := ctrl.LoggerFrom(ctx).WithName("optional-apis")
	ticker := time.NewTicker(w.interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		}
		for _, api := range w.missing {
			served, err := servesAll(w.discovery, api.kinds)
			if err != nil {
				log.Error(err, "looking for an optional API", "api", api.name)
				continue
			}
			if served {
				log.Info("an optional API is now served; the operator restarts to watch it", "api", api.name)
				return fmt.Errorf("%w: %s", ErrOptionalAPIInstalled, api.name)
			}
		}
	}
}

// servesAll asks the API server's discovery, not the manager's REST mapper, whether
// every kind is served: the mapper may keep an answer from before the installation.
func servesAll(dc discovery.DiscoveryInterface, kinds []schema.GroupVersionKind) (bool, error) {
	byGroupVersion := map[schema.GroupVersion][]string{}
	for _, gvk := range kinds {
		byGroupVersion[gvk.GroupVersion()] = append(byGroupVersion[gvk.GroupVersion()], gvk.Kind)
	}
	for gv, wanted := range byGroupVersion {
		list, err := dc.ServerResourcesForGroupVersion(gv.String())
		if apierrors.IsNotFound(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("discovering %s: %w", gv, err)
		}
		served := map[string]bool{}
		for _, r := range list.APIResources {
			served[r.Kind] = true
		}
		for _, kind := range wanted {
			if !served[kind] {
				return false, nil
			}
		}
	}
	return true, nil
}

var _ manager.LeaderElectionRunnable = &optionalAPIWatcher{}
