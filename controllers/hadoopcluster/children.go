package hadoopcluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// FieldOwner is the field manager the operator applies a cluster's children as.
const FieldOwner = "hadoop-ceph-operator"

// reconcileChildren builds the cluster's children and applies them in the builders'
// order. Without storage, or with a spec that cannot be built, nothing is changed: a
// running cluster keeps its last good objects, and ConfigReady says why.
func (r *Reconciler) reconcileChildren(ctx context.Context, p *clusterPass, storage *hadoop.Storage) error {
	hc := p.hc
	if storage == nil {
		p.Lacks(v1alpha1.ConditionConfigReady, lifecycle.Dependency(v1alpha1.ConditionStorageReady))
		return r.reportUnchangedConfig(ctx, p)
	}
	if err := r.planNodeManagers(ctx, p); err != nil {
		return p.Failed(v1alpha1.ConditionNodeManagersReady, err)
	}
	// reconcileNetwork has just recorded the devices the NetworkAttachmentDefinitions
	// name, from which the BenchmarkRun controller builds its stage pods too.
	objs, err := hadoop.Build(hadoop.Input{Cluster: hc, Storage: *storage, Decommission: p.nodeManagers.Decommission,
		AttachmentResources: hc.Status.Network.AttachmentResources,
		Defaults:            hadoop.Defaults{Image: r.HadoopImage, Operator: r.OperatorPeer}})
	if err != nil {
		// Only a spec change can fix this, and that brings a new pass: no requeue.
		p.False(v1alpha1.ConditionConfigReady, v1alpha1.ReasonInvalidSpec, err.Error()+"; the cluster's objects stay as they are until this is fixed")
		return r.reportUnchangedConfig(ctx, p)
	}
	p.built = objs

	var conflicts []string
	clientObjects := 0
	for _, obj := range objs.List() {
		outcome, err := r.applyChild(ctx, p, obj)
		if err != nil {
			return p.Failed(conditionOf(obj), err)
		}
		switch {
		case outcome == childConflict:
			conflicts = append(conflicts, r.describe(obj))
		case outcome == childApplied && obj == client.Object(objs.ConfigMap):
			// The cache may not have seen this pass's write yet.
			hc.Status.ConfigHash = objs.ConfigHash
		}
		if outcome != childConflict && (obj == client.Object(objs.ClientConfigMap) || obj == client.Object(objs.ClientPodTemplate)) {
			clientObjects++
		}
	}
	if clientObjects == 2 {
		hc.Status.Client = clientStatus(objs, storage)
	}
	if err := r.refreshSchedulerFiles(ctx, p, objs.ConfigMap); err != nil {
		return p.Failed(v1alpha1.ConditionResourceManagerReady, err)
	}
	if len(conflicts) == 0 {
		if err := r.replacePods(ctx, p); err != nil {
			return p.Failed(v1alpha1.ConditionNodeManagersReady, err)
		}
	}
	if objs.JobHistory == nil {
		if err := r.removeJobHistory(ctx, p); err != nil {
			return p.Failed(v1alpha1.ConditionJobHistoryReady, err)
		}
	}
	if len(objs.NetworkPolicies) == 0 {
		if err := r.removeNetworkPolicies(ctx, p); err != nil {
			return p.Failed(v1alpha1.ConditionConfigReady, err)
		}
	}
	if hc.Status.ConfigHash == "" {
		if err := r.reportConfigHash(ctx, p); err != nil {
			return err
		}
	}
	if len(conflicts) > 0 {
		p.False(v1alpha1.ConditionConfigReady, v1alpha1.ReasonChildConflict,
			strings.Join(conflicts, ", ")+" already exist and are not controlled by this HadoopCluster; they are left untouched: delete them, or give the cluster another name")
		return nil
	}
	p.True(v1alpha1.ConditionConfigReady, v1alpha1.ReasonReconciled,
		fmt.Sprintf("ConfigMap %s holds the Hadoop configuration (hash %s)", objs.ConfigMap.Name, objs.ConfigHash))
	return nil
}

