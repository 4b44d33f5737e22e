package controllers

import (
	"fmt"
	"slices"
	"strings"

	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// defaultRookNamespace is the manager's --rook-namespace in the suite. Specs name their
// own Rook namespaces so they stay independent; this one is never created.
const defaultRookNamespace = "rook-ceph-default"

// Well-formed cephx keys (type AES, a creation time, a 16-byte secret).
const (
	testKey    = "AQAA8VNlAAAAABAAAQIDBAUGBwgJCgsMDQ4PEA=="
	rotatedKey = "AQCdWgJrk7MOIBAA6RsEQv5cjPT4dj2YVpnnZA=="
)

func namespace(name string) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

// createNamespace creates a namespace with a fresh name and returns the name.
func createNamespace(prefix string) string {
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"}}
	Expect(k8sClient.Create(ctx, ns)).To(Succeed())
	return ns.Name
}

// createCephCluster creates the CephCluster Rook would run in ns. It is written
// unstructured so that only the fields a user would set are sent.
func createCephCluster(ns string) {
	cluster := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "ceph.rook.io/v1",
		"kind":       "CephCluster",
		"metadata":   map[string]any{"name": "rook-ceph", "namespace": ns},
		"spec": map[string]any{
			"dataDirHostPath": "/var/lib/rook",
			"cephVersion":     map[string]any{"image": "quay.io/ceph/ceph:v19"},
			"mon":             map[string]any{"count": int64(3)},
		},
	}}
	Expect(k8sClient.Create(ctx, cluster)).To(Succeed())
}

// publishMons writes Rook's mon endpoints ConfigMap in ns.
func publishMons(ns, data string) {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: rook.MonEndpointsConfigMap}}
	Expect(client.IgnoreNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(cm), cm))).To(Succeed())
	cm.Data = map[string]string{rook.MonEndpointsKey: data, "maxMonId": "2", "mapping": "{}"}
	if cm.ResourceVersion == "" {
		Expect(k8sClient.Create(ctx, cm)).To(Succeed())
		return
	}
	Expect(k8sClient.Update(ctx, cm)).To(Succeed())
}

// rookCluster creates a Rook namespace with a CephCluster and three monitors.
func rookCluster() string {
	ns := createNamespace("rook")
	createCephCluster(ns)
	publishMons(ns, "b=10.0.0.2:6789,a=10.0.0.1:6789,c=10.0.0.3:6789")
	return ns
}

// newRookBackend is a Rook-mode StorageBackend in ns using the Rook namespace rookNs.
func newRookBackend(ns, name, rookNs string, mutate ...func(*v1alpha1.RookCephFS)) *v1alpha1.StorageBackend {
	sb := &v1alpha1.StorageBackend{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{Rook: &v1alpha1.RookCephFS{
			Namespace:      rookNs,
			FilesystemName: "hadoopfs",
		}}},
	}
	for _, m := range mutate {
		m(sb.Spec.CephFS.Rook)
	}
	return sb
}

// setPhase plays Rook reporting phase on one of its objects.
func setPhase(obj client.Object, phase cephv1.ConditionType) {
	Eventually(func(g Gomega) {
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)).To(Succeed())
		switch o := obj.(type) {
		case *cephv1.CephFilesystem:
			o.Status = &cephv1.CephFilesystemStatus{Phase: phase}
		case *cephv1.CephFilesystemSubVolumeGroup:
			o.Status = &cephv1.CephFilesystemSubVolumeGroupStatus{Phase: phase}
		case *cephv1.CephClient:
			secret := rook.ClientSecretName(o.Name)
			o.Status = &cephv1.CephClientStatus{Phase: phase, Info: map[string]string{"secretName": secret}}
		}
		g.Expect(k8sClient.Status().Update(ctx, obj)).To(Succeed())
	}).Should(Succeed())
}

// writeClientSecret plays Rook writing the key of CephClient name into its Secret.
func writeClientSecret(ns, name, key string) {
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: rook.ClientSecretName(name)}}
	Expect(client.IgnoreNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(secret), secret))).To(Succeed())
	secret.Data = map[string][]byte{name: []byte(key), rook.ClientSecretIDKey: []byte(name), rook.ClientSecretKeyKey: []byte(key)}
	if secret.ResourceVersion == "" {
		Expect(k8sClient.Create(ctx, secret)).To(Succeed())
		return
	}
	Expect(k8sClient.Update(ctx, secret)).To(Succeed())
}

