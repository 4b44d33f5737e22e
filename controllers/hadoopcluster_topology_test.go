package controllers

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// fakeNodeManagers answers for the NodeManagers of the specs' pods: the real client of
// the REST API, with a server of the suite in place of each NodeManager a spec gave an
// answer, at its pod's address. At any other address nothing answers, as at
// markReady's. The ResourceManagers' node lists are the real client's, at their
// Services, which do not resolve here.
type fakeNodeManagers struct {
	*yarn.Client

	mu      sync.Mutex
	servers map[string]*httptest.Server
	asked   map[string]int
}

func newFakeNodeManagers() *fakeNodeManagers {
	return &fakeNodeManagers{Client: yarn.NewClient(hadoop.HadoopUser), servers: map[string]*httptest.Server{}, asked: map[string]int{}}
}

func (f *fakeNodeManagers) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, s := range f.servers {
		s.Close()
	}
}

func (f *fakeNodeManagers) NodeManagerIdentity(ctx context.Context, host string, port int) (yarn.NodeIdentity, error) {
	f.mu.Lock()
	f.asked[host]++
	server := f.servers[host]
	f.mu.Unlock()
	if server == nil || port != hadoop.PortNMWeb {
		return yarn.NodeIdentity{}, fmt.Errorf("nothing answers at %s", net.JoinHostPort(host, fmt.Sprint(port)))
	}
	addr := server.Listener.Addr().(*net.TCPAddr)
	return f.Client.NodeManagerIdentity(ctx, addr.IP.String(), addr.Port)
}

// answer makes the NodeManager at podIP say that it registered as yarnHost, in the
// shape internal/yarn/testdata shows.
func (f *fakeNodeManagers) answer(podIP, yarnHost string) {
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ws/v1/node/info" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"nodeInfo":{"id":"%s:%d","nodeHostName":"%s","nodeManagerVersion":"3.4.2"}}`, yarnHost, hadoop.PortNMRPC, yarnHost)
	}))
	f.mu.Lock()
	defer f.mu.Unlock()
	f.servers[podIP] = server
}

// timesAsked is how often the operator asked the NodeManager at podIP.
func (f *fakeNodeManagers) timesAsked(podIP string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asked[podIP]
}

