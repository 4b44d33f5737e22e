package controllers

import (
	"fmt"
	"reflect"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

var _ = Describe("HadoopCluster children", Label("envtest"), func() {
	var ns string

	BeforeEach(func() {
		ns = createNamespace("hadoop")
	})

	// expectGraph waits for every child of hc and checks it against what the builders
	// make of hc and sb's status, and against what a Hadoop pod must be.
	expectGraph := func(hc *v1alpha1.HadoopCluster, sb *v1alpha1.StorageBackend, storage hadoop.Storage) *clusterObjects {
		objs := childrenOf(hc)
		for _, obj := range objs.All() {
			Eventually(get(obj)).Should(Succeed())
		}
		owner := fresh(hc)(Default)
		for _, obj := range objs.All() {
			ref := metav1.GetControllerOf(obj)
			Expect(ref).NotTo(BeNil(), "%s has no controller", obj.GetName())
			Expect(ref.Kind).To(Equal("HadoopCluster"))
			Expect(ref.UID).To(Equal(owner.UID))
			Expect(ref.BlockOwnerDeletion).To(HaveValue(BeTrue()))
		}

		st := fresh(sb)(Default).Status
		storage.Filesystem, storage.RootPath, storage.ClientID = st.FilesystemName, st.RootPath, st.ClientID
		storage.ClientConfigSecret, storage.ClientConfigHash = st.ClientConfigSecret, st.ClientConfigHash
		want, err := hadoop.Build(hadoop.Input{Cluster: owner, Storage: storage})
		Expect(err).NotTo(HaveOccurred())

		Expect(objs.ConfigMap.Data).To(Equal(want.ConfigMap.Data))
		for _, value := range objs.ConfigMap.Data {
			Expect(value).NotTo(ContainSubstring(testKey), "the key must never land in the ConfigMap")
		}
		Expect(owner.Status.ConfigHash).To(Equal(want.ConfigHash))
		Expect(objs.ClientConfigMap.Data).To(Equal(want.ClientConfigMap.Data))
		Expect(objs.ClientPodTemplate.Template.Annotations).To(Equal(want.ClientPodTemplate.Template.Annotations))
		Expect(objs.ClientPodTemplate.Template.Labels).To(Equal(want.ClientPodTemplate.Template.Labels))
		Expect(objs.ClientPodTemplate.Template.Spec.Containers[0].Command).To(Equal([]string{"sleep"}))
		Expect(owner.Status.Client).To(Equal(v1alpha1.ClientStatus{
			ConfigMap: objs.ClientConfigMap.Name, Secret: st.ClientConfigSecret, PodTemplate: objs.ClientPodTemplate.Name,
		}))
		Expect(objs.Topology.Data).To(Equal(hadoop.TopologyConfigMap(owner, nil, nil, hadoop.RackTable(nil, nil, nil)).Data), "no NodeManager has answered")
		built := []*appsv1.StatefulSet{want.ResourceManager, want.NodeManagers, want.JobHistory}
		for i, sts := range objs.StatefulSets() {
			template := sts.Spec.Template
			Expect(template.Annotations).To(Equal(built[i].Spec.Template.Annotations), sts.Name)
			Expect(template.Annotations).To(HaveKeyWithValue(hadoop.ConfigHashAnnotation, owner.Status.ConfigHash))
			Expect(template.Annotations).To(HaveKeyWithValue(cephconf.HashAnnotation, st.ClientConfigHash))

			pod := template.Spec
			Expect(pod.SecurityContext.RunAsNonRoot).To(HaveValue(BeTrue()))
			Expect(pod.SecurityContext.SeccompProfile.Type).To(Equal(corev1.SeccompProfileTypeRuntimeDefault))
			Expect(pod.ServiceAccountName).To(Equal(objs.ServiceAccount.Name))
			// The ResourceManager's pod also runs the scheduler's refresher.
			Expect(pod.Containers).To(HaveLen(len(built[i].Spec.Template.Spec.Containers)))
			Expect(pod.Containers[0].Name).To(Equal(built[i].Spec.Template.Spec.Containers[0].Name))
			Expect(pod.Containers[0].Image).To(Equal(testImage))
			Expect(pod.Containers[0].SecurityContext.AllowPrivilegeEscalation).To(HaveValue(BeFalse()))
			var keyring *corev1.SecretVolumeSource
			for _, v := range pod.Volumes {
				if v.Secret != nil {
					keyring = v.Secret
				}
				if v.ConfigMap != nil {
					Expect(v.ConfigMap.Name).To(BeElementOf(objs.ConfigMap.Name, hadoop.TopologyConfigMapName(owner)))
				}
			}
			Expect(keyring).NotTo(BeNil(), "%s mounts no Secret", sts.Name)
			Expect(keyring.SecretName).To(Equal(st.ClientConfigSecret))
			Expect(keyring.DefaultMode).To(HaveValue(BeEquivalentTo(0o400)))
		}

		Expect(objs.NodeManagers.Spec.Replicas).To(Equal(owner.Spec.NodeManagers.Replicas))
		nm := objs.NodeManagers.Spec.Template.Spec
		Expect(nm.Containers[0].Lifecycle.PreStop.Exec.Command).To(Equal([]string{hadoop.StopNodeManager}))
		Expect(nm.TerminationGracePeriodSeconds).To(HaveValue(BeEquivalentTo(120)))
		Expect(objs.NodeManagerService.Spec.ClusterIP).To(Equal(corev1.ClusterIPNone))
		Expect(objs.ResourceManagerService.Spec.ClusterIP).NotTo(Equal(corev1.ClusterIPNone))
		Expect(objs.NodeManagerPDB.Spec.MaxUnavailable.IntValue()).To(Equal(1))
		Expect(objs.ServiceAccount.AutomountServiceAccountToken).To(HaveValue(BeFalse()))
		return objs
	}

	It("runs on a replicated Rook backend: the whole object graph, then Ready once the pods are", func() {
		rookNs := rookCluster()
		sb := newRookBackend(ns, "replicated", rookNs, func(r *v1alpha1.RookCephFS) {
			r.DataPool = v1alpha1.DataPool{Replicated: &v1alpha1.ReplicatedPool{Size: 2}}
		})
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))

		hc := createCluster(ns, "analytics", "replicated")
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
		expectGraph(hc, sb, hadoop.Storage{RookNamespace: rookNs})

		Expect(condition(hc, v1alpha1.ConditionStorageReady)(Default)).To(Equal("True/Reconciled"))
		Expect(condition(hc, v1alpha1.ConditionNetworkReady)(Default)).To(Equal("True/Reconciled"))
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("False/PodsNotReady"))
		Expect(conditionMessage(hc, v1alpha1.ConditionReady)(Default)).To(HavePrefix(v1alpha1.ConditionResourceManagerReady + ": 0/1 pods"))
		st := fresh(hc)(Default).Status
		Expect(st.ResourceManagerAddress).To(Equal("analytics-resourcemanager." + ns + ".svc:8032"))
		Expect(st.ResourceManagerWebURL).To(Equal("http://analytics-resourcemanager." + ns + ".svc:8088"))
		Expect(st.JobHistoryWebURL).To(Equal("http://analytics-jobhistory." + ns + ".svc:19888"))
		Expect(st.NodeManagerSelector).To(Equal("app.kubernetes.io/component=nodemanager,app.kubernetes.io/instance=analytics,app.kubernetes.io/name=hadoop"))
		Expect(st.NodeManagers).To(Equal("0/1"))

		By("becoming Ready once every pod is")
		playAllReady(hc)
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		st = fresh(hc)(Default).Status
		Expect(st.NodeManagers).To(Equal("1/1"))
		Expect(st.ReadyNodeManagers).To(BeEquivalentTo(1))
		Expect(st.NodeManagerReplicas).To(BeEquivalentTo(1))
		Expect(st.DesiredNodeManagers).To(BeEquivalentTo(1))
		Expect(st.ObservedGeneration).To(Equal(fresh(hc)(Default).Generation))
		Expect(conditionMessage(hc, v1alpha1.ConditionReady)(Default)).To(ContainSubstring("analytics-resourcemanager." + ns + ".svc:8032"))
		Eventually(events(hc)).Should(ContainElements("Normal/Created", "Normal/Reconciled"))
	})

	It("runs on an erasure-coded Rook backend and joins Rook's public network", func() {
		rookNs := createMultusCephCluster()
		sb := newRookBackend(ns, "erasure", rookNs, func(r *v1alpha1.RookCephFS) {
			r.DataPool = v1alpha1.DataPool{ErasureCoded: &v1alpha1.ErasureCodedPool{DataChunks: 2, CodingChunks: 1}}
		})
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		playRook(sb, rookNs)
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))

		hc := createCluster(ns, "terasort", "erasure")
		By("reporting Rook's public network, which every Hadoop pod joins, until it exists")
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("False/NetworkAttachmentNotFound"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNetworkReady)(Default)).To(ContainSubstring(rookNs + "/public-net"))
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("False/NetworkAttachmentNotFound"))
		Eventually(events(hc)).Should(ContainElement("Warning/NetworkAttachmentNotFound"))

		By("applying the children all the same, so the pods start once the network appears")
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
		objs := expectGraph(hc, sb, hadoop.Storage{
			RookNamespace: rookNs,
			PublicNetwork: &v1alpha1.NetworkAttachment{Name: "public-net", Namespace: rookNs},
		})
		for _, sts := range objs.StatefulSets() {
			Expect(sts.Spec.Template.Annotations).To(HaveKeyWithValue(hadoop.NetworksAnnotation, ContainSubstring(`"name":"public-net","namespace":"`+rookNs+`"`)))
		}
		Expect(objs.ConfigMap.Data[hadoop.FileCoreSite]).To(ContainSubstring("/volumes/hadoop"))

		createNetworkAttachment(rookNs, "public-net")
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("True/Reconciled"))
	})

	It("rolls every pod on a configuration change, and changes only the replicas when scaled", func() {
		readyExternalBackend(ns, "ext")
		hc := createCluster(ns, "rolling", "ext")
		objs := childrenOf(hc)
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
		before := fresh(hc)(Default).Status.ConfigHash
		Expect(before).NotTo(BeEmpty())

		By("rolling the pods of every component to a configuration override")
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) {
			s.Config.YarnSite = map[string]string{"yarn.nodemanager.delete.debug-delay-sec": "600"}
		})
		Eventually(func(g Gomega) string { return fresh(hc)(g).Status.ConfigHash }).ShouldNot(Equal(before))
		after := fresh(hc)(Default).Status.ConfigHash
		Expect(get(objs.ConfigMap)()).To(Succeed())
		Expect(objs.ConfigMap.Data[hadoop.FileYarnSite]).To(ContainSubstring("yarn.nodemanager.delete.debug-delay-sec"))
		for _, sts := range objs.StatefulSets() {
			Eventually(func(g Gomega) string {
				g.Expect(get(sts)()).To(Succeed())
				return sts.Spec.Template.Annotations[hadoop.ConfigHashAnnotation]
			}).Should(Equal(after), sts.Name)
		}
		Eventually(events(hc)).Should(ContainElement("Normal/ConfigChanged"))

		By("scaling through the scale subresource, as kubectl scale does")
		others := []client.Object{objs.ServiceAccount, objs.ConfigMap, objs.ResourceManager, objs.ResourceManagerService, objs.ResourceManagerHeadless,
			objs.NodeManagerService, objs.NodeManagerPDB, objs.JobHistory, objs.JobHistoryService, objs.JobHistoryHeadless}
		settled := settledVersions(others...)
		Expect(get(objs.NodeManagers)()).To(Succeed())
		template := objs.NodeManagers.Spec.Template.DeepCopy()

		scale := &autoscalingv1.Scale{}
		Expect(k8sClient.SubResource("scale").Get(ctx, fresh(hc)(Default), scale)).To(Succeed())
		Expect(scale.Status.Selector).To(Equal(fresh(hc)(Default).Status.NodeManagerSelector))
		scale.Spec.Replicas = 4
		Expect(k8sClient.SubResource("scale").Update(ctx, fresh(hc)(Default), client.WithSubResourceBody(scale))).To(Succeed())

		Eventually(func(g Gomega) *int32 {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			return objs.NodeManagers.Spec.Replicas
		}).Should(HaveValue(BeEquivalentTo(4)))
		Expect(objs.NodeManagers.Spec.Template).To(Equal(*template), "scaling must not change the pod template")
		Eventually(func(g Gomega) string { return fresh(hc)(g).Status.NodeManagers }).Should(Equal("0/4"))
		Consistently(func(g Gomega) map[string]string { return resourceVersions(g, others...) }, time.Second, 200*time.Millisecond).Should(Equal(settled))
		Eventually(events(hc)).Should(ContainElement("Normal/Scaled"))
	})

	It("removes the JobHistory server when it is disabled, and is Ready without it", func() {
		readyExternalBackend(ns, "ext")
		hc := createCluster(ns, "nohistory", "ext")
		objs := childrenOf(hc)
		Eventually(get(objs.JobHistory)).Should(Succeed())
		Eventually(get(objs.JobHistoryService)).Should(Succeed())
		Eventually(get(objs.JobHistoryHeadless)).Should(Succeed())

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.JobHistory.Enabled = ptr.To(false) })
		Eventually(gone(objs.JobHistory)).Should(Succeed())
		Eventually(gone(objs.JobHistoryService)).Should(Succeed())
		Eventually(gone(objs.JobHistoryHeadless)).Should(Succeed())
		Eventually(condition(hc, v1alpha1.ConditionJobHistoryReady)).Should(Equal("False/Disabled"))
		Expect(fresh(hc)(Default).Status.JobHistoryWebURL).To(BeEmpty())
		Eventually(events(hc)).Should(ContainElement("Normal/Deleted"))

		for _, sts := range []client.Object{objs.ResourceManager, objs.NodeManagers} {
			Expect(get(sts)()).To(Succeed())
		}
		playStatefulSet(objs.ResourceManager, 1)
		playStatefulSet(objs.NodeManagers, 1)
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
	})

	It("leaves a child labelled do-not-reconcile as it is", func() {
		readyExternalBackend(ns, "ext")
		hc := createCluster(ns, "pinned", "ext")
		objs := childrenOf(hc)
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
		Eventually(func(g Gomega) {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			objs.NodeManagers.Labels[naming.LabelDoNotReconcile] = "true"
			g.Expect(k8sClient.Update(ctx, objs.NodeManagers)).To(Succeed())
		}).Should(Succeed())
		pinned := objs.NodeManagers.Spec.Template.Annotations[hadoop.ConfigHashAnnotation]

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) {
			s.Config.CoreSite = map[string]string{"io.file.buffer.size": "131072"}
			s.NodeManagers.Replicas = ptr.To[int32](3)
		})
		Eventually(func(g Gomega) string {
			g.Expect(get(objs.ResourceManager)()).To(Succeed())
			return objs.ResourceManager.Spec.Template.Annotations[hadoop.ConfigHashAnnotation]
		}).ShouldNot(Equal(pinned))
		Consistently(func(g Gomega) string {
			g.Expect(get(objs.NodeManagers)()).To(Succeed())
			return objs.NodeManagers.Spec.Template.Annotations[hadoop.ConfigHashAnnotation] + "/" + fmt.Sprint(*objs.NodeManagers.Spec.Replicas)
		}, time.Second).Should(Equal(pinned + "/1"))
		Expect(condition(hc, v1alpha1.ConditionConfigReady)(Default)).To(Equal("True/Reconciled"))
		Expect(fresh(hc)(Default).Status.DesiredNodeManagers).To(BeEquivalentTo(1), "status reports the StatefulSet as it is")
	})

	It("refuses a spec it cannot build, names the fields and changes nothing until it is fixed", func() {
		readyExternalBackend(ns, "ext")
		hc := createCluster(ns, "invalid", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.ResourceManager.Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("64Mi")}}
			s.NodeManagers.Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("3Gi")}}
		})
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("False/InvalidSpec"))
		message := conditionMessage(hc, v1alpha1.ConditionConfigReady)(Default)
		Expect(message).To(ContainSubstring("spec.resourceManager.resources"))
		Expect(message).To(ContainSubstring("spec.nodeManagers.resources"))
		Expect(condition(hc, v1alpha1.ConditionReady)(Default)).To(Equal("False/InvalidSpec"))
		Expect(fresh(hc)(Default).Status.ObservedGeneration).To(Equal(fresh(hc)(Default).Generation))
		Eventually(events(hc)).Should(ContainElement("Warning/InvalidSpec"))
		Consistently(get(childrenOf(hc).ConfigMap), time.Second).ShouldNot(Succeed())

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) {
			s.ResourceManager.Resources = corev1.ResourceRequirements{}
			s.NodeManagers.Resources = corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("4Gi")}}
		})
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("True/Reconciled"))
		Eventually(get(childrenOf(hc).NodeManagers)).Should(Succeed())
	})

	It("leaves an object of a child's name that is not its own untouched, and says so", func() {
		readyExternalBackend(ns, "ext")
		taken := &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "taken-resourcemanager"},
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "web", Port: 80}}},
		}
		Expect(k8sClient.Create(ctx, taken)).To(Succeed())
		hc := createCluster(ns, "taken", "ext")
		Eventually(condition(hc, v1alpha1.ConditionConfigReady)).Should(Equal("False/ChildConflict"))
		Expect(conditionMessage(hc, v1alpha1.ConditionConfigReady)(Default)).To(ContainSubstring("Service " + ns + "/taken-resourcemanager"))
		Eventually(events(hc)).Should(ContainElement("Warning/ChildConflict"))
		Eventually(get(childrenOf(hc).NodeManagers)).Should(Succeed())
		Expect(get(taken)()).To(Succeed())
		Expect(taken.OwnerReferences).To(BeEmpty())
		Expect(taken.Spec.Ports).To(HaveLen(1))
	})
})

// settledVersions waits until the resourceVersions of objs stop changing and returns
// them.
func settledVersions(objs ...client.Object) map[string]string {
	var last map[string]string
	Eventually(func(g Gomega) bool {
		current := resourceVersions(g, objs...)
		settled := reflect.DeepEqual(current, last)
		last = current
		return settled
	}).WithPolling(500 * time.Millisecond).Should(BeTrue())
	return last
}