// childOutcome is what became of one desired child.
type childOutcome int

const (
	childApplied childOutcome = iota
	// childKept: the object opted out of reconciliation and was left as it is.
	childKept
	// childConflict: an object of the child's name is not the cluster's; it was left
	// untouched.
	childConflict
	// childReplacing: the object is being deleted to be created anew; a later pass
	// creates it.
	childReplacing
)

// applyChild applies one child unless an object of its name is not the cluster's or
// opted out of reconciliation.
func (r *Reconciler) applyChild(ctx context.Context, p *clusterPass, desired client.Object) (childOutcome, error) {
	existing, err := r.currentChild(ctx, desired)
	if err != nil {
		return 0, err
	}
	if existing != nil {
		if !metav1.IsControlledBy(existing, p.hc) {
			return childConflict, nil
		}
		if naming.DoNotReconcile(existing) {
			log.FromContext(ctx).V(1).Info("leaving a child labelled do-not-reconcile as it is", "object", r.describe(desired))
			if sts, ok := existing.(*appsv1.StatefulSet); ok {
				p.statefulSets[sts.Name] = sts
			}
			return childKept, nil
		}
		if replacing, err := r.replaceStatefulSet(ctx, p, existing, desired); err != nil || replacing {
			return childReplacing, err
		}
	}
	if err := controllerutil.SetControllerReference(p.hc, desired, r.Scheme); err != nil {
		return 0, err
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(desired)
	if err != nil {
		return 0, fmt.Errorf("converting %s: %w", r.describe(desired), err)
	}
	config := applyConfiguration(content)
	hash, err := configHash(config)
	if err != nil {
		return 0, fmt.Errorf("hashing %s: %w", r.describe(desired), err)
	}
	cluster, child := client.ObjectKeyFromObject(p.hc), r.describe(desired)
	if existing != nil && r.applied.unchanged(cluster, child, hash, existing.GetResourceVersion()) {
		if sts, ok := existing.(*appsv1.StatefulSet); ok {
			p.statefulSets[sts.Name] = sts
		}
		return childApplied, nil
	}

	applied, err := r.apply(ctx, config, child)
	if err != nil {
		return 0, err
	}
	r.applied.remember(cluster, child, hash, applied.GetResourceVersion())
	if _, ok := desired.(*appsv1.StatefulSet); ok {
		sts := &appsv1.StatefulSet{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(applied.Object, sts); err != nil {
			return 0, fmt.Errorf("reading back %s: %w", child, err)
		}
		p.statefulSets[sts.Name] = sts
	}
	return childApplied, nil
}

// apply writes an object, given as its apply configuration, with server-side apply
// as FieldOwner, and returns the object as stored.
//
// Server-side apply rather than a diff against the cache: the API server fills
// defaults into what the builders leave out (probe thresholds, termination message
// paths, protocols and cluster IPs, PVC template status, ...), so a built object never
// equals the stored one, and updating from a comparison would write on every pass. An
// apply sends only the fields the operator sets; the server merges them, and when that
// changes nothing it stores nothing: the resourceVersion stays and no watch event
// follows. Fields the operator stops setting are removed, fields others own are kept,
// and ForceOwnership takes back a field someone changed by hand. applyMemory then
// spares the request itself for objects nobody touched since.
func (r *Reconciler) apply(ctx context.Context, config map[string]any, ref string) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{Object: config}
	if err := r.Apply(ctx, client.ApplyConfigurationFromUnstructured(u), client.FieldOwner(FieldOwner), client.ForceOwnership); err != nil {
		return nil, fmt.Errorf("applying %s: %w", ref, err)
	}
	return u, nil
}

// applyMemory remembers, per cluster and child, the hash of the configuration last
// applied and the resourceVersion the API server answered with. A child whose cached
// resourceVersion is still that one has not been written since, by anyone; if the
// configuration is also the same, applying it again would change nothing, and the
// pass skips the request. A pass that starts with an empty memory, after a restart,
// applies everything once.
type applyMemory struct {
	mu      sync.Mutex
	applied map[client.ObjectKey]map[string]applyRecord
}

type applyRecord struct{ hash, resourceVersion string }

func (m *applyMemory) unchanged(cluster client.ObjectKey, child, hash, resourceVersion string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	rec, ok := m.applied[cluster][child]
	return ok && rec.hash == hash && rec.resourceVersion == resourceVersion
}

func (m *applyMemory) remember(cluster client.ObjectKey, child, hash, resourceVersion string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.applied == nil {
		m.applied = map[client.ObjectKey]map[string]applyRecord{}
	}
	if m.applied[cluster] == nil {
		m.applied[cluster] = map[string]applyRecord{}
	}
	m.applied[cluster][child] = applyRecord{hash, resourceVersion}
}

// forget drops what was applied for a cluster that is gone.
func (m *applyMemory) forget(cluster client.ObjectKey) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.applied, cluster)
}

