package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

var _ = Describe("HadoopCluster network", Label("envtest"), func() {
	var ns string

	BeforeEach(func() {
		ns = createNamespace("hadoop")
		readyExternalBackend(ns, "ext")
	})

	It("names the NetworkAttachmentDefinitions that do not exist until they do", func() {
		other := createNamespace("network")
		hc := createCluster(ns, "multus", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Network.Attachments = []v1alpha1.NetworkAttachment{
				{Name: "ib-hadoop", InterfaceName: "ib1"},
				{Name: "tengig", Namespace: other},
			}
			s.Network.DataInterface = "ib1"
		})
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("False/NetworkAttachmentNotFound"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNetworkReady)(Default)).To(ContainSubstring(
			"no NetworkAttachmentDefinition " + ns + "/ib-hadoop, " + other + "/tengig"))
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("False/NetworkAttachmentNotFound"))
		Eventually(events(hc)).Should(ContainElement("Warning/NetworkAttachmentNotFound"))

		By("applying the NodeManagers with their attachments all the same")
		nm := childrenOf(hc).NodeManagers
		Eventually(get(nm)).Should(Succeed())
		Expect(nm.Spec.Template.Annotations[hadoop.NetworksAnnotation]).To(Equal(
			`[{"name":"ib-hadoop","interface":"ib1"},{"name":"tengig","namespace":"` + other + `"}]`))

		createNetworkAttachment(ns, "ib-hadoop")
		Eventually(conditionMessage(hc, v1alpha1.ConditionNetworkReady)).Should(Equal(
			"no NetworkAttachmentDefinition " + other + "/tengig: the pods cannot join these networks until they are created (or removed from spec.network.attachments)"))
		createNetworkAttachment(other, "tengig")
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("True/Reconciled"))
	})

	It("reports an extended resource no node offers until one does", func() {
		device := "rdma/hca-" + ns
		hc := createCluster(ns, "rdma", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Network.ExtendedResources = []v1alpha1.ExtendedResource{{Name: device, Count: 2}}
		})
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("False/ExtendedResourceUnavailable"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNetworkReady)(Default)).To(ContainSubstring("no node offers " + device + " (2 per NodeManager)"))
		Eventually(events(hc)).Should(ContainElement("Warning/ExtendedResourceUnavailable"))

		node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "worker-" + ns}}
		Expect(k8sClient.Create(ctx, node)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, node))).To(Succeed()) })
		offer := func(count int64) {
			Eventually(func(g Gomega) {
				g.Expect(get(node)()).To(Succeed())
				node.Status.Allocatable = corev1.ResourceList{
					corev1.ResourceCPU:          resource.MustParse("32"),
					corev1.ResourceName(device): *resource.NewQuantity(count, resource.DecimalSI),
				}
				node.Status.Capacity = node.Status.Allocatable
				g.Expect(k8sClient.Status().Update(ctx, node)).To(Succeed())
			}).Should(Succeed())
		}

		By("not counting a node with too few devices")
		offer(1)
		Consistently(condition(hc, v1alpha1.ConditionNetworkReady), time.Second).Should(Equal("False/ExtendedResourceUnavailable"))

		offer(2)
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("True/Reconciled"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNetworkReady)(Default)).To(Equal("nodes offer " + device))

		By("noticing when the device plugin goes away")
		Expect(k8sClient.Delete(ctx, node)).To(Succeed())
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("False/ExtendedResourceUnavailable"))
	})
})
