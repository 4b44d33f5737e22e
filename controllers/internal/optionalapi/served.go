// Package optionalapi looks up, once when the controllers are set up, the APIs the
// operator works without and uses when they are served (Rook, Multus, the Prometheus
// Operator), and ends the manager when one of them appears later.
package optionalapi

import (
	"fmt"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// The optional APIs are looked up once, when the controllers are set up: a watch on a
// kind the API server does not serve would keep the manager from starting, and an
// operator for external Ceph clusters must run where neither Rook, Multus nor the
// Prometheus Operator is installed. Installing one later ends the manager so that it
// starts again with the watches (watcher.go).

// Served are the optional APIs the API server served when the controllers were set up.
type Served struct {
	// Rook: every Rook kind the operator uses.
	Rook bool
	// NetworkAttachments: Multus's NetworkAttachmentDefinitions.
	NetworkAttachments bool
	// PodMonitors: the Prometheus Operator's PodMonitors.
	PodMonitors bool
}

// Lookup looks the optional APIs up, once for every controller.
func Lookup(mapper meta.RESTMapper) (Served, error) {
	rook, err := servesRook(mapper)
	if err != nil {
		return Served{}, err
	}
	nads, err := serves(mapper, NetworkAttachmentGVK)
	if err != nil {
		return Served{}, err
	}
	podMonitors, err := serves(mapper, hadoop.PodMonitorGVK)
	if err != nil {
		return Served{}, err
	}
	return Served{Rook: rook, NetworkAttachments: nads, PodMonitors: podMonitors}, nil
}

// NetworkAttachmentGVK is Multus's NetworkAttachmentDefinition. The operator only needs
// to know whether one exists, so it reads metadata and needs no Go types for it.
var NetworkAttachmentGVK = schema.GroupVersionKind{Group: "k8s.cni.cncf.io", Version: "v1", Kind: "NetworkAttachmentDefinition"}

// rookKinds are the kinds of Rook's API the operator reads or writes.
var rookKinds = []string{"CephCluster", "CephFilesystem", "CephFilesystemSubVolumeGroup", "CephClient"}

// servesRook reports whether the API server knows every Rook kind the operator uses.
// Without them the operator still serves external StorageBackends, and reports
// Rook-mode ones as RookNotInstalled.
func servesRook(mapper meta.RESTMapper) (bool, error) {
	for _, kind := range rookKinds {
		ok, err := serves(mapper, cephv1.SchemeGroupVersion.WithKind(kind))
		if !ok || err != nil {
			return false, err
		}
	}
	return true, nil
}

func serves(mapper meta.RESTMapper, gvk schema.GroupVersionKind) (bool, error) {
	_, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	switch {
	case err == nil:
		return true, nil
	case meta.IsNoMatchError(err):
		return false, nil
	default:
		return false, fmt.Errorf("looking up %s: %w", gvk, err)
	}
}
