package controllers

import (
	"encoding/json"
	"fmt"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// testImage is the Hadoop image of the specs' clusters, and the manager's default,
// which also runs the Job that empties a deleted backend's root.
const testImage = "registry.example.com/hadoopceph/hadoop:3.4.2"

// externalBackend creates an external StorageBackend named name in ns and, unless
// withoutKey, the Secret with its key, which is all it needs to become Ready.
func externalBackend(ns, name string, withoutKey bool) *v1alpha1.StorageBackend {
	sb := &v1alpha1.StorageBackend{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{External: &v1alpha1.ExternalCephFS{
			Monitors:       []string{"10.1.0.1:6789"},
			FilesystemName: "cephfs",
			ClientID:       "hadoop",
			KeySecretRef:   v1alpha1.SecretKeyRef{Name: name + "-key"},
			RootPath:       "/hadoop",
		}}},
	}
	Expect(k8sClient.Create(ctx, sb)).To(Succeed())
	if !withoutKey {
		writeKeySecret(ns, name+"-key")
	}
	return sb
}

func writeKeySecret(ns, name string) {
	Expect(k8sClient.Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Data:       map[string][]byte{"key": []byte(testKey)},
	})).To(Succeed())
}

// readyExternalBackend is an external StorageBackend that is Ready.
func readyExternalBackend(ns, name string) *v1alpha1.StorageBackend {
	sb := externalBackend(ns, name, false)
	Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
	return sb
}

// newCluster is a HadoopCluster in ns on backend, with the specs' image.
func newCluster(ns, name, backend string, mutate ...func(*v1alpha1.HadoopClusterSpec)) *v1alpha1.HadoopCluster {
	hc := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: v1alpha1.HadoopClusterSpec{
			StorageBackendRef: v1alpha1.LocalObjectReference{Name: backend},
			Image:             testImage,
		},
	}
	for _, m := range mutate {
		m(&hc.Spec)
	}
	return hc
}

// createCluster creates a HadoopCluster and returns it.
func createCluster(ns, name, backend string, mutate ...func(*v1alpha1.HadoopClusterSpec)) *v1alpha1.HadoopCluster {
	hc := newCluster(ns, name, backend, mutate...)
	Expect(k8sClient.Create(ctx, hc)).To(Succeed())
	return hc
}

// updateCluster changes hc's spec the way a user would, retrying on conflicts.
func updateCluster(hc *v1alpha1.HadoopCluster, change func(*v1alpha1.HadoopClusterSpec)) {
	Eventually(func(g Gomega) {
		current := fresh(hc)(g)
		change(&current.Spec)
		g.Expect(k8sClient.Update(ctx, current)).To(Succeed())
	}).Should(Succeed())
}

// clusterObjects are the children a cluster gets, JobHistory's included.
type clusterObjects struct {
	ServiceAccount          *corev1.ServiceAccount
	ConfigMap               *corev1.ConfigMap
	ClientConfigMap         *corev1.ConfigMap
	ClientPodTemplate       *corev1.PodTemplate
	Topology                *corev1.ConfigMap
	ResourceManager         *appsv1.StatefulSet
	ResourceManagerService  *corev1.Service
	ResourceManagerHeadless *corev1.Service
	NodeManagers            *appsv1.StatefulSet
	NodeManagerService      *corev1.Service
	NodeManagerPDB          *policyv1.PodDisruptionBudget
	JobHistory              *appsv1.StatefulSet
	JobHistoryService       *corev1.Service
	JobHistoryHeadless      *corev1.Service
}

