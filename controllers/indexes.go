package controllers

import (
	"context"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// Field indexes. Rook objects live in another namespace than the StorageBackend that
// wants them, so events on them are mapped back through these indexes, which also
// cover objects the operator did not create (an adopted CephFilesystem, a conflicting
// one) and therefore carry none of its labels.
const (
	// indexRookNamespace: the Rook namespace of a Rook-mode StorageBackend.
	indexRookNamespace = "storagebackend.rookNamespace"
	// indexRookFilesystem: <rook namespace>/<CephFilesystem name>.
	indexRookFilesystem = "storagebackend.rookFilesystem"
	// indexRookClient: <rook namespace>/<CephClient name>.
	indexRookClient = "storagebackend.rookClient"
	// indexKeySecret: the Secret an external StorageBackend reads its key from.
	indexKeySecret = "storagebackend.keySecret"
	// indexStorageBackendRef: the StorageBackend a HadoopCluster uses.
	indexStorageBackendRef = "hadoopcluster.storageBackendRef"
	// indexNetworkAttachment: <namespace>/<name> of each NetworkAttachmentDefinition in
	// a HadoopCluster's spec.network.attachments.
	indexNetworkAttachment = "hadoopcluster.networkAttachment"
	// indexExtendedResource: each extended resource a HadoopCluster's NodeManagers
	// request.
	indexExtendedResource = "hadoopcluster.extendedResource"
)

func setupIndexes(ctx context.Context, indexer client.FieldIndexer, rookNamespace string) error {
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
		{&v1alpha1.StorageBackend{}, indexRookNamespace, rookValue(func(_ *v1alpha1.StorageBackend, ns string) string {
			return ns
		})},
		{&v1alpha1.StorageBackend{}, indexRookFilesystem, rookValue(func(sb *v1alpha1.StorageBackend, ns string) string {
			return ns + "/" + sb.Spec.CephFS.Rook.FilesystemName
		})},
		{&v1alpha1.StorageBackend{}, indexRookClient, rookValue(func(sb *v1alpha1.StorageBackend, ns string) string {
			return ns + "/" + rook.ClientName(sb)
		})},
		{&v1alpha1.StorageBackend{}, indexKeySecret, func(obj client.Object) []string {
			if ext := obj.(*v1alpha1.StorageBackend).Spec.CephFS.External; ext != nil {
				return []string{ext.KeySecretRef.Name}
			}
			return nil
		}},
		{&v1alpha1.HadoopCluster{}, indexStorageBackendRef, func(obj client.Object) []string {
			return []string{obj.(*v1alpha1.HadoopCluster).Spec.StorageBackendRef.Name}
		}},
		{&v1alpha1.HadoopCluster{}, indexNetworkAttachment, func(obj client.Object) []string {
			hc := obj.(*v1alpha1.HadoopCluster)
			out := make([]string, 0, len(hc.Spec.Network.Attachments))
			for _, a := range hc.Spec.Network.Attachments {
				out = append(out, attachmentKey(a, hc.Namespace))
			}
			return out
		}},
		{&v1alpha1.HadoopCluster{}, indexExtendedResource, func(obj client.Object) []string {
			hc := obj.(*v1alpha1.HadoopCluster)
			out := make([]string, 0, len(hc.Spec.Network.ExtendedResources))
			for _, d := range hc.Spec.Network.ExtendedResources {
				out = append(out, d.Name)
			}
			return out
		}},
	}
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
	// indexBenchmarkClusterRef: the HadoopCluster a BenchmarkRun runs on.
	indexBenchmarkClusterRef = "benchmarkrun.clusterRef"
	// indexBenchmarkBaselineRef: the BenchmarkRun a BenchmarkRun compares with.
	indexBenchmarkBaselineRef = "benchmarkrun.baselineRef"
)
