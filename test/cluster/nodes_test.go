//go:build cluster

package cluster

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
)

const (
	webPort = 8080
	// hostPort is where each node's host-network pod serves, on the node's address.
	hostPort = 31881
)

// node is what the specs know of one node and the pods placed on it.
type node struct {
	name     string
	hostname string
	ip       string
	web      *corev1.Pod // on the pod network
	host     *corev1.Pod // on the node's network
}

var _ = Describe("Nodes", Ordered, func() {
	var nodes []*node

	It("are Ready with an address each, dotted names, and a hostname label that differs from its name on one", func() {
		list, err := clientset.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(list.Items).To(HaveLen(wantNodes))
		ips := map[string]string{}
		var dotted, relabelled int
		for _, n := range list.Items {
			Expect(readyStatus(&n)).To(Equal(corev1.ConditionTrue), "node %s is not Ready", n.Name)
			ip := internalIP(&n)
			Expect(ip).NotTo(BeEmpty(), "node %s has no InternalIP", n.Name)
			Expect(ips).NotTo(HaveKey(ip), "nodes %s and %s share %s", ips[ip], n.Name, ip)
			ips[ip] = n.Name
			if strings.Contains(n.Name, ".") {
				dotted++
			}
			if n.Labels[corev1.LabelHostname] != n.Name {
				relabelled++
			}
			nodes = append(nodes, &node{name: n.Name, hostname: n.Labels[corev1.LabelHostname], ip: ip})
		}
		Expect(dotted).To(BeNumerically(">=", 1), "no node has a dotted name")
		Expect(relabelled).To(BeNumerically(">=", 1), "every node's %s label equals its name", corev1.LabelHostname)
	})

	It("run pods on the pod network from a range of their own, and host-network pods on their own address", func() {
		for i, n := range nodes {
			n.web = createPod(webPod(fmt.Sprintf("web-%d", i), n.name))
			n.host = createPod(hostPod(fmt.Sprintf("host-%d", i), n.name))
			createService(fmt.Sprintf("web-%d", i), n.web.Labels)
		}
		ranges := map[netip.Prefix]string{}
		for _, n := range nodes {
			n.web = awaitRunning(n.web)
			n.host = awaitRunning(n.host)
			Expect(n.host.Status.PodIP).To(Equal(n.ip), "host-network pod on %s", n.name)
			ip, err := netip.ParseAddr(n.web.Status.PodIP)
			Expect(err).NotTo(HaveOccurred())
			r := netip.PrefixFrom(ip, 24).Masked()
			Expect(ranges).NotTo(HaveKey(r), "pods of %s and %s share %s", ranges[r], n.name, r)
			ranges[r] = n.name
		}
	})

	It("reach every other node's pods, host-network pods and Services by name, from every node", func() {
		for _, from := range nodes {
			for j, to := range nodes {
				Expect(fetch(from.web, fmt.Sprintf("http://%s:%d/", to.web.Status.PodIP, webPort))).To(Equal(to.name),
					"pod on %s to the pod on %s", from.name, to.name)
				Expect(fetch(from.web, fmt.Sprintf("http://%s:%d/", to.ip, hostPort))).To(Equal(to.name),
					"pod on %s to the host-network pod on %s", from.name, to.name)
				svc := fmt.Sprintf("http://web-%d.%s.svc.cluster.local/", j, namespace)
				Expect(fetch(from.web, svc)).To(Equal(to.name), "pod on %s to Service web-%d by name", from.name, j)
				Expect(fetch(from.host, svc)).To(Equal(to.name), "host-network pod on %s to Service web-%d by name", from.name, j)
			}
		}
	})

	It("pull images from the cluster's registry", func() {
		for i, n := range nodes {
			p := webPod(fmt.Sprintf("pulled-%d", i), n.name)
			p.Spec.Containers[0].Image = registryImage
			p.Spec.Containers[0].ImagePullPolicy = corev1.PullAlways
			awaitRunning(createPod(p))
			Eventually(func(g Gomega) []string {
				evs, err := clientset.CoreV1().Events(namespace).List(ctx, metav1.ListOptions{FieldSelector: "involvedObject.name=" + p.Name})
				g.Expect(err).NotTo(HaveOccurred())
				var reasons []string
				for _, e := range evs.Items {
					reasons = append(reasons, e.Reason)
				}
				return reasons
			}).WithTimeout(30*time.Second).Should(ContainElement("Pulled"), "node %s pulled %s", n.name, registryImage)
		}
	})

	It("attach pods to the data network through Multus: each gets net1 on its node's data link, and pods on different nodes reach each other through the data network's switch", func() {
		nad := fmt.Sprintf(`apiVersion: k8s.cni.cncf.io/v1
kind: NetworkAttachmentDefinition
metadata: {name: data, namespace: %s}
spec:
  config: '{"cniVersion":"0.3.1","name":"data","type":"macvlan","master":"hco-data0","mode":"bridge","ipam":{"type":"whereabouts","range":"10.119.32.0/20"}}'
`, namespace)
		cmd := kubectl("apply", "-f", "-")
		cmd.Stdin = strings.NewReader(nad)
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)
		var data []*corev1.Pod
		for i, n := range nodes {
			p := webPod(fmt.Sprintf("data-%d", i), n.name)
			p.Annotations = map[string]string{"k8s.v1.cni.cncf.io/networks": "data"}
			data = append(data, createPod(p))
		}
		addrs := map[string]bool{}
		for i := range data {
			data[i] = awaitRunning(data[i])
			ip := net1Address(data[i])
			Expect(netip.MustParsePrefix("10.119.32.0/20").Contains(netip.MustParseAddr(ip))).To(BeTrue(), "pod %s's net1 %s", data[i].Name, ip)
			Expect(addrs).NotTo(HaveKey(ip), "whereabouts gave %s twice", ip)
			addrs[ip] = true
		}
		before := switchBytes()
		for i, from := range data {
			for j, to := range data {
				if i != j {
					Expect(fetch(from, fmt.Sprintf("http://%s:%d/", net1Address(to), webPort))).To(Equal(nodes[j].name),
						"pod on %s to the pod on %s over the data network", nodes[i].name, nodes[j].name)
				}
			}
		}
		Expect(switchBytes()).To(BeNumerically(">", before), "the data network's switch carried the requests")
	})

	It("serve kubectl logs and exec on every node, where a host-network pod resolves its node's name and every pod the workers' names", func() {
		for _, n := range nodes {
			out, err := kubectl("-n", namespace, "exec", n.web.Name, "--", "cat", "/proc/sys/kernel/hostname").CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "exec on %s: %s", n.name, out)
			out, err = kubectl("-n", namespace, "exec", n.host.Name, "--", "hostname").CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "exec on %s: %s", n.name, out)
			Expect(strings.TrimSpace(string(out))).To(Equal(n.name), "a host-network pod sees its node's host name")
			// Daemons resolve their own host name when they start (Hadoop's JobHistory
			// server fails without it); the kubelet gives host-network pods its node's
			// /etc/hosts.
			out, err = kubectl("-n", namespace, "exec", n.host.Name, "--", "grep", "-w", n.name, "/etc/hosts").CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "a host-network pod on %s finds its node's name in /etc/hosts: %s", n.name, out)
			// The cluster DNS names the workers, as a site's DNS names its machines.
			for _, to := range nodes {
				if !strings.Contains(to.name, ".") {
					continue // the first node keeps the host's own name, which no DNS here knows
				}
				out, err = kubectl("-n", namespace, "exec", n.web.Name, "--", "nslookup", to.name).CombinedOutput()
				Expect(err).NotTo(HaveOccurred(), "a pod on %s resolves %s: %s", n.name, to.name, out)
				Expect(string(out)).To(ContainSubstring(to.ip), "a pod on %s resolves %s to its address", n.name, to.name)
			}
			out, err = kubectl("-n", namespace, "logs", n.web.Name).CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "logs on %s: %s", n.name, out)
			Expect(string(out)).To(ContainSubstring("serving " + n.name))
		}
	})

	It("enforce a NetworkPolicy across nodes: only declared clients reach the pod", func() {
		target, other := nodes[len(nodes)-1], nodes[0]
		policy := &networkingv1.NetworkPolicy{
			ObjectMeta: metav1.ObjectMeta{Name: "declared-clients-only", Namespace: namespace},
			Spec: networkingv1.NetworkPolicySpec{
				PodSelector: metav1.LabelSelector{MatchLabels: target.web.Labels},
				PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress},
				Ingress: []networkingv1.NetworkPolicyIngressRule{{
					From:  []networkingv1.NetworkPolicyPeer{{PodSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"client": "declared"}}}},
					Ports: []networkingv1.NetworkPolicyPort{{Port: ptr(intstr.FromInt32(webPort))}},
				}},
			},
		}
		_, err := clientset.NetworkingV1().NetworkPolicies(namespace).Create(ctx, policy, metav1.CreateOptions{})
		Expect(err).NotTo(HaveOccurred())
		url := fmt.Sprintf("http://%s:%d/", target.web.Status.PodIP, webPort)
		Eventually(func() error {
			_, err := tryFetch(other.web, url)
			return err
		}).WithTimeout(time.Minute).ShouldNot(Succeed(), "an undeclared pod on %s still reaches the pod on %s", other.name, target.name)

		declared := webPod("declared", other.name)
		declared.Labels = map[string]string{"client": "declared"}
		declared = awaitRunning(createPod(declared))
		Eventually(func() (string, error) {
			return tryFetch(declared, url)
		}).WithTimeout(time.Minute).Should(Equal(target.name), "a declared pod on %s cannot reach the pod on %s", other.name, target.name)
	})
})