// configHash identifies an apply configuration; encoding/json sorts map keys, so equal
// configurations hash equally.
func configHash(config map[string]any) (string, error) {
	data, err := json.Marshal(config)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// applyConfiguration trims a built object to the fields the operator means to own: no
// status (the API server ignores it on the main resource and would otherwise record
// an owner for the empty PVC template status) and no null values, which the Go types
// produce for unset timestamps.
func applyConfiguration(obj map[string]any) map[string]any {
	delete(obj, "status")
	if templates, ok, _ := unstructured.NestedSlice(obj, "spec", "volumeClaimTemplates"); ok {
		for _, t := range templates {
			if m, ok := t.(map[string]any); ok {
				delete(m, "status")
			}
		}
		_ = unstructured.SetNestedSlice(obj, templates, "spec", "volumeClaimTemplates")
	}
	return withoutNulls(obj).(map[string]any)
}

func withoutNulls(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
				continue
			}
			v[k] = withoutNulls(e)
		}
	case []any:
		for i, e := range v {
			v[i] = withoutNulls(e)
		}
	}
	return v
}

// currentChild reads the object of desired's name from the cache: StatefulSets whole,
// whose status the cluster's reports, everything else as metadata, which is all the
// operator watches of them.
func (r *Reconciler) currentChild(ctx context.Context, desired client.Object) (client.Object, error) {
	var current client.Object
	if _, ok := desired.(*appsv1.StatefulSet); ok {
		current = &appsv1.StatefulSet{}
	} else {
		m := &metav1.PartialObjectMetadata{}
		m.SetGroupVersionKind(desired.GetObjectKind().GroupVersionKind())
		current = m
	}
	if err := r.Get(ctx, client.ObjectKeyFromObject(desired), current); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("reading %s: %w", r.describe(desired), err)
	}
	return current, nil
}

// removeJobHistory deletes the JobHistory server's StatefulSet and Service of a
// cluster that disabled it. Its history stays on CephFS for when it is enabled again.
func (r *Reconciler) removeJobHistory(ctx context.Context, p *clusterPass) error {
	meta := metav1.ObjectMeta{Namespace: p.hc.Namespace, Name: hadoop.JobHistoryName(p.hc)}
	headless := metav1.ObjectMeta{Namespace: p.hc.Namespace, Name: hadoop.HeadlessServiceName(p.hc, hadoop.JobHistory)}
	return r.removeChildren(ctx, p, "spec.jobHistory.enabled is false; the job history stays on CephFS",
		&appsv1.StatefulSet{TypeMeta: metav1.TypeMeta{APIVersion: "apps/v1", Kind: "StatefulSet"}, ObjectMeta: meta},
		&corev1.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: meta},
		&corev1.Service{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Service"}, ObjectMeta: headless},
	)
}

