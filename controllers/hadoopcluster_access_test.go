package controllers

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// envtest runs no network plugin: these specs prove the policies the operator writes,
// not that anything enforces them.
var _ = Describe("HadoopCluster access", Label("envtest"), func() {
	var ns string

	BeforeEach(func() {
		ns = createNamespace("access")
		readyExternalBackend(ns, "ext")
	})

	It("gives every daemon a NetworkPolicy that admits the cluster's pods and the declared clients", func() {
		notebook := v1alpha1.NetworkPeer{PodSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "notebook"}}}
		prometheus := v1alpha1.NetworkPeer{
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: "monitoring"}},
			PodSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": "prometheus"}},
		}
		hc := createCluster(ns, "guarded", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.Access.Clients = v1alpha1.AccessClients{RPC: []v1alpha1.NetworkPeer{notebook}, Web: []v1alpha1.NetworkPeer{prometheus}}
		})
		owner := fresh(hc)(Default)
		Expect(owner.Spec.Access.NetworkPolicies).To(HaveValue(BeTrue()), "the API defaults network policies to on")

		objs := childrenOf(hc)
		for _, c := range []hadoop.Component{hadoop.ResourceManager, hadoop.NodeManager, hadoop.JobHistory} {
			np := networkPolicyOf(hc, c)
			Eventually(get(np)).Should(Succeed())
			Expect(metav1.IsControlledBy(np, owner)).To(BeTrue(), "%s is the cluster's", np.Name)
			Expect(np.Spec.PolicyTypes).To(ConsistOf(networkingv1.PolicyTypeIngress), "egress stays open: NodeManagers reach Ceph")

			By("selecting the pods of " + string(c) + " only")
			selector, err := metav1.LabelSelectorAsSelector(&np.Spec.PodSelector)
			Expect(err).NotTo(HaveOccurred())
			for _, sts := range objs.StatefulSets() {
				Eventually(get(sts)).Should(Succeed())
				Expect(selector.Matches(labels.Set(sts.Spec.Template.Labels))).To(Equal(sts.Name == hadoop.ComponentName(owner, c)), "%s selects %s's pods", np.Name, sts.Name)
			}

			By("admitting the cluster's own pods, benchmark stages included, on every port")
			rules := np.Spec.Ingress
			// The operator reads the ResourceManager's REST API, and a leaving
			// NodeManager's node ID from its own.
			if web, reads := map[hadoop.Component]int32{hadoop.ResourceManager: hadoop.PortRMWeb, hadoop.NodeManager: hadoop.PortNMWeb}[c]; reads {
				Expect(rules).To(HaveLen(4))
				Expect(rules[1].From).To(Equal([]networkingv1.NetworkPolicyPeer{*operatorPeer}), "the operator reads the REST API")
				Expect(rules[1].Ports).To(HaveLen(1))
				Expect(rules[1].Ports[0].Port.IntVal).To(BeEquivalentTo(web))
				rules = append(rules[:1:1], rules[2:]...)
			}
			Expect(rules).To(HaveLen(3))
			own := rules[0]
			Expect(own.Ports).To(BeEmpty())
			from, err := metav1.LabelSelectorAsSelector(own.From[0].PodSelector)
			Expect(err).NotTo(HaveOccurred())
			Expect(from.Matches(labels.Set(hadoop.Labels(owner, hadoop.Client)))).To(BeTrue())
			Expect(own.From[0].NamespaceSelector).To(BeNil(), "the cluster's namespace only")

			By("admitting the rpc clients to the RPC ports and the web clients to the web port")
			rpc, web := rules[1], rules[2]
			Expect(rpc.From).To(Equal([]networkingv1.NetworkPolicyPeer{{PodSelector: notebook.PodSelector}}))
			Expect(web.From).To(Equal([]networkingv1.NetworkPolicyPeer{{PodSelector: prometheus.PodSelector, NamespaceSelector: prometheus.NamespaceSelector}}))
			Expect(web.Ports).To(HaveLen(1))
			Expect(web.Ports[0].Port.IntVal).To(Equal(hadoop.PortFor(c, "http")))
			Expect(rpc.Ports[0].Port.IntVal).To(Equal(hadoop.PortFor(c, "rpc")))
			if c == hadoop.NodeManager {
				am := rpc.Ports[len(rpc.Ports)-1]
				Expect(am.Port.IntVal).To(BeEquivalentTo(hadoop.PortAMClientFirst))
				Expect(am.EndPort).To(HaveValue(BeEquivalentTo(hadoop.PortAMClientLast)))
			}
		}

		By("pinning the ApplicationMasters to the ports the NodeManagers' policy opens")
		Expect(get(objs.ConfigMap)()).To(Succeed())
		Expect(objs.ConfigMap.Data[hadoop.FileMapredSite]).To(ContainSubstring("<value>27100-27199</value>"))
	})

	It("removes its NetworkPolicies when the cluster manages its own, and is Ready without them", func() {
		hc := createCluster(ns, "selfmanaged", "ext")
		nm := networkPolicyOf(hc, hadoop.NodeManager)
		Eventually(get(nm)).Should(Succeed())

		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Access.NetworkPolicies = ptr.To(false) })
		for _, c := range []hadoop.Component{hadoop.ResourceManager, hadoop.NodeManager, hadoop.JobHistory} {
			Eventually(gone(networkPolicyOf(hc, c))).Should(Succeed())
		}
		Eventually(eventNotes(hc, v1alpha1.EventReasonDeleted)).Should(ContainElement(ContainSubstring("spec.access.networkPolicies is false")))
		playAllReady(hc)
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Consistently(gone(nm), time.Second).Should(Succeed())

		By("bringing them back when switched on again")
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Access.NetworkPolicies = ptr.To(true) })
		Eventually(get(nm)).Should(Succeed())
	})

	It("turns YARN's ACLs on by default and renders the declared admins and submitters", func() {
		hc := createCluster(ns, "acl", "ext")
		Expect(fresh(hc)(Default).Spec.Access.YARN.ACLs).To(HaveValue(BeTrue()), "the API defaults ACLs to on")
		cm := childrenOf(hc).ConfigMap
		rendered := func(file string) func(Gomega) string {
			return func(g Gomega) string {
				g.Expect(get(cm)()).To(Succeed())
				return cm.Data[file]
			}
		}
		Eventually(rendered(hadoop.FileYarnSite)).Should(And(
			ContainSubstring("<name>yarn.acl.enable</name>\n    <value>true</value>"),
			ContainSubstring("<name>yarn.admin.acl</name>\n    <value>hadoop </value>")))
		Expect(rendered(hadoop.FileCapacityScheduler)(Default)).To(ContainSubstring("<name>yarn.scheduler.capacity.root.default.acl_submit_applications</name>\n    <value>*</value>"))

		By("changing the admins, which rolls the pods (yarn.admin.acl is in yarn-site.xml), and the submitters")
		before := fresh(hc)(Default).Status.ConfigHash
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) {
			s.Access.YARN.Admins = v1alpha1.ACLEntries{Users: []string{"ops"}, Groups: []string{"hadoop-admins"}}
			s.Access.YARN.Submitters = &v1alpha1.ACLEntries{Users: []string{"alice"}}
		})
		Eventually(rendered(hadoop.FileCapacityScheduler)).Should(And(
			ContainSubstring("<name>yarn.scheduler.capacity.root.acl_administer_queue</name>\n    <value>hadoop,ops hadoop-admins</value>"),
			ContainSubstring("<name>yarn.scheduler.capacity.root.default.acl_submit_applications</name>\n    <value>alice </value>")))
		Eventually(func(g Gomega) string { return fresh(hc)(g).Status.ConfigHash }).ShouldNot(Equal(before))

		By("turning them off")
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Access.YARN.ACLs = ptr.To(false) })
		Eventually(rendered(hadoop.FileYarnSite)).Should(ContainSubstring("<name>yarn.acl.enable</name>\n    <value>false</value>"))
	})

	It("warns that NetworkPolicies do not protect pods on the host's network, and stays Ready", func() {
		hc := createCluster(ns, "onhost", "ext", func(s *v1alpha1.HadoopClusterSpec) { s.Network.HostNetwork = true })
		Eventually(get(networkPolicyOf(hc, hadoop.ResourceManager))).Should(Succeed())
		Eventually(events(hc)).Should(ContainElement(corev1.EventTypeWarning + "/" + v1alpha1.EventReasonNetworkPoliciesIneffective))
		Eventually(conditionMessage(hc, v1alpha1.ConditionNetworkReady)).Should(ContainSubstring("NetworkPolicies do not apply to pods on the host's network"))
		playAllReady(hc)
		Eventually(condition(hc, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))

		By("saying nothing of it once the cluster manages its own policies")
		updateCluster(hc, func(s *v1alpha1.HadoopClusterSpec) { s.Access.NetworkPolicies = ptr.To(false) })
		Eventually(conditionMessage(hc, v1alpha1.ConditionNetworkReady)).ShouldNot(ContainSubstring("NetworkPolicies"))
	})
})

// operatorPeer stands for the operator's pods, as the Helm chart would select them.
var operatorPeer = &networkingv1.NetworkPolicyPeer{
	PodSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{"app.kubernetes.io/name": "hadoop-ceph-operator"}},
	NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: "hadoop-ceph-system"}},
}

func networkPolicyOf(hc *v1alpha1.HadoopCluster, c hadoop.Component) *networkingv1.NetworkPolicy {
	return &networkingv1.NetworkPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: hc.Namespace, Name: hadoop.NetworkPolicyName(hc, c)}}
}