var _ = Describe("A worker lost and back", Ordered, func() {
	It("is marked unreachable when it loses power, and is Ready again after it starts", func() {
		workers, err := clientset.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		Expect(err).NotTo(HaveOccurred())
		var lost string
		for _, n := range workers.Items {
			if strings.HasPrefix(n.Name, fmt.Sprintf("n%d.", wantNodes)) {
				lost = n.Name
			}
		}
		Expect(lost).NotTo(BeEmpty(), "no worker n%d", wantNodes)
		pod := awaitRunning(createPod(webPod("doomed", lost)))

		By("killing every process of " + lost + " at once")
		out, err := localCluster("stop", lost, "--kill").CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)
		// The node controller marks a node Unknown once its kubelet has not renewed its
		// lease for the node monitor grace period (50 s by default).
		Eventually(func(g Gomega) corev1.ConditionStatus {
			n, err := clientset.CoreV1().Nodes().Get(ctx, lost, metav1.GetOptions{})
			g.Expect(err).NotTo(HaveOccurred())
			return readyStatus(n)
		}).WithTimeout(2 * time.Minute).WithPolling(2 * time.Second).Should(Equal(corev1.ConditionUnknown))
		_, err = tryFetch(pod, fmt.Sprintf("http://127.0.0.1:%d/", webPort))
		Expect(err).To(HaveOccurred(), "exec into a pod of the lost node still works")

		By("starting it again")
		out, err = localCluster("start", lost).CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), "%s", out)
		n, err := clientset.CoreV1().Nodes().Get(ctx, lost, metav1.GetOptions{})
		Expect(err).NotTo(HaveOccurred())
		Expect(readyStatus(n)).To(Equal(corev1.ConditionTrue))
		awaitRunning(createPod(webPod("reborn", lost)))
	})
})

