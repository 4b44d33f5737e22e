//go:build e2e

package e2e

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
)

// The data network's spec: every node of the local cluster has a second link,
// localcluster.DataLink, plugged into a switch of its own (docs/local-cluster.md), and
// Multus runs on every node. A NetworkAttachmentDefinition puts a macvlan interface on
// that link into the NodeManagers, as a 10GbE data NIC would be, with whereabouts
// handing out addresses across nodes.
const (
	dataNAD     = "data"
	dataBackend = "datanet"
	dataCluster = "datanet"
	// dataPodRange is where whereabouts places the NodeManagers on the data network,
	// inside the cluster's data range beside the nodes' own addresses.
	dataPodRange = "10.119.16.0/20"
	// dataShuffleFloor is the least the TeraSort must move across the switch: its
	// 50 MB of map output, of which at least a third crosses nodes when three
	// NodeManagers that hold one task each share the maps and the reduces.
	dataShuffleFloor = 12 << 20
	// dataLinkRate is what the switch's ports are limited to during the spec (tc, as
	// local-cluster data-rate sets it), and what the NetworkAttachmentDefinition
	// declares in its link-rate annotation.
	dataLinkRate = "1Gbit"
)

func dataNetworkSpecs() {
	It("runs a TeraSort whose shuffle crosses the data network: NodeManagers get a macvlan interface on every node's data link, YARN registers them at those addresses, the switch counts the bytes, and the run records the network and the link rate its NetworkAttachmentDefinition declares", func() {
		ensureMultusAPI()
		nad := &unstructured.Unstructured{}
		nad.SetGroupVersionKind(schema.GroupVersionKind{Group: "k8s.cni.cncf.io", Version: "v1", Kind: "NetworkAttachmentDefinition"})
		nad.SetName(dataNAD)
		nad.SetNamespace(namespace)
		config := fmt.Sprintf(`{"cniVersion":"0.3.1","name":%q,"type":"macvlan","master":%q,"mode":"bridge","ipam":{"type":"whereabouts","range":%q}}`,
			dataNAD, localcluster.DataLink, dataPodRange)
		Expect(unstructured.SetNestedField(nad.Object, config, "spec", "config")).To(Succeed())
		// The switch is limited to the rate the annotation declares, as a user's
		// 1GbE network would be, so that what the runs record is true.
		nad.SetAnnotations(map[string]string{hadoop.LinkRateAnnotation: dataLinkRate})
		localCluster("data-rate", strings.ToLower(dataLinkRate))
		DeferCleanup(func() { localCluster("data-rate", "unlimited") })
		Expect(k8sClient.Create(ctx, nad)).To(Succeed())
		DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, nad))).To(Succeed()) })

		createOwnBackend(dataBackend, namespace+"-datanet")
		hc := newClusterOn(dataCluster, dataBackend)
		hc.Spec.Network = v1alpha1.NetworkSpec{Attachments: []v1alpha1.NetworkAttachment{{Name: dataNAD}}, DataInterface: "net1"}
		hc.Spec.NodeManagers.Replicas = ptr.To[int32](suiteNodes)
		// newSpreadCluster's size: room for one task beside an ApplicationMaster, so
		// that the maps and the reduces spread over the NodeManagers.
		hc.Spec.NodeManagers.Resources = corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("3584Mi")},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("3584Mi")},
		}
		hc.Spec.ResourceManager.PodOverrides.NodeSelector = v1alpha1.Labels{corev1.LabelHostname: v1alpha1.LabelValue(firstNode().Labels[corev1.LabelHostname])}
		hc.Spec.JobHistory = v1alpha1.JobHistorySpec{Enabled: ptr.To(false)}
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
		DeferCleanup(func() { deleteCluster(dataCluster) })
		waitForCluster(dataCluster)

		By("each NodeManager has net1 on the data network, and YARN knows it by that address")
		podRange := netip.MustParsePrefix(dataPodRange)
		pods := &corev1.PodList{}
		Expect(k8sClient.List(ctx, pods, client.InNamespace(namespace), client.MatchingLabels(hadoop.SelectorLabels(hc, hadoop.NodeManager)))).To(Succeed())
		Expect(pods.Items).To(HaveLen(suiteNodes))
		dataIPs := map[string]bool{}
		for _, p := range pods.Items {
			ip := attachmentIP(p, namespace+"/"+dataNAD, "net1")
			Expect(podRange.Contains(ip)).To(BeTrue(), "pod %s's net1 address %s is in %s", p.Name, ip, podRange)
			dataIPs[ip.String()] = true
		}
		Eventually(func(g Gomega) {
			nodes, err := yarnNodes(dataCluster)
			g.Expect(err).NotTo(HaveOccurred())
			g.Expect(nodes).To(HaveLen(suiteNodes))
			for _, n := range nodes {
				host, _, _ := strings.Cut(n.ID, ":")
				g.Expect(dataIPs).To(HaveKey(host), "NodeManager %s registered at its data address", n.ID)
			}
		}).WithTimeout(time.Minute).Should(Succeed())

		By("a TeraSort moves its shuffle through the data network's switch")
		before := dataSwitchBytes()
		run := newTeraSortOn("datanet-terasort", dataCluster)
		run.Spec.TeraSort.Maps, run.Spec.TeraSort.Reduces = ptr.To[int32](3), ptr.To[int32](3)
		Expect(k8sClient.Create(ctx, run)).To(Succeed())
		run = waitForRun(run.Name)
		Expect(run.Status.Phase).To(Equal(v1alpha1.BenchmarkPhaseSucceeded), "%+v", run.Status.Conditions)
		moved := dataSwitchBytes() - before
		Expect(run.Status.Setup).NotTo(BeNil())
		Expect(run.Status.Setup.Network).To(Equal(&v1alpha1.NetworkSetup{
			DataInterface: "net1",
			Attachment:    &v1alpha1.NetworkAttachmentReference{Namespace: namespace, Name: dataNAD},
			Rate:          dataLinkRate,
		}), "status.setup.network records the data network and the rate its NetworkAttachmentDefinition declares")
		AddReportEntry("bytes the data network's switch received during a 500,000-row TeraSort on three NodeManagers", moved)
		Expect(moved).To(BeNumerically(">=", dataShuffleFloor), "the shuffle crosses the data network")
	})
}

