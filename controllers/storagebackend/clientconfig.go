package storagebackend

import (
	"context"
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
)

// reconcileClientConfig writes the client config Secret rendered from cfg when its
// content differs, and reports its name and hash.
func (r *Reconciler) reconcileClientConfig(ctx context.Context, p *pass, cfg cephconf.Config) error {
	sb := p.sb
	desired := cephconf.Secret(sb, cfg)
	ref := "Secret " + desired.Namespace + "/" + desired.Name
	written, err := r.writeConfigSecret(ctx, sb, desired, cfg.ClientID)
	if err != nil {
		return p.Failed(v1alpha1.ConditionClientConfigReady, err)
	}
	if !written {
		p.False(v1alpha1.ConditionClientConfigReady, v1alpha1.ReasonClientConfigSecretConflict,
			ref+" exists and is not controlled by this StorageBackend; it is left untouched: delete or rename it")
		return nil
	}
	sb.Status.ClientConfigSecret = desired.Name
	sb.Status.ClientConfigHash = desired.Annotations[cephconf.HashAnnotation]
	p.True(v1alpha1.ConditionClientConfigReady, v1alpha1.ReasonReconciled,
		fmt.Sprintf("%s holds ceph.conf and keyring for client.%s with %d monitor(s)", ref, cfg.ClientID, len(cfg.Monitors)))
	return nil
}

// writeConfigSecret creates desired, a client config Secret of sb, or brings the
// existing one to its content. It reports false, and leaves the Secret alone, when a
// Secret of that name exists that sb does not control.
func (r *Reconciler) writeConfigSecret(ctx context.Context, sb *v1alpha1.StorageBackend, desired *corev1.Secret, clientID string) (bool, error) {
	if err := controllerutil.SetControllerReference(sb, desired, r.Scheme); err != nil {
		return false, err
	}
	hash := desired.Annotations[cephconf.HashAnnotation]
	ref := "Secret " + desired.Namespace + "/" + desired.Name

	// The cache holds Secrets as metadata only; the content comes from the API server.
	existing := &corev1.Secret{}
	err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(desired), existing)
	switch {
	case apierrors.IsNotFound(err):
		if err := r.Create(ctx, desired); err != nil {
			return false, fmt.Errorf("creating %s: %w", ref, err)
		}
		r.event(sb, nil, v1alpha1.EventReasonClientConfigRendered, "Render",
			fmt.Sprintf("Rendered ceph.conf and keyring for client.%s into %s (hash %s)", clientID, ref, hash))
	case err != nil:
		return false, fmt.Errorf("reading %s: %w", ref, err)
	case !metav1.IsControlledBy(existing, sb):
		return false, nil
	default:
		before := existing.DeepCopy()
		oldHash := existing.Annotations[cephconf.HashAnnotation]
		existing.Data = desired.Data
		existing.Labels = merged(existing.Labels, desired.Labels)
		existing.Annotations = merged(existing.Annotations, desired.Annotations)
		if !equality.Semantic.DeepEqual(before, existing) {
			if err := r.Patch(ctx, existing, client.MergeFrom(before)); err != nil {
				return false, fmt.Errorf("updating %s: %w", ref, err)
			}
			r.event(sb, nil, v1alpha1.EventReasonClientConfigRendered, "Render",
				fmt.Sprintf("Re-rendered ceph.conf and keyring for client.%s in %s (hash %s, was %s)", clientID, ref, hash, oldHash))
		}
	}
	return true, nil
}

// reportClientConfig is the client config phase of a pass that lacks an input: it
// leaves the Secret as it is (consumers keep working with the last config) and reports
// that Secret, if it exists, together with what is missing.
func (r *Reconciler) reportClientConfig(ctx context.Context, p *pass, missing lifecycle.Unmet) error {
	key := client.ObjectKey{Namespace: p.sb.Namespace, Name: cephconf.SecretName(p.sb.Name)}
	secret := &metav1.PartialObjectMetadata{}
	secret.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("Secret"))
	err := r.Get(ctx, key, secret)
	switch {
	case err == nil && metav1.IsControlledBy(secret, p.sb):
		p.sb.Status.ClientConfigSecret = secret.Name
		p.sb.Status.ClientConfigHash = secret.Annotations[cephconf.HashAnnotation]
	case err != nil && !apierrors.IsNotFound(err):
		return p.Failed(v1alpha1.ConditionClientConfigReady, fmt.Errorf("reading Secret %s: %w", key, err))
	}
	p.Lacks(v1alpha1.ConditionClientConfigReady, missing)
	return nil
}

// merged is base with every entry of over set, as a new map.
func merged(base, over map[string]string) map[string]string {
	out := make(map[string]string, len(base)+len(over))
	maps.Copy(out, base)
	maps.Copy(out, over)
	return out
}