// childrenOf names the children of hc; read them with get.
func childrenOf(hc *v1alpha1.HadoopCluster) *clusterObjects {
	in := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: hc.Namespace, Name: name} }
	return &clusterObjects{
		ServiceAccount:          &corev1.ServiceAccount{ObjectMeta: in(hadoop.ServiceAccountName(hc))},
		ConfigMap:               &corev1.ConfigMap{ObjectMeta: in(hadoop.ConfigMapName(hc))},
		ClientConfigMap:         &corev1.ConfigMap{ObjectMeta: in(hadoop.ClientConfigMapName(hc))},
		ClientPodTemplate:       &corev1.PodTemplate{ObjectMeta: in(hadoop.ClientPodTemplateName(hc))},
		Topology:                &corev1.ConfigMap{ObjectMeta: in(hadoop.TopologyConfigMapName(hc))},
		ResourceManager:         &appsv1.StatefulSet{ObjectMeta: in(hadoop.ResourceManagerName(hc))},
		ResourceManagerService:  &corev1.Service{ObjectMeta: in(hadoop.ResourceManagerName(hc))},
		ResourceManagerHeadless: &corev1.Service{ObjectMeta: in(hadoop.HeadlessServiceName(hc, hadoop.ResourceManager))},
		NodeManagers:            &appsv1.StatefulSet{ObjectMeta: in(hadoop.NodeManagerName(hc))},
		NodeManagerService:      &corev1.Service{ObjectMeta: in(hadoop.NodeManagerName(hc))},
		NodeManagerPDB:          &policyv1.PodDisruptionBudget{ObjectMeta: in(hadoop.NodeManagerName(hc))},
		JobHistory:              &appsv1.StatefulSet{ObjectMeta: in(hadoop.JobHistoryName(hc))},
		JobHistoryService:       &corev1.Service{ObjectMeta: in(hadoop.JobHistoryName(hc))},
		JobHistoryHeadless:      &corev1.Service{ObjectMeta: in(hadoop.HeadlessServiceName(hc, hadoop.JobHistory))},
	}
}

// All lists the children, JobHistory's last.
func (o *clusterObjects) All() []client.Object {
	return []client.Object{
		o.ServiceAccount, o.ConfigMap, o.ClientConfigMap, o.ClientPodTemplate, o.Topology, o.ResourceManagerService, o.ResourceManagerHeadless, o.ResourceManager,
		o.NodeManagerService, o.NodeManagers, o.NodeManagerPDB, o.JobHistoryService, o.JobHistoryHeadless, o.JobHistory,
	}
}

// StatefulSets lists the three StatefulSets.
func (o *clusterObjects) StatefulSets() []*appsv1.StatefulSet {
	return []*appsv1.StatefulSet{o.ResourceManager, o.NodeManagers, o.JobHistory}
}

// resourceVersions reads objs and returns their resourceVersions by name.
func resourceVersions(g Gomega, objs ...client.Object) map[string]string {
	out := map[string]string{}
	for _, obj := range objs {
		g.Expect(get(obj)()).To(Succeed())
		out[fmt.Sprintf("%T %s/%s", obj, obj.GetNamespace(), obj.GetName())] = obj.GetResourceVersion()
	}
	return out
}

// playStatefulSet plays the StatefulSet controller: all desired pods exist and run the
// current template, ready of them ready.
func playStatefulSet(sts *appsv1.StatefulSet, ready int32) {
	Eventually(func(g Gomega) {
		g.Expect(get(sts)()).To(Succeed())
		replicas := *sts.Spec.Replicas
		sts.Status = appsv1.StatefulSetStatus{
			ObservedGeneration: sts.Generation,
			Replicas:           replicas,
			ReadyReplicas:      ready,
			AvailableReplicas:  ready,
			CurrentReplicas:    replicas,
			UpdatedReplicas:    replicas,
			CurrentRevision:    sts.Name + "-1",
			UpdateRevision:     sts.Name + "-1",
		}
		g.Expect(k8sClient.Status().Update(ctx, sts)).To(Succeed())
	}).Should(Succeed())
}

// playAllReady makes every StatefulSet of hc report all its pods ready.
func playAllReady(hc *v1alpha1.HadoopCluster) {
	for _, sts := range childrenOf(hc).StatefulSets() {
		Eventually(get(sts)).Should(Succeed())
		playStatefulSet(sts, *sts.Spec.Replicas)
	}
}