// ensureMultusAPI installs Multus's CRD when BeforeSuite removed it and the
// operator's restart spec did not run (a focused run), and waits for the operator to
// serve with it: it restarts itself once it sees the API.
func ensureMultusAPI() {
	GinkgoHelper()
	err := k8sClient.Get(ctx, client.ObjectKey{Name: multusCRD}, &apiextensionsv1.CustomResourceDefinition{})
	if err == nil {
		return
	}
	Expect(apierrors.IsNotFound(err)).To(BeTrue(), "looking up CRD %s: %v", multusCRD, err)
	before := operatorContainer(Default).RestartCount
	mustRun(kubectl("apply", "--server-side", "-f", multusCRDFile()))
	Eventually(func(g Gomega) {
		c := operatorContainer(g)
		g.Expect(c.RestartCount).To(BeNumerically(">", before))
		g.Expect(c.Ready).To(BeTrue())
	}).WithTimeout(2 * time.Minute).Should(Succeed())
}

// attachmentIP is a pod's address on an attachment, from the network-status
// annotation Multus writes.
func attachmentIP(p corev1.Pod, network, iface string) netip.Addr {
	GinkgoHelper()
	var status []struct {
		Name      string   `json:"name"`
		Interface string   `json:"interface"`
		IPs       []string `json:"ips"`
	}
	raw := p.Annotations["k8s.v1.cni.cncf.io/network-status"]
	Expect(json.Unmarshal([]byte(raw), &status)).To(Succeed(), "pod %s's network-status %q", p.Name, raw)
	for _, s := range status {
		if s.Name == network && s.Interface == iface && len(s.IPs) > 0 {
			ip, err := netip.ParseAddr(s.IPs[0])
			Expect(err).NotTo(HaveOccurred())
			return ip
		}
	}
	Fail(fmt.Sprintf("pod %s has no %s on %s: %s", p.Name, iface, network, raw))
	return netip.Addr{}
}

// dataSwitchBytes is what the data network's switch received on all its ports.
func dataSwitchBytes() int64 {
	GinkgoHelper()
	n, err := localcluster.DataSwitchReceived()
	Expect(err).NotTo(HaveOccurred())
	return n
}
