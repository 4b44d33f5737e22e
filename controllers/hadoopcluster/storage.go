package hadoopcluster

import (
	"context"
	"errors"
	"fmt"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/storage"
)

// reconcileStorage resolves the cluster's storage and says on StorageReady whether it is
// usable; a Rook network that cannot be read is NetworkReady's to report.
func (r *Reconciler) reconcileStorage(ctx context.Context, p *clusterPass) (storage.Resolved, error) {
	resolver := storage.Resolver{Client: r.Client, APIReader: r.APIReader, DefaultRookNamespace: r.RookNamespace, RookServed: r.APIs.Rook}
	res, err := resolver.Resolve(ctx, p.hc)
	var network storage.NetworkError
	if err != nil && !errors.As(err, &network) {
		return res, p.Failed(v1alpha1.ConditionStorageReady, err)
	}
	if res.Unmet != nil {
		p.Lacks(v1alpha1.ConditionStorageReady, *res.Unmet)
		return res, nil
	}
	st := res.Backend.Status
	if st.HDFS != nil {
		p.True(v1alpha1.ConditionStorageReady, v1alpha1.ReasonReconciled,
			fmt.Sprintf("StorageBackend %s is ready: HDFS %s, client configuration in ConfigMap %s", res.Backend.Name, st.HDFS.DefaultFS, st.ClientConfigMap))
		return res, nil
	}
	p.True(v1alpha1.ConditionStorageReady, v1alpha1.ReasonReconciled,
		fmt.Sprintf("StorageBackend %s is ready: CephFS %s at %s as client.%s, client config in Secret %s", res.Backend.Name, st.FilesystemName, st.RootPath, st.ClientID, st.ClientConfigSecret))
	if err != nil {
		return res, p.Failed(v1alpha1.ConditionNetworkReady, network.Err)
	}
	return res, nil
}