// createMultusCephCluster creates, in a new namespace, the CephCluster of a Rook that
// puts Ceph's public network on Multus through the NetworkAttachmentDefinition
// public-net of that namespace, and publishes its monitors.
func createMultusCephCluster() string {
	ns := createNamespace("rook")
	cc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "ceph.rook.io/v1",
		"kind":       "CephCluster",
		"metadata":   map[string]any{"name": "rook-ceph", "namespace": ns},
		"spec": map[string]any{
			"dataDirHostPath": "/var/lib/rook",
			"cephVersion":     map[string]any{"image": "quay.io/ceph/ceph:v19"},
			"mon":             map[string]any{"count": int64(3)},
			"network": map[string]any{
				"provider":  "multus",
				"selectors": map[string]any{"public": "public-net"},
			},
		},
	}}
	Expect(k8sClient.Create(ctx, cc)).To(Succeed())
	publishMons(ns, "a=10.0.0.1:6789")
	return ns
}

// createNetworkAttachment creates a NetworkAttachmentDefinition, as a Multus admin
// would.
func createNetworkAttachment(ns, name string) {
	nad := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "k8s.cni.cncf.io/v1",
		"kind":       "NetworkAttachmentDefinition",
		"metadata":   map[string]any{"name": name, "namespace": ns},
		"spec":       map[string]any{"config": `{"cniVersion": "0.3.1", "type": "macvlan", "master": "eth1"}`},
	}}
	Expect(k8sClient.Create(ctx, nad)).To(Succeed())
}

// setAttachmentResource annotates a NetworkAttachmentDefinition with the extended
// resource whose devices carry its network, as an SR-IOV network's is; "" removes the
// annotation.
func setAttachmentResource(ns, name, resource string) {
	annotateAttachment(ns, name, hadoop.ResourceNameAnnotation, resource)
}

// setLinkRate annotates a NetworkAttachmentDefinition with the rate of its links, as
// whoever set the network up would.
func setLinkRate(ns, name, rate string) {
	annotateAttachment(ns, name, hadoop.LinkRateAnnotation, rate)
}

// annotateAttachment sets an annotation of a NetworkAttachmentDefinition; "" removes it.
func annotateAttachment(ns, name, key, text string) {
	var value any
	if text != "" {
		value = text
	}
	patch, err := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": map[string]any{key: value}}})
	Expect(err).NotTo(HaveOccurred())
	nad := &unstructured.Unstructured{}
	nad.SetGroupVersionKind(optionalapi.NetworkAttachmentGVK)
	nad.SetNamespace(ns)
	nad.SetName(name)
	Expect(k8sClient.Patch(ctx, nad, client.RawPatch(types.MergePatchType, patch))).To(Succeed())
}

// deviceCount reads "<request>/<limit>" of an extended resource in the first
// container of a pod template.
func deviceCount(pod *corev1.PodTemplateSpec, name string) string {
	r := pod.Spec.Containers[0].Resources
	request, limit := r.Requests[corev1.ResourceName(name)], r.Limits[corev1.ResourceName(name)]
	return request.String() + "/" + limit.String()
}

// statefulSetDevices reads deviceCount of a StatefulSet's pods as the API server has it.
func statefulSetDevices(sts *appsv1.StatefulSet, name string) func(Gomega) string {
	return func(g Gomega) string {
		g.Expect(get(sts)()).To(Succeed())
		return deviceCount(&sts.Spec.Template, name)
	}
}

// offerDevices makes a node that offers count of each resource, for the rest of the
// spec.
func offerDevices(name string, count int64, resources ...string) {
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
	Expect(k8sClient.Create(ctx, node)).To(Succeed())
	DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, node))).To(Succeed()) })
	Eventually(func(g Gomega) {
		g.Expect(get(node)()).To(Succeed())
		node.Status.Allocatable = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("32")}
		for _, r := range resources {
			node.Status.Allocatable[corev1.ResourceName(r)] = *resource.NewQuantity(count, resource.DecimalSI)
		}
		node.Status.Capacity = node.Status.Allocatable
		g.Expect(k8sClient.Status().Update(ctx, node)).To(Succeed())
	}).Should(Succeed())
}
