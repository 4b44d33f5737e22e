// Package storage resolves what a HadoopCluster's pods need of its StorageBackend: the
// client config to mount, and, when Rook puts Ceph's public network on Multus, that
// network. The HadoopCluster and the BenchmarkRun controllers both call it, so benchmark
// Jobs reach CephFS exactly as the cluster's pods do.
package storage

import (
	"context"
	"fmt"
	"slices"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hdfs"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// Resolver reads a cluster's StorageBackend and, for Rook, its CephCluster.
type Resolver struct {
	Client client.Reader
	// APIReader reads an HDFS backend's client ConfigMap, whose content the cache
	// does not hold.
	APIReader client.Reader
	// DefaultRookNamespace is the Rook namespace of backends that name none.
	DefaultRookNamespace string
	// RookServed: without Rook's API there is no CephCluster to read a network from.
	RookServed bool
}

// Resolved is a cluster's storage.
type Resolved struct {
	// Backend is the StorageBackend; nil when it does not exist.
	Backend *v1alpha1.StorageBackend
	// Storage is everything Hadoop's builders take from the backend; nil while Unmet
	// says why the backend cannot be used yet.
	Storage *hadoop.Storage
	Unmet   *lifecycle.Unmet
	// NetworkUnmet is a public network of Rook's that cannot be read, for the
	// cluster's NetworkReady; the rest of the storage is usable.
	NetworkUnmet *lifecycle.Unmet
}

// NetworkError is a failure to read Rook's network, as opposed to the backend.
type NetworkError struct{ Err error }

func (e NetworkError) Error() string { return e.Err.Error() }
func (e NetworkError) Unwrap() error { return e.Err }

// Resolve waits for the cluster's StorageBackend to be Ready with a client config, and
// returns what the builders take from it. Nothing is copied: the client config Secret
// is in the cluster's namespace, and the pods mount it directly.
func (r Resolver) Resolve(ctx context.Context, hc *v1alpha1.HadoopCluster) (Resolved, error) {
	key := client.ObjectKey{Namespace: hc.Namespace, Name: hc.Spec.StorageBackendRef.Name}
	sb := &v1alpha1.StorageBackend{}
	if err := r.Client.Get(ctx, key, sb); err != nil {
		if apierrors.IsNotFound(err) {
			return Resolved{Unmet: &lifecycle.Unmet{Reason: v1alpha1.ReasonStorageBackendNotFound,
				Message: fmt.Sprintf("StorageBackend %s does not exist in namespace %s: create it, or set spec.storageBackendRef.name to an existing one", key.Name, key.Namespace)}}, nil
		}
		return Resolved{}, fmt.Errorf("reading StorageBackend %s: %w", key, err)
	}
	res := Resolved{Backend: sb}
	st := sb.Status
	ready := meta.FindStatusCondition(st.Conditions, v1alpha1.ConditionReady)
	switch {
	case ready == nil:
		res.Unmet = &lifecycle.Unmet{Reason: v1alpha1.ReasonStorageBackendNotReady,
			Message: fmt.Sprintf("waiting for StorageBackend %s to be Ready (not reconciled yet)", key.Name)}
		return res, nil
	case ready.Status != metav1.ConditionTrue:
		res.Unmet = &lifecycle.Unmet{Reason: v1alpha1.ReasonStorageBackendNotReady,
			Message: fmt.Sprintf("waiting for StorageBackend %s to be Ready (%s: %s)", key.Name, ready.Reason, ready.Message)}
		return res, nil
	case sb.Spec.HDFS != nil:
		return r.resolveHDFS(ctx, res)
	case st.ClientConfigSecret == "" || st.ClientConfigHash == "":
		res.Unmet = &lifecycle.Unmet{Reason: v1alpha1.ReasonStorageBackendNotReady,
			Message: fmt.Sprintf("waiting for StorageBackend %s to report its client config Secret", key.Name)}
		return res, nil
	}

	storage := &hadoop.Storage{
		Filesystem:         st.FilesystemName,
		RootPath:           st.RootPath,
		ClientID:           st.ClientID,
		ClientConfigSecret: st.ClientConfigSecret,
		ClientConfigHash:   st.ClientConfigHash,
		EvictionSecret:     st.EvictionSecret,
		EvictionClientID:   st.EvictionClientID,
	}
	res.Storage = storage
	if sb.Spec.CephFS.Rook == nil {
		return res, nil
	}
	storage.RookNamespace = rook.Namespace(sb, r.DefaultRookNamespace)
	// The operator made the root, through Rook's subvolume group.
	storage.HandOverRoot = true
	if !r.RookServed {
		return res, nil
	}
	public, unmet, err := r.publicNetwork(ctx, storage.RookNamespace)
	if err != nil {
		return res, NetworkError{err}
	}
	storage.PublicNetwork, res.NetworkUnmet = public, unmet
	return res, nil
}

// publicNetwork is the Multus network of Ceph's public traffic, from the CephCluster
// of the Rook namespace, or nil when Rook does not put it on Multus. A selector Rook
// itself could not use is a problem to report.
func (r Resolver) publicNetwork(ctx context.Context, rookNamespace string) (*v1alpha1.NetworkAttachment, *lifecycle.Unmet, error) {
	clusters := &cephv1.CephClusterList{}
	if err := r.Client.List(ctx, clusters, client.InNamespace(rookNamespace)); err != nil {
		return nil, nil, fmt.Errorf("listing CephClusters in namespace %s: %w", rookNamespace, err)
	}
	if len(clusters.Items) == 0 {
		return nil, nil, nil
	}
	// Rook runs one CephCluster per namespace; the first by name is deterministic
	// should there be more.
	cc := slices.MinFunc(clusters.Items, func(a, b cephv1.CephCluster) int { return strings.Compare(a.Name, b.Name) })
	net, err := rook.DaemonNetwork(&cc)
	if err != nil {
		return nil, &lifecycle.Unmet{Reason: v1alpha1.ReasonNetworkAttachmentNotFound,
			Message: fmt.Sprintf("the public network of CephCluster %s/%s cannot be read: %v", rookNamespace, cc.Name, err)}, nil
	}
	return net.Public, nil, nil
}

// resolveHDFS reads a Ready HDFS backend's client ConfigMap: its hdfs-site.xml goes
// into the cluster's configuration, whose hash then follows it.
func (r Resolver) resolveHDFS(ctx context.Context, res Resolved) (Resolved, error) {
	sb := res.Backend
	st := sb.Status
	if st.ClientConfigMap == "" || st.HDFS == nil || st.HDFS.DefaultFS == "" {
		res.Unmet = &lifecycle.Unmet{Reason: v1alpha1.ReasonStorageBackendNotReady,
			Message: fmt.Sprintf("waiting for StorageBackend %s to report its HDFS client ConfigMap", sb.Name)}
		return res, nil
	}
	key := client.ObjectKey{Namespace: sb.Namespace, Name: st.ClientConfigMap}
	cm := &corev1.ConfigMap{}
	if err := r.APIReader.Get(ctx, key, cm); err != nil {
		if apierrors.IsNotFound(err) {
			res.Unmet = &lifecycle.Unmet{Reason: v1alpha1.ReasonStorageBackendNotReady,
				Message: fmt.Sprintf("waiting for StorageBackend %s to render ConfigMap %s", sb.Name, key.Name)}
			return res, nil
		}
		return res, fmt.Errorf("reading ConfigMap %s: %w", key, err)
	}
	site, err := hadoop.ParseConfigurationXML(cm.Data[hdfs.FileHDFSSite])
	if err != nil {
		return res, fmt.Errorf("ConfigMap %s: %s: %w", key, hdfs.FileHDFSSite, err)
	}
	res.Storage = &hadoop.Storage{
		ClientConfigHash: cm.Annotations[hdfs.HashAnnotation],
		HDFS:             &hadoop.HDFSStorage{DefaultFS: st.HDFS.DefaultFS, Site: site},
	}
	return res, nil
}