func readyStatus(n *corev1.Node) corev1.ConditionStatus {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status
		}
	}
	return ""
}

func internalIP(n *corev1.Node) string {
	for _, a := range n.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			return a.Address
		}
	}
	return ""
}

// webPod serves its node's name on the pod network; its log says where it serves.
func webPod(name, nodeName string) *corev1.Pod {
	script := fmt.Sprintf(`mkdir -p /www && printf %%s "$NODE" >/www/index.html && echo "serving $NODE" && exec httpd -f -v -p %d -h /www`, webPort)
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: map[string]string{"app": name}},
		Spec: corev1.PodSpec{
			NodeName:                      nodeName,
			TerminationGracePeriodSeconds: ptr(int64(1)),
			Containers: []corev1.Container{{
				Name:            "web",
				Image:           image,
				ImagePullPolicy: corev1.PullNever,
				Command:         []string{"sh", "-c", script},
				Env: []corev1.EnvVar{{Name: "NODE", ValueFrom: &corev1.EnvVarSource{
					FieldRef: &corev1.ObjectFieldSelector{FieldPath: "spec.nodeName"},
				}}},
			}},
		},
	}
}

// hostPod serves its node's name on the node's address and resolves cluster names.
func hostPod(name, nodeName string) *corev1.Pod {
	p := webPod(name, nodeName)
	p.Spec.HostNetwork = true
	p.Spec.DNSPolicy = corev1.DNSClusterFirstWithHostNet
	script := fmt.Sprintf(`mkdir -p /www && printf %%s "$NODE" >/www/index.html && echo "serving $NODE" && exec httpd -f -v -p "$HOST_IP:%d" -h /www`, hostPort)
	p.Spec.Containers[0].Command = []string{"sh", "-c", script}
	p.Spec.Containers[0].Env = append(p.Spec.Containers[0].Env, corev1.EnvVar{Name: "HOST_IP", ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.hostIP"},
	}})
	return p
}

