// Package indexes registers the field indexes of the operator's cache, which the
// controllers use to map an event on one object to the objects that depend on it.
// Some are read by a controller other than the one of the indexed kind: a
// StorageBackend waits for the HadoopClusters that use it, and a HadoopCluster follows
// the CephClusters of its backends' Rook namespaces.
package indexes

import (
	"context"
	"slices"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// Field indexes. Rook objects live in another namespace than the StorageBackend that
// wants them, so events on them are mapped back through these indexes, which also
// cover objects the operator did not create (an adopted CephFilesystem, a conflicting
// one) and therefore carry none of its labels.
const (
	// RookNamespace: the Rook namespace of a Rook-mode StorageBackend.
	RookNamespace = "storagebackend.rookNamespace"
	// RookFilesystem: <rook namespace>/<CephFilesystem name>.
	RookFilesystem = "storagebackend.rookFilesystem"
	// RookClient: <rook namespace>/<CephClient name>.
	RookClient = "storagebackend.rookClient"
	// KeySecret: the Secret an external StorageBackend reads its key from.
	KeySecret = "storagebackend.keySecret"
	// DiscoveryConfigMap: the discovery ConfigMap an HDFS StorageBackend reads.
	DiscoveryConfigMap = "storagebackend.discoveryConfigMap"
	// StorageBackendRef: the StorageBackend a HadoopCluster uses.
	StorageBackendRef = "hadoopcluster.storageBackendRef"
	// NetworkAttachment: <namespace>/<name> of each NetworkAttachmentDefinition in
	// a HadoopCluster's spec.network.attachments.
	NetworkAttachment = "hadoopcluster.networkAttachment"
	// ExtendedResource: each extended resource a HadoopCluster's NodeManagers
	// request: those of spec.network.extendedResources, and those its attachments'
	// NetworkAttachmentDefinitions name, as its status records them.
	ExtendedResource = "hadoopcluster.extendedResource"
)

// Setup registers every index. Rook-mode backends that name no Rook namespace are
// indexed under rookNamespace.
func Setup(ctx context.Context, indexer client.FieldIndexer, rookNamespace string) error {
	rookValue := func(value func(sb *v1alpha1.StorageBackend, ns string) string) client.IndexerFunc {
		return func(obj client.Object) []string {
			sb := obj.(*v1alpha1.StorageBackend)
			if sb.Spec.CephFS.Rook == nil {
				return nil
			}
			return []string{value(sb, rook.Namespace(sb, rookNamespace))}
		}
	}
	indexes := []struct {
		obj   client.Object
		field string
		fn    client.IndexerFunc
	}{
		{&v1alpha1.StorageBackend{}, RookNamespace, rookValue(func(_ *v1alpha1.StorageBackend, ns string) string {
			return ns
		})},
		{&v1alpha1.StorageBackend{}, RookFilesystem, rookValue(func(sb *v1alpha1.StorageBackend, ns string) string {
			return ns + "/" + sb.Spec.CephFS.Rook.FilesystemName
		})},
		{&v1alpha1.StorageBackend{}, RookClient, func(obj client.Object) []string {
			sb := obj.(*v1alpha1.StorageBackend)
			if sb.Spec.CephFS.Rook == nil {
				return nil
			}
			ns := rook.Namespace(sb, rookNamespace)
			return []string{ns + "/" + rook.ClientName(sb), ns + "/" + rook.EvictorName(sb), ns + "/" + rook.SettingsClientName(sb)}
		}},
		{&v1alpha1.StorageBackend{}, KeySecret, func(obj client.Object) []string {
			ext := obj.(*v1alpha1.StorageBackend).Spec.CephFS.External
			switch {
			case ext == nil:
				return nil
			case ext.Evictor != nil:
				return []string{ext.KeySecretRef.Name, ext.Evictor.KeySecretRef.Name}
			default:
				return []string{ext.KeySecretRef.Name}
			}
		}},
		{&v1alpha1.StorageBackend{}, DiscoveryConfigMap, func(obj client.Object) []string {
			h := obj.(*v1alpha1.StorageBackend).Spec.HDFS
			if h == nil || h.DiscoveryConfigMap == nil {
				return nil
			}
			return []string{h.DiscoveryConfigMap.Name}
		}},
		{&v1alpha1.HadoopCluster{}, StorageBackendRef, func(obj client.Object) []string {
			return []string{obj.(*v1alpha1.HadoopCluster).Spec.StorageBackendRef.Name}
		}},
		{&v1alpha1.HadoopCluster{}, NetworkAttachment, func(obj client.Object) []string {
			hc := obj.(*v1alpha1.HadoopCluster)
			out := make([]string, 0, len(hc.Spec.Network.Attachments))
			for _, a := range hc.Spec.Network.Attachments {
				out = append(out, AttachmentKey(a, hc.Namespace))
			}
			return out
		}},
		{&v1alpha1.HadoopCluster{}, ExtendedResource, func(obj client.Object) []string {
			hc := obj.(*v1alpha1.HadoopCluster)
			var out []string
			for _, d := range hc.Spec.Network.ExtendedResources {
				out = append(out, d.Name)
			}
			for _, a := range hc.Status.Network.AttachmentResources {
				out = append(out, a.ResourceName)
			}
			slices.Sort(out)
			return slices.Compact(out)
		}},
	}
	indexes = append(indexes, []struct {
		obj   client.Object
		field string
		fn    client.IndexerFunc
	}{
		{&v1alpha1.BenchmarkRun{}, BenchmarkClusterRef, func(obj client.Object) []string {
			return []string{obj.(*v1alpha1.BenchmarkRun).Spec.ClusterRef.Name}
		}},
		{&v1alpha1.BenchmarkRun{}, BenchmarkBaselineRef, func(obj client.Object) []string {
			if ref := obj.(*v1alpha1.BenchmarkRun).Spec.BaselineRef; ref != nil {
				return []string{ref.Name}
			}
			return nil
		}},
	}...)
	for _, idx := range indexes {
		if err := indexer.IndexField(ctx, idx.obj, idx.field, idx.fn); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkRun indexes: a HadoopCluster's runs, which queue on it, and the runs that
// compare themselves with a baseline, which wait for it to succeed.
const (
	// BenchmarkClusterRef: the HadoopCluster a BenchmarkRun runs on.
	BenchmarkClusterRef = "benchmarkrun.clusterRef"
	// BenchmarkBaselineRef: the BenchmarkRun a BenchmarkRun compares with.
	BenchmarkBaselineRef = "benchmarkrun.baselineRef"
)

// AttachmentKey is <namespace>/<name> of an attachment, in the cluster's namespace
// when it names none.
func AttachmentKey(a v1alpha1.NetworkAttachment, clusterNamespace string) string {
	ns := a.Namespace
	if ns == "" {
		ns = clusterNamespace
	}
	return ns + "/" + a.Name
}
