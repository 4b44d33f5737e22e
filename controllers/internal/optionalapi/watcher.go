package optionalapi

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

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// ErrInstalled is what the manager stops with when Rook, Multus or the
// Prometheus Operator was installed after it started. Its controllers were set up
// without watches on those kinds (see served.go) and controller-runtime's builder cannot
// add them later, so the process ends and its Deployment starts it again, this time
// with the watches.
var ErrInstalled = errors.New("an API the operator was started without is now served")

// PollInterval is how often the operator looks for the optional APIs while
// they are missing: a discovery request for each, cheap enough to make an
// installation take effect within half a minute.
const PollInterval = 30 * time.Second

// API is one API the operator works without and uses when it is served.
type API struct {
	Name  string
	Kinds []schema.GroupVersionKind
}

// Rook is Rook's ceph.rook.io, the kinds the operator uses.
func Rook() API {
	api := API{Name: "Rook (ceph.rook.io)"}
	for _, kind := range rookKinds {
		api.Kinds = append(api.Kinds, cephv1.SchemeGroupVersion.WithKind(kind))
	}
	return api
}

// NetworkAttachments is Multus's k8s.cni.cncf.io.
func NetworkAttachments() API {
	return API{Name: "Multus (k8s.cni.cncf.io)", Kinds: []schema.GroupVersionKind{NetworkAttachmentGVK}}
}

// PodMonitors is the Prometheus Operator's monitoring.coreos.com, of which the
// operator uses PodMonitors alone.
func PodMonitors() API {
	return API{Name: "Prometheus Operator (monitoring.coreos.com PodMonitor)", Kinds: []schema.GroupVersionKind{hadoop.PodMonitorGVK}}
}

// Watcher is a manager runnable that ends the manager once one of the
// APIs that were missing at start is served.
type Watcher struct {
	Missing   []API
	Interval  time.Duration
	Discovery discovery.DiscoveryInterface
}

// AddWatcher adds a watcher for the optional APIs that the manager's
// controllers were set up without, as served says; none when every one is served.
func AddWatcher(mgr ctrl.Manager, served Served) error {
	missing := Missing(served)
	if len(missing) == 0 {
		return nil
	}
	dc, err := discovery.NewDiscoveryClientForConfig(mgr.GetConfig())
	if err != nil {
		return fmt.Errorf("creating a discovery client: %w", err)
	}
	return mgr.Add(&Watcher{Missing: missing, Interval: PollInterval, Discovery: dc})
}

// Missing are the optional APIs that served says the controllers were set up
// without.
func Missing(served Served) []API {
	var missing []API
	if !served.Rook {
		missing = append(missing, Rook())
	}
	if !served.NetworkAttachments {
		missing = append(missing, NetworkAttachments())
	}
	if !served.PodMonitors {
		missing = append(missing, PodMonitors())
	}
	return missing
}

// NeedLeaderElection is false: a replica waiting for the lease must also restart, or
// it would lead later without the watches.
func (w *Watcher) NeedLeaderElection() bool {
	return false
}

// Start polls until one missing API is served, and then returns
// ErrInstalled naming it; it returns nil when ctx ends first. A failed
// lookup is logged and retried, as the API server may just be unavailable.
func (w *Watcher) Start(ctx context.Context) error {
	log := ctrl.LoggerFrom(ctx).WithName("optional-apis")
	ticker := time.NewTicker(w.Interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		}
		for _, api := range w.Missing {
			served, err := ServesAll(w.Discovery, api.Kinds)
			if err != nil {
				log.Error(err, "looking for an optional API", "api", api.Name)
				continue
			}
			if served {
				log.Info("an optional API is now served; the operator restarts to watch it", "api", api.Name)
				return fmt.Errorf("%w: %s", ErrInstalled, api.Name)
			}
		}
	}
}

// ServesAll asks the API server's discovery, not the manager's REST mapper, whether
// every kind is served: the mapper may keep an answer from before the installation.
func ServesAll(dc discovery.DiscoveryInterface, kinds []schema.GroupVersionKind) (bool, error) {
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

var _ manager.LeaderElectionRunnable = &Watcher{}