var _ = Describe("HadoopCluster topology", Label("envtest"), func() {
	var ns string

	BeforeEach(func() {
		ns = createNamespace("topology")
		readyExternalBackend(ns, "ext")
	})

	// runNodeManager creates NodeManager pod ordinal of sts on node, ready at ip and
	// current (playStatefulSet's revision), as the StatefulSet controller, the
	// scheduler and the kubelet would.
	runNodeManager := func(sts *appsv1.StatefulSet, ordinal int, node, ip string) *corev1.Pod {
		labels := map[string]string{appsv1.ControllerRevisionHashLabelKey: sts.Name + "-1"}
		maps.Copy(labels, sts.Spec.Template.Labels)
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: sts.Namespace, Name: fmt.Sprintf("%s-%d", sts.Name, ordinal), Labels: labels},
			Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "nodemanager", Image: "hadoop"}}},
		}
		Expect(k8sClient.Create(ctx, pod)).To(Succeed())
		markReadyAt(pod, ip)
		return pod
	}
	configHashes := func(g Gomega, objs *clusterObjects) map[string]string {
		out := map[string]string{}
		for _, sts := range objs.StatefulSets() {
			g.Expect(get(sts)()).To(Succeed())
			out[sts.Name] = fmt.Sprintf("generation %d, %s", sts.Generation, sts.Spec.Template.Annotations[hadoop.ConfigHashAnnotation])
		}
		return out
	}

	It("maps each node to the YARN hosts of its NodeManagers, asks each pod once, and rolls no pod", func() {
		hc := createCluster(ns, "mapped", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.NodeManagers.Replicas = ptr.To[int32](3)
		})
		objs := childrenOf(hc)
		for _, obj := range objs.All() {
			Eventually(get(obj)).Should(Succeed())
		}
		topology := objs.Topology
		Expect(metav1.IsControlledBy(topology, fresh(hc)(Default))).To(BeTrue())
		Expect(topology.Labels).To(HaveKeyWithValue(hadoop.LabelInstance, hc.Name))
		Expect(topology.Data[hadoop.FileTopologyHosts]).To(HavePrefix("# Rendered by hadoop-ceph-operator"))
		Expect(objs.ConfigMap.Data[hadoop.FileCoreSite]).To(ContainSubstring(
			"<name>" + hadoop.KeyLocalityHostsFile + "</name>\n    <value>" + hadoop.TopologyDir + "/" + hadoop.FileTopologyHosts + "</value>"))
		for _, sts := range objs.StatefulSets() {
			expectTopologyMounted(sts.Spec.Template, hc)
		}
		hashes := configHashes(Default, objs)

		By("asking the NodeManagers of ready pods, and leaving out one that does not answer yet")
		host := func(ordinal int) string {
			return fmt.Sprintf("%s-%d.%s.%s.svc.cluster.local", objs.NodeManagers.Name, ordinal, objs.NodeManagers.Name, ns)
		}
		nodeManagers.answer("198.51.100.10", host(0))
		nodeManagers.answer("198.51.100.11", host(1))
		nm0 := runNodeManager(objs.NodeManagers, 0, "worker-a", "198.51.100.10")
		nm1 := runNodeManager(objs.NodeManagers, 1, "worker-a", "198.51.100.11")
		nm2 := runNodeManager(objs.NodeManagers, 2, "worker-b", "198.51.100.12")
		// The StatefulSet controller reports the pods ready, which brings a pass.
		playStatefulSet(objs.NodeManagers, 3)
		hostsFile := func(g Gomega) string {
			g.Expect(get(topology)()).To(Succeed())
			return topology.Data[hadoop.FileTopologyHosts]
		}
		Eventually(hostsFile).Should(HaveSuffix("\nworker-a " + host(0) + " " + host(1) + "\n"))
		Eventually(func(g Gomega) []v1alpha1.NodeManagerHost { return fresh(hc)(g).Status.NodeManagerHosts }).Should(Equal([]v1alpha1.NodeManagerHost{
			{Pod: nm0.Name, UID: string(nm0.UID), NodeName: "worker-a", YARNHost: host(0)},
			{Pod: nm1.Name, UID: string(nm1.UID), NodeName: "worker-a", YARNHost: host(1)},
		}))
		// Passes that pods' creations brought may have come before it was ready.
		Eventually(func() int { return nodeManagers.timesAsked("198.51.100.12") }).Should(BeNumerically(">=", 1))

		By("asking the silent one again shortly, without any event")
		nodeManagers.answer("198.51.100.12", host(2))
		Eventually(hostsFile).WithTimeout(30 * time.Second).Should(HaveSuffix(
			"\nworker-a " + host(0) + " " + host(1) + "\nworker-b " + host(2) + "\n"))
		Eventually(func(g Gomega) []string {
			var pods []string
			for _, h := range fresh(hc)(g).Status.NodeManagerHosts {
				pods = append(pods, h.Pod+"@"+h.NodeName)
			}
			return pods
		}).Should(Equal([]string{nm0.Name + "@worker-a", nm1.Name + "@worker-a", nm2.Name + "@worker-b"}))

		By("asking no NodeManager on record again, whatever brings a pass")
		asked := nodeManagers.timesAsked("198.51.100.10")
		playStatefulSet(objs.NodeManagers, 2)
		playStatefulSet(objs.NodeManagers, 3)
		Consistently(func() int { return nodeManagers.timesAsked("198.51.100.10") }, 2*time.Second, 200*time.Millisecond).Should(Equal(asked))

		By("asking the replacement of a pod, by its new UID, and forgetting the old one")
		Expect(k8sClient.Delete(ctx, nm1, client.GracePeriodSeconds(0))).To(Succeed())
		Eventually(func() bool {
			return apierrors.IsNotFound(k8sClient.Get(ctx, client.ObjectKeyFromObject(nm1), &corev1.Pod{}))
		}).Should(BeTrue())
		nodeManagers.answer("198.51.100.13", host(1))
		replacement := runNodeManager(objs.NodeManagers, 1, "worker-b", "198.51.100.13")
		Expect(replacement.UID).NotTo(Equal(nm1.UID))
		playStatefulSet(objs.NodeManagers, 2)
		Eventually(hostsFile).Should(HaveSuffix("\nworker-a " + host(0) + "\nworker-b " + host(1) + " " + host(2) + "\n"))
		Eventually(func(g Gomega) []v1alpha1.NodeManagerHost { return fresh(hc)(g).Status.NodeManagerHosts }).Should(ContainElement(
			v1alpha1.NodeManagerHost{Pod: replacement.Name, UID: string(replacement.UID), NodeName: "worker-b", YARNHost: host(1)}))
		Expect(fresh(hc)(Default).Status.NodeManagerHosts).To(HaveLen(3))
		Expect(nodeManagers.timesAsked("198.51.100.13")).To(BeNumerically(">=", 1))

		By("leaving the StatefulSets and their configuration hash as they were")
		Expect(configHashes(Default, objs)).To(Equal(hashes))
		Expect(events(hc)(Default)).NotTo(ContainElement("Normal/" + v1alpha1.EventReasonConfigChanged))
	})

	It("lists each node's NodeManagers under every name Ceph may give the node's CRUSH host", func() {
		// A dotted node name whose label is the same, which Rook's CRUSH host has with
		// dashes, and a node whose label differs from its name, as on some clouds.
		for name, label := range map[string]string{"ip-10-0-1-7.ec2.internal": "ip-10-0-1-7.ec2.internal", "n3.topology.test": "n3"} {
			node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: label}}}
			Expect(k8sClient.Create(ctx, node)).To(Succeed())
			DeferCleanup(func() { Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, node))).To(Succeed()) })
		}
		hc := createCluster(ns, "crush", "ext", func(s *v1alpha1.HadoopClusterSpec) {
			s.NodeManagers.Replicas = ptr.To[int32](2)
		})
		objs := childrenOf(hc)
		Eventually(get(objs.NodeManagers)).Should(Succeed())
		nodeManagers.answer("198.51.100.20", "10.0.1.7")
		nodeManagers.answer("198.51.100.21", "10.0.1.8")
		runNodeManager(objs.NodeManagers, 0, "ip-10-0-1-7.ec2.internal", "198.51.100.20")
		runNodeManager(objs.NodeManagers, 1, "n3.topology.test", "198.51.100.21")
		playStatefulSet(objs.NodeManagers, 2)
		Eventually(func(g Gomega) string {
			g.Expect(get(objs.Topology)()).To(Succeed())
			return objs.Topology.Data[hadoop.FileTopologyHosts]
		}).Should(HaveSuffix("\n" +
			"ip-10-0-1-7-ec2-internal 10.0.1.7\n" +
			"ip-10-0-1-7.ec2.internal 10.0.1.7\n" +
			"n3 10.0.1.8\n" +
			"n3.topology.test 10.0.1.8\n"))
	})

	It("mounts the topology into the BenchmarkRun stages, whose job clients compute the splits", func() {
		hc := readyCluster(ns, "bench")
		run := createRun(ns, "words", "bench", wordCount)
		job := stageJob(run, v1alpha1.StageWordCount, 1)
		expectTopologyMounted(job.Spec.Template, hc)
	})
})

// expectTopologyMounted checks that every container of pod mounts hc's topology
// ConfigMap, optional, read-only at the directory core-site.xml names.
func expectTopologyMounted(pod corev1.PodTemplateSpec, hc *v1alpha1.HadoopCluster) {
	GinkgoHelper()
	var volume string
	for _, v := range pod.Spec.Volumes {
		if v.ConfigMap != nil && v.ConfigMap.Name == hadoop.TopologyConfigMapName(hc) {
			Expect(v.ConfigMap.Optional).To(HaveValue(BeTrue()), "a pod may start before the ConfigMap exists")
			volume = v.Name
		}
	}
	Expect(volume).NotTo(BeEmpty(), "no volume of ConfigMap %s", hadoop.TopologyConfigMapName(hc))
	for _, c := range append(pod.Spec.InitContainers, pod.Spec.Containers...) {
		Expect(c.VolumeMounts).To(ContainElement(corev1.VolumeMount{Name: volume, MountPath: hadoop.TopologyDir, ReadOnly: true}), c.Name)
	}
}