func createPod(p *corev1.Pod) *corev1.Pod {
	GinkgoHelper()
	created, err := clientset.CoreV1().Pods(namespace).Create(ctx, p, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
	return created
}

func createService(name string, selector map[string]string) {
	GinkgoHelper()
	_, err := clientset.CoreV1().Services(namespace).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: namespace},
		Spec: corev1.ServiceSpec{
			Selector: selector,
			Ports:    []corev1.ServicePort{{Port: 80, TargetPort: intstr.FromInt32(webPort)}},
		},
	}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
}

func awaitRunning(p *corev1.Pod) *corev1.Pod {
	GinkgoHelper()
	var got *corev1.Pod
	Eventually(func(g Gomega) {
		var err error
		got, err = clientset.CoreV1().Pods(namespace).Get(ctx, p.Name, metav1.GetOptions{})
		g.Expect(err).NotTo(HaveOccurred())
		g.Expect(got.Status.Phase).To(Equal(corev1.PodRunning), "pod %s on %s: %+v", p.Name, p.Spec.NodeName, got.Status)
		g.Expect(got.Status.PodIP).NotTo(BeEmpty())
	}).WithTimeout(2 * time.Minute).Should(Succeed())
	return got
}

// tryFetch asks a URL from inside a pod, with a short timeout: a NetworkPolicy's
// denial is a timeout. timeout(1), not wget's -T, which crashes Debian's static
// busybox.
func tryFetch(from *corev1.Pod, url string) (string, error) {
	out, err := kubectl("-n", namespace, "exec", from.Name, "--", "timeout", "5", "wget", "-q", "-O", "-", url).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("wget %s in %s: %w: %s", url, from.Name, err, out)
	}
	return string(out), nil
}

// fetch is tryFetch that retries for a while: a new Service's rules reach every
// node's kube-proxy a moment after it is created.
func fetch(from *corev1.Pod, url string) string {
	GinkgoHelper()
	var body string
	Eventually(func() (err error) {
		body, err = tryFetch(from, url)
		return err
	}).WithTimeout(30 * time.Second).Should(Succeed())
	return body
}

func ptr[T any](v T) *T { return &v }

// net1Address is a pod's address on its first attachment, read inside the pod.
func net1Address(p *corev1.Pod) string {
	GinkgoHelper()
	out, err := kubectl("-n", namespace, "exec", p.Name, "--", "ip", "-4", "-o", "addr", "show", "net1").CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s", out)
	f := strings.Fields(string(out))
	for i := range f {
		if f[i] == "inet" && i+1 < len(f) {
			return strings.Split(f[i+1], "/")[0]
		}
	}
	Fail(fmt.Sprintf("pod %s has no IPv4 address on net1: %s", p.Name, out))
	return ""
}

// switchBytes is what the data network's switch received on its ports, from the
// kernel's counters.
func switchBytes() int64 {
	GinkgoHelper()
	n, err := localcluster.DataSwitchReceived()
	Expect(err).NotTo(HaveOccurred())
	return n
}