// removeChildren deletes objs as removeChild does and records one Deleted event that
// names those it deleted and says why.
func (r *Reconciler) removeChildren(ctx context.Context, p *clusterPass, because string, objs ...client.Object) error {
	var removed []string
	for _, obj := range objs {
		deleted, err := r.removeChild(ctx, p, obj)
		if err != nil {
			return err
		}
		if deleted {
			removed = append(removed, r.describe(obj))
		}
	}
	if len(removed) > 0 {
		r.Events.Normal(p.hc, nil, v1alpha1.EventReasonDeleted, "Delete", "Deleted "+strings.Join(removed, ", ")+" because "+because)
	}
	return nil
}

// removeChild deletes the object of obj's kind and name when the cluster controls it
// and it has not opted out of reconciliation, and says whether it did.
func (r *Reconciler) removeChild(ctx context.Context, p *clusterPass, obj client.Object) (bool, error) {
	existing, err := r.currentChild(ctx, obj)
	if err != nil {
		return false, err
	}
	if existing == nil || !metav1.IsControlledBy(existing, p.hc) || naming.DoNotReconcile(existing) {
		return false, nil
	}
	err = r.Delete(ctx, existing, client.Preconditions{UID: ptr.To(existing.GetUID())})
	if err != nil && !apierrors.IsNotFound(err) {
		return false, fmt.Errorf("deleting %s: %w", r.describe(obj), err)
	}
	return true, nil
}

// reportConfigHash sets status.configHash from the configuration ConfigMap as it
// exists, whether or not this pass applied it.
func (r *Reconciler) reportConfigHash(ctx context.Context, p *clusterPass) error {
	cm := &metav1.PartialObjectMetadata{}
	cm.SetGroupVersionKind(corev1.SchemeGroupVersion.WithKind("ConfigMap"))
	key := client.ObjectKey{Namespace: p.hc.Namespace, Name: hadoop.ConfigMapName(p.hc)}
	switch err := r.Get(ctx, key, cm); {
	case apierrors.IsNotFound(err):
	case err != nil:
		return p.Failed(v1alpha1.ConditionConfigReady, fmt.Errorf("reading ConfigMap %s: %w", key, err))
	case metav1.IsControlledBy(cm, p.hc):
		p.hc.Status.ConfigHash = cm.Annotations[hadoop.ConfigHashAnnotation]
	}
	return nil
}

// reportUnchangedConfig reports the configuration a pass that applies nothing leaves
// in place: the ConfigMap's hash, and the client objects as the last pass named them.
func (r *Reconciler) reportUnchangedConfig(ctx context.Context, p *clusterPass) error {
	p.hc.Status.Client = p.base.Status.Client
	return r.reportConfigHash(ctx, p)
}

// clientStatus names what a client of the cluster uses; the client config Secret is
// the StorageBackend's, shared with the cluster's own pods.
func clientStatus(objs *hadoop.Objects, storage *hadoop.Storage) v1alpha1.ClientStatus {
	st := v1alpha1.ClientStatus{ConfigMap: objs.ClientConfigMap.Name, PodTemplate: objs.ClientPodTemplate.Name}
	if storage.HDFS == nil {
		st.Secret = storage.ClientConfigSecret
	}
	return st
}

// conditionOf is the condition that reports a failure to apply obj: its component's,
// or ConfigReady for what the whole cluster shares.
func conditionOf(obj client.Object) string {
	if cond, ok := conditionFor(hadoop.Component(obj.GetLabels()[hadoop.LabelComponent])); ok {
		return cond
	}
	return v1alpha1.ConditionConfigReady
}

// describe names obj with its kind for messages; objects read through a client carry
// no kind of their own, so it comes from the scheme.
func (r *Reconciler) describe(obj client.Object) string {
	kind := "object"
	if gvk, err := apiutil.GVKForObject(obj, r.Scheme); err == nil {
		kind = gvk.Kind
	}
	return kind + " " + obj.GetNamespace() + "/" + obj.GetName()
}