// playRook waits for the operator's Rook objects of a backend and makes them ready,
// as Rook would on a healthy cluster.
func playRook(sb *v1alpha1.StorageBackend, rookNs string) {
	spec := sb.Spec.CephFS.Rook
	objs := []client.Object{
		&cephv1.CephFilesystemSubVolumeGroup{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.SubVolumeGroupName(spec.FilesystemName, rook.SubVolumeGroup(rootPath(sb)))}},
		&cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: rook.ClientName(sb)}},
	}
	if !spec.AdoptExisting {
		objs = append(objs, &cephv1.CephFilesystem{ObjectMeta: metav1.ObjectMeta{Namespace: rookNs, Name: spec.FilesystemName}})
	}
	for _, obj := range objs {
		Eventually(get(obj)).Should(Succeed())
		setPhase(obj, cephv1.ConditionReady)
	}
	writeClientSecret(rookNs, rook.ClientName(sb), testKey)
}

// rootPath is the backend's root as the API server defaulted it.
func rootPath(sb *v1alpha1.StorageBackend) string {
	if sb.Spec.CephFS.Rook.RootPath == "" {
		return "/volumes/hadoop"
	}
	return sb.Spec.CephFS.Rook.RootPath
}

func get(obj client.Object) func() error {
	return func() error { return k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj) }
}

// gone succeeds once obj no longer exists.
func gone(obj client.Object) func() error {
	return func() error {
		err := k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), obj)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("%s still exists", obj.GetName())
	}
}

// clientConfig reads the client config Secret of sb as strings.
func clientConfig(sb *v1alpha1.StorageBackend) func(Gomega) map[string]string {
	return func(g Gomega) map[string]string {
		secret := &corev1.Secret{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: sb.Namespace, Name: sb.Name + "-ceph-client"}, secret)).To(Succeed())
		out := map[string]string{}
		for k, v := range secret.Data {
			out[k] = string(v)
		}
		return out
	}
}

// object is one of the operator's kinds.
type object interface {
	*v1alpha1.StorageBackend | *v1alpha1.HadoopCluster | *v1alpha1.BenchmarkRun
	client.Object
}

// fresh reads obj as the API server has it now, for assertions.
func fresh[T object](obj T) func(Gomega) T {
	return func(g Gomega) T {
		out := obj.DeepCopyObject().(T)
		g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(obj), out)).To(Succeed())
		return out
	}
}

// conditionsOf reads the status conditions of one of the operator's objects.
func conditionsOf[T object](g Gomega, obj T) []metav1.Condition {
	switch o := any(fresh(obj)(g)).(type) {
	case *v1alpha1.StorageBackend:
		return o.Status.Conditions
	case *v1alpha1.HadoopCluster:
		return o.Status.Conditions
	case *v1alpha1.BenchmarkRun:
		return o.Status.Conditions
	}
	return nil
}

// condition reads one condition of obj as "Status/Reason", or "" when absent.
func condition[T object](obj T, conditionType string) func(Gomega) string {
	return func(g Gomega) string {
		c := meta.FindStatusCondition(conditionsOf(g, obj), conditionType)
		if c == nil {
			return ""
		}
		return string(c.Status) + "/" + c.Reason
	}
}

// conditionMessage reads the message of one condition of obj.
func conditionMessage[T object](obj T, conditionType string) func(Gomega) string {
	return func(g Gomega) string {
		c := meta.FindStatusCondition(conditionsOf(g, obj), conditionType)
		g.Expect(c).NotTo(BeNil())
		return c.Message
	}
}

// events lists "<type>/<reason>" of the events about obj, each once, oldest first.
func events[T object](obj T) func(Gomega) []string {
	return func(g Gomega) []string {
		gvk, err := apiutil.GVKForObject(obj, k8sClient.Scheme())
		g.Expect(err).NotTo(HaveOccurred())
		list := &eventsv1.EventList{}
		g.Expect(k8sClient.List(ctx, list, client.InNamespace(obj.GetNamespace()))).To(Succeed())
		slices.SortStableFunc(list.Items, func(a, b eventsv1.Event) int { return a.CreationTimestamp.Compare(b.CreationTimestamp.Time) })
		var out []string
		for _, e := range list.Items {
			if e.Regarding.Kind == gvk.Kind && e.Regarding.Name == obj.GetName() && !slices.Contains(out, e.Type+"/"+e.Reason) {
				out = append(out, e.Type+"/"+e.Reason)
			}
		}
		return out
	}
}

// eventReasons lists the reasons of the events about obj, each once, oldest first.
func eventReasons[T object](obj T) func(Gomega) []string {
	return func(g Gomega) []string {
		var out []string
		for _, e := range events(obj)(g) {
			if _, reason, _ := strings.Cut(e, "/"); !slices.Contains(out, reason) {
				out = append(out, reason)
			}
		}
		return out
	}
}
