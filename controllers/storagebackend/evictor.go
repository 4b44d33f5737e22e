package storagebackend

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// The evictor is a second cephx client whose key only the eviction Jobs of
// HadoopClusters mount (controllers/hadoopcluster/evict.go). It is not part of Ready:
// Hadoop works without it, and a dead pod's files then wait for the MDS session
// timeout instead. Its phases run once Hadoop's own client config is written.

// reconcileRookEvictor applies the evictor's CephClient and renders its config
// Secret, or removes both when spec.cephFS.rook.evictDeadClients is false.
func (r *Reconciler) reconcileRookEvictor(ctx context.Context, p *pass, ns string, hadoopCfg cephconf.Config) error {
	sb := p.sb
	if !rook.EvictDeadClients(sb) {
		if err := r.removeEvictor(ctx, p, &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: rook.EvictorName(sb)}}); err != nil {
			return p.Failed(v1alpha1.ConditionEvictorReady, err)
		}
		p.False(v1alpha1.ConditionEvictorReady, v1alpha1.ReasonEvictionOff,
			"spec.cephFS.rook.evictDeadClients is false: the CephFS sessions of a Hadoop pod that dies without unmounting hold their files until the MDS session timeout")
		return nil
	}
	key, err := r.rookClientKey(ctx, p, rook.EvictorClient(sb, ns), rook.MutateEvictorClient, v1alpha1.ConditionEvictorReady,
		"delete it, or set spec.cephFS.rook.evictDeadClients to false")
	if err != nil {
		return p.Failed(v1alpha1.ConditionEvictorReady, err)
	}
	if key == "" {
		return nil
	}
	return r.writeEvictorConfig(ctx, p, hadoopCfg, rook.EvictorName(sb), key)
}

// reconcileExternalEvictor renders the config Secret of the evictor that
// spec.cephFS.external.evictor names, or removes it when none is named.
func (r *Reconciler) reconcileExternalEvictor(ctx context.Context, p *pass, hadoopCfg cephconf.Config) error {
	sb := p.sb
	ev := sb.Spec.CephFS.External.Evictor
	if ev == nil {
		if err := r.removeEvictor(ctx, p, nil); err != nil {
			return p.Failed(v1alpha1.ConditionEvictorReady, err)
		}
		p.False(v1alpha1.ConditionEvictorReady, v1alpha1.ReasonEvictionOff,
			"spec.cephFS.external.evictor names no client: the CephFS sessions of a Hadoop pod that dies without unmounting hold their files until the MDS session timeout")
		return nil
	}
	ref := client.ObjectKey{Namespace: sb.Namespace, Name: ev.KeySecretRef.Name}
	key, keyUnmet, err := r.readKey(ctx, ref, ev.KeySecretRef.Key)
	if err != nil {
		return p.Failed(v1alpha1.ConditionEvictorReady, err)
	}
	if keyUnmet != nil {
		p.False(v1alpha1.ConditionEvictorReady, keyUnmet.Reason, keyUnmet.Message+" (spec.cephFS.external.evictor.keySecretRef)")
		return nil
	}
	return r.writeEvictorConfig(ctx, p, hadoopCfg, ev.ClientID, key)
}

// writeEvictorConfig renders the evictor's config Secret: Hadoop's monitors and file
// system, the evictor's id and key.
func (r *Reconciler) writeEvictorConfig(ctx context.Context, p *pass, hadoopCfg cephconf.Config, clientID, key string) error {
	sb := p.sb
	cfg := hadoopCfg
	cfg.ClientID, cfg.Key = clientID, key
	desired := cephconf.EvictionSecret(sb, cfg)
	written, err := r.writeConfigSecret(ctx, sb, desired, clientID)
	if err != nil {
		return p.Failed(v1alpha1.ConditionEvictorReady, err)
	}
	ref := "Secret " + desired.Namespace + "/" + desired.Name
	if !written {
		p.False(v1alpha1.ConditionEvictorReady, v1alpha1.ReasonClientConfigSecretConflict,
			ref+" exists and is not controlled by this StorageBackend; it is left untouched: delete or rename it")
		return nil
	}
	sb.Status.EvictionClientID = clientID
	sb.Status.EvictionSecret = desired.Name
	p.True(v1alpha1.ConditionEvictorReady, v1alpha1.ReasonReconciled,
		fmt.Sprintf("client.%s evicts the CephFS sessions of dead Hadoop pods; its config is in %s", clientID, ref))
	return nil
}

// removeEvictor deletes the evictor's config Secret and, if given, its CephClient,
// when this StorageBackend made them.
func (r *Reconciler) removeEvictor(ctx context.Context, p *pass, cc *cephv1.CephClient) error {
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: p.sb.Namespace, Name: cephconf.EvictionSecretName(p.sb.Name)}}
	existing := &metav1.PartialObjectMetadata{}
	existing.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	err := r.Get(ctx, client.ObjectKeyFromObject(secret), existing)
	switch {
	case apierrors.IsNotFound(err):
	case err != nil:
		return fmt.Errorf("reading Secret %s/%s: %w", secret.Namespace, secret.Name, err)
	case metav1.IsControlledBy(existing, p.sb):
		if err := r.Delete(ctx, secret); client.IgnoreNotFound(err) != nil {
			return fmt.Errorf("deleting Secret %s/%s: %w", secret.Namespace, secret.Name, err)
		}
	}
	if cc == nil || !r.APIs.Rook {
		return nil
	}
	ref := r.describe(cc)
	if err := r.Get(ctx, client.ObjectKeyFromObject(cc), cc); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !rook.OwnedBy(cc, p.sb) || naming.DoNotReconcile(cc) || !cc.DeletionTimestamp.IsZero() {
		return nil
	}
	if err := r.Delete(ctx, cc); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("deleting %s: %w", ref, err)
	}
	r.Events.Normal(p.sb, cc, v1alpha1.EventReasonDeleted, "Delete", "Deleted "+ref+" because spec.cephFS.rook.evictDeadClients is false")
	return nil
}

// evictorLacksConfig keeps EvictorReady from saying True in a pass that stopped
// before the evictor's phase, since the status then names no eviction Secret.
func evictorLacksConfig(p *pass) {
	if p.sb.Status.EvictionSecret != "" {
		return
	}
	for _, c := range p.sb.Status.Conditions {
		if c.Type == v1alpha1.ConditionEvictorReady && c.Status == metav1.ConditionTrue {
			p.Lacks(v1alpha1.ConditionEvictorReady, lifecycle.Dependency(v1alpha1.ConditionClientConfigReady))
		}
	}
}
