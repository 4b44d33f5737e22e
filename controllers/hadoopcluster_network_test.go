package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
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

	It("requests the devices its attachments' NetworkAttachmentDefinitions name, and records them", func() {
		other := createNamespace("network")
		device := "sriov.example.com/vf-" + ns
		createNetworkAttachment(ns, "sriov-a")
		setAttachmentResource(ns, "sriov-a", device)
		createNetworkAttachment(other, "sriov-b")
		setAttachmentResource(other, "sriov-b", device)
		hc := createCluster(ns, "sriov", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Network.Attachments = []v1alpha1.NetworkAttachment{{Name: "sriov-a"}, {Name: "sriov-b", Namespace: other}}
		})

		By("one device per attachment for the NodeManagers, none for the daemons that do not join them")
		children := childrenOf(hc)
		Eventually(statefulSetDevices(children.NodeManagers, device)).Should(Equal("2/2"))
		Expect(statefulSetDevices(children.ResourceManager, device)(Default)).To(Equal("0/0"))
		Eventually(attachmentResources(hc)).Should(Equal([]v1alpha1.AttachmentResource{
			{Namespace: ns, Name: "sriov-a", ResourceName: device},
			{Namespace: other, Name: "sriov-b", ResourceName: device},
		}))
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("False/ExtendedResourceUnavailable"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNetworkReady)(Default)).To(ContainSubstring(
			"no node offers " + device + " (2 per NodeManager, named by NetworkAttachmentDefinition " + ns + "/sriov-a, " + other + "/sriov-b)"))

		By("noticing a node that offers them, through the devices the status records")
		offerDevices("sriov-"+ns, 2, device)
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("True/Reconciled"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNetworkReady)(Default)).To(ContainSubstring(
			"attachments bring devices, one per attachment to each pod that joins it: " + device + " (" + ns + "/sriov-a, " + other + "/sriov-b); nodes offer " + device))

		By("following a NetworkAttachmentDefinition that stops naming the device")
		setAttachmentResource(other, "sriov-b", "")
		Eventually(statefulSetDevices(children.NodeManagers, device)).Should(Equal("1/1"))
		Eventually(attachmentResources(hc)).Should(Equal([]v1alpha1.AttachmentResource{
			{Namespace: ns, Name: "sriov-a", ResourceName: device},
		}))

		By("refusing a name no pod could request")
		setAttachmentResource(other, "sriov-b", "sriov_vf")
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("False/InvalidAttachmentResource"))
		Expect(conditionMessage(hc, v1alpha1.ConditionNetworkReady)(Default)).To(HavePrefix(
			"NetworkAttachmentDefinition " + other + `/sriov-b: k8s.v1.cni.cncf.io/resourceName "sriov_vf" is not an extended resource name`))
		Eventually(events(hc)).Should(ContainElement("Warning/InvalidAttachmentResource"))
		Expect(statefulSetDevices(children.NodeManagers, device)(Default)).To(Equal("1/1"))
	})

	It("gives the benchmark stages their attachments' devices, and none of the NodeManagers' own", func() {
		device := "sriov.example.com/stage-" + ns
		hca := "rdma/hca-stage-" + ns
		createNetworkAttachment(ns, "sriov-a")
		setAttachmentResource(ns, "sriov-a", device)
		offerDevices("stage-"+ns, 1, device, hca)
		hc := playClusterReady(createCluster(ns, "stages", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Network.Attachments = []v1alpha1.NetworkAttachment{{Name: "sriov-a"}}
			s.Network.ExtendedResources = []v1alpha1.ExtendedResource{{Name: hca, Count: 1}}
		}))
		Expect(statefulSetDevices(childrenOf(hc).NodeManagers, hca)(Default)).To(Equal("1/1"))

		run := createRun(ns, "sort", hc.Name, teraSort)
		pod := stageJob(run, v1alpha1.StageTeraGen, 1).Spec.Template
		Expect(pod.Annotations).To(HaveKeyWithValue(hadoop.NetworksAnnotation, `[{"name":"sriov-a"}]`))
		Expect(deviceCount(&pod, device)).To(Equal("1/1"))
		Expect(deviceCount(&pod, hca)).To(Equal("0/0"))
	})

	It("records the link rates its NetworkAttachmentDefinitions give, and names an annotation that is not a rate", func() {
		createNetworkAttachment(ns, "tengig")
		setLinkRate(ns, "tengig", "10GB")
		hc := createCluster(ns, "rated", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Network.Attachments = []v1alpha1.NetworkAttachment{{Name: "tengig"}}
			s.Network.DataInterface = "net1"
		})

		By("noting, not failing, a rate in bytes: the pods do not need it")
		Eventually(condition(hc, v1alpha1.ConditionNetworkReady)).Should(Equal("True/Reconciled"))
		Eventually(conditionMessage(hc, v1alpha1.ConditionNetworkReady)).Should(Equal(
			"NetworkAttachmentDefinitions exist: " + ns + "/tengig; NetworkAttachmentDefinition " + ns + `/tengig: hadoopceph.io/link-rate "10GB" counts bytes (B): ` +
				"write the link's rate in bits, such as 10Gbit, 1Gbit or 100Mbit; until it is corrected, BenchmarkRuns on these networks record no link rate (status.setup.network.rate)"))
		Expect(fresh(hc)(Default).Status.Network.LinkRates).To(BeEmpty())

		By("following the annotation once it is corrected")
		setLinkRate(ns, "tengig", "10Gbit")
		Eventually(func(g Gomega) []v1alpha1.AttachmentLinkRate { return fresh(hc)(g).Status.Network.LinkRates }).Should(Equal(
			[]v1alpha1.AttachmentLinkRate{{Namespace: ns, Name: "tengig", Rate: "10Gbit"}}))
		Expect(conditionMessage(hc, v1alpha1.ConditionNetworkReady)(Default)).To(Equal("NetworkAttachmentDefinitions exist: " + ns + "/tengig"))
	})

	It("mounts the NodeManagers' own core-site.xml, with spec.network.cephOptions, in their container alone", func() {
		hc := createCluster(ns, "rdma-messenger", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Config.CephOptions = map[string]string{"client_oc_size": "104857600"}
			s.Network.CephOptions = map[string]string{"ms_type": "async+rdma", "ms_async_rdma_device_name": "mlx5_0"}
		})
		children := childrenOf(hc)
		Eventually(get(children.ConfigMap)).Should(Succeed())
		Expect(children.ConfigMap.Data[hadoop.FileNodeManagerCoreSite]).To(ContainSubstring("client_fs=cephfs,client_oc_size=104857600,ms_async_rdma_device_name=mlx5_0,ms_type=async+rdma"))
		Expect(children.ConfigMap.Data[hadoop.FileCoreSite]).To(ContainSubstring("<value>client_fs=cephfs,client_oc_size=104857600</value>"))
		coreSite := func(sts *appsv1.StatefulSet) string {
			Eventually(get(sts)).Should(Succeed())
			for _, m := range sts.Spec.Template.Spec.Containers[0].VolumeMounts {
				if m.MountPath == hadoop.ConfDir+"/"+hadoop.FileCoreSite {
					return m.SubPath
				}
			}
			return ""
		}
		Expect(coreSite(children.NodeManagers)).To(Equal(hadoop.FileNodeManagerCoreSite))
		Expect(coreSite(children.ResourceManager)).To(Equal(hadoop.FileCoreSite))
		Expect(coreSite(children.JobHistory)).To(Equal(hadoop.FileCoreSite))

		By("dropping the file once spec.network.cephOptions is empty")
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Network.CephOptions = nil })
		Eventually(func(g Gomega) map[string]string {
			g.Expect(get(children.ConfigMap)()).To(Succeed())
			return children.ConfigMap.Data
		}).ShouldNot(HaveKey(hadoop.FileNodeManagerCoreSite))
		Eventually(func() string { return coreSite(children.NodeManagers) }).Should(Equal(hadoop.FileCoreSite))
	})
})

func attachmentResources(hc *v1alpha1.HadoopCluster) func(Gomega) []v1alpha1.AttachmentResource {
	return func(g Gomega) []v1alpha1.AttachmentResource {
		return fresh(hc)(g).Status.Network.AttachmentResources
	}
}
