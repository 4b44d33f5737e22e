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
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hdfs"
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
	existing := &corev1.Secret{}
	return r.writeRendered(ctx, sb, "Secret", desired, existing, func() { existing.Data = desired.Data },
		"ceph.conf and keyring for client."+clientID)
}

// writeRendered creates desired, an object sb renders (a client config Secret or
// ConfigMap), or brings existing, read into by name, to its content with take. It
// reports false, and leaves the object alone, when one of that name exists that sb
// does not control. what names the content in the events.
func (r *Reconciler) writeRendered(ctx context.Context, sb *v1alpha1.StorageBackend, kind string, desired, existing client.Object, take func(), what string) (bool, error) {
	if err := controllerutil.SetControllerReference(sb, desired, r.Scheme); err != nil {
		return false, err
	}
	hash := desired.GetAnnotations()[cephconf.HashAnnotation]
	ref := kind + " " + desired.GetNamespace() + "/" + desired.GetName()

	// The cache holds Secrets and ConfigMaps as metadata only; the content comes from
	// the API server.
	err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(desired), existing)
	switch {
	case apierrors.IsNotFound(err):
		if err := r.Create(ctx, desired); err != nil {
			return false, fmt.Errorf("creating %s: %w", ref, err)
		}
		r.Events.Normal(sb, nil, v1alpha1.EventReasonClientConfigRendered, "Render",
			fmt.Sprintf("Rendered %s into %s (hash %s)", what, ref, hash))
	case err != nil:
		return false, fmt.Errorf("reading %s: %w", ref, err)
	case !metav1.IsControlledBy(existing, sb):
		return false, nil
	default:
		before := existing.DeepCopyObject().(client.Object)
		oldHash := existing.GetAnnotations()[cephconf.HashAnnotation]
		take()
		existing.SetLabels(merged(existing.GetLabels(), desired.GetLabels()))
		existing.SetAnnotations(merged(existing.GetAnnotations(), desired.GetAnnotations()))
		if !equality.Semantic.DeepEqual(before, existing) {
			if err := r.Patch(ctx, existing, client.MergeFrom(before)); err != nil {
				return false, fmt.Errorf("updating %s: %w", ref, err)
			}
			r.Events.Normal(sb, nil, v1alpha1.EventReasonClientConfigRendered, "Render",
				fmt.Sprintf("Re-rendered %s in %s (hash %s, was %s)", what, ref, hash, oldHash))
		}
	}
	return true, nil
}

// reportClientConfig is the client config phase of a pass that lacks an input: it
// leaves the client config (the Secret, or an HDFS backend's ConfigMap) as it is, so
// consumers keep working with the last one, and reports it, if it exists, together
// with what is missing.
func (r *Reconciler) reportClientConfig(ctx context.Context, p *pass, missing lifecycle.Unmet) error {
	st := &p.sb.Status
	kind, name, field := "Secret", cephconf.SecretName(p.sb.Name), &st.ClientConfigSecret
	if p.sb.Spec.HDFS != nil {
		kind, name, field = "ConfigMap", hdfs.ConfigMapName(p.sb.Name), &st.ClientConfigMap
	}
	key := client.ObjectKey{Namespace: p.sb.Namespace, Name: name}
	obj := &metav1.PartialObjectMetadata{}
	obj.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind(kind))
	err := r.Get(ctx, key, obj)
	switch {
	case err == nil && metav1.IsControlledBy(obj, p.sb):
		*field = obj.Name
		st.ClientConfigHash = obj.Annotations[cephconf.HashAnnotation]
	case err != nil && !apierrors.IsNotFound(err):
		return p.Failed(v1alpha1.ConditionClientConfigReady, fmt.Errorf("reading %s %s: %w", kind, key, err))
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
