package storagebackend

import (
	"context"
	"fmt"

	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// reconcileExternal renders the client config of a Ceph cluster this operator does not
// manage. Only the key Secret is read: the file system, root and client are the
// external cluster administrator's, as the spec describes them.
func (r *Reconciler) reconcileExternal(ctx context.Context, p *pass) error {
	sb := p.sb
	ext := sb.Spec.CephFS.External
	st := &sb.Status
	st.Mode = v1alpha1.StorageBackendModeExternal
	st.FilesystemName = ext.FilesystemName
	st.RootPath = ext.RootPath
	st.ClientID = ext.ClientID
	st.Monitors = ext.Monitors
	st.DataPools = rook.ExternalDataPools(ext)
	st.RawOverhead = rook.HadoopRawOverhead(st.DataPools)
	p.True(v1alpha1.ConditionFilesystemReady, v1alpha1.ReasonExternal,
		fmt.Sprintf("file system %s of an external Ceph cluster, used as described: the operator does not manage it", ext.FilesystemName))

	ref := client.ObjectKey{Namespace: sb.Namespace, Name: ext.KeySecretRef.Name}
	key, keyUnmet, err := r.readKey(ctx, ref, ext.KeySecretRef.Key)
	if err != nil {
		return p.Failed(v1alpha1.ConditionClientReady, err)
	}
	if keyUnmet != nil {
		p.False(v1alpha1.ConditionClientReady, keyUnmet.Reason, keyUnmet.Message+" (spec.cephFS.external.keySecretRef)")
		return r.reportClientConfig(ctx, p, lifecycle.Dependency(v1alpha1.ConditionClientReady))
	}
	p.True(v1alpha1.ConditionClientReady, v1alpha1.ReasonExternal,
		fmt.Sprintf("key of client.%s read from Secret %s", ext.ClientID, ref))

	dataPool := ""
	if ext.DataPool != nil {
		dataPool = ext.DataPool.Name
	}
	cfg := cephconf.Config{
		Monitors:   ext.Monitors,
		ClientID:   ext.ClientID,
		Key:        key,
		Filesystem: ext.FilesystemName,
		RootPath:   ext.RootPath,
		DataPool:   dataPool,
	}
	if err := r.reconcileClientConfig(ctx, p, cfg); err != nil {
		return err
	}
	return r.reconcileExternalEvictor(ctx, p, cfg)
}
