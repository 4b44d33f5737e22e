package controllers

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// nameNodeWeb answers as a NameNode's web server does at the two addresses the
// operator asks: the NameNodeStatus bean and /conf, in JSON. It stands in for the web
// port alone; the end-to-end suite asks a real NameNode.
type nameNodeWeb struct {
	*httptest.Server
	mu          sync.Mutex
	state       string
	replication string
}

func newNameNodeWeb(state, replication string) *nameNodeWeb {
	nn := &nameNodeWeb{state: state, replication: replication}
	nn.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		nn.mu.Lock()
		defer nn.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/jmx":
			if r.URL.Query().Get("qry") != "Hadoop:service=NameNode,name=NameNodeStatus" {
				http.Error(w, "unexpected query", http.StatusBadRequest)
				return
			}
			fmt.Fprintf(w, `{"beans":[{"name":"Hadoop:service=NameNode,name=NameNodeStatus","State":%q,"SecurityEnabled":false}]}`, nn.state)
		case "/conf":
			// One property in JSON, as ConfServlet answers ?name= with Accept: application/json.
			values := map[string]string{"dfs.replication": nn.replication, "dfs.blocksize": "256m"}
			name := r.URL.Query().Get("name")
			value, ok := values[name]
			if !ok || !strings.Contains(r.Header.Get("Accept"), "application/json") {
				http.Error(w, "unexpected request", http.StatusBadRequest)
				return
			}
			fmt.Fprintf(w, `{"property":{"key":%q,"value":%q,"isFinal":false,"resource":"hdfs-site.xml"}}`, name, value)
		default:
			http.NotFound(w, r)
		}
	}))
	DeferCleanup(nn.Close)
	return nn
}

// nameNode is the server's address as a NameNode entry of the spec.
func (nn *nameNodeWeb) nameNode() v1alpha1.HDFSNameNode {
	host, port, err := net.SplitHostPort(nn.Listener.Addr().String())
	Expect(err).NotTo(HaveOccurred())
	p, err := strconv.Atoi(port)
	Expect(err).NotTo(HaveOccurred())
	return v1alpha1.HDFSNameNode{Host: host, RPCPort: 8020, HTTPPort: int32(p)}
}

func (nn *nameNodeWeb) address() string { return nn.Listener.Addr().String() }

// hdfsClientFiles reads the backend's client ConfigMap as properties per file.
func hdfsClientFiles(sb *v1alpha1.StorageBackend) func(Gomega) map[string]map[string]string {
	return func(g Gomega) map[string]map[string]string {
		cm := &corev1.ConfigMap{}
		g.Expect(k8sClient.Get(ctx, client.ObjectKey{Namespace: sb.Namespace, Name: sb.Name + "-hdfs-client"}, cm)).To(Succeed())
		g.Expect(metav1.IsControlledBy(cm, fresh(sb)(g))).To(BeTrue(), "the client ConfigMap goes with its StorageBackend")
		out := map[string]map[string]string{}
		for file, text := range cm.Data {
			props, err := hadoop.ParseConfigurationXML(text)
			g.Expect(err).NotTo(HaveOccurred(), file)
			out[file] = props
		}
		return out
	}
}

func discoveryConfigMap(ns, name string, core, site map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Data: map[string]string{
			"core-site.xml": hadoop.ConfigurationXMLFrom("discovery", core),
			"hdfs-site.xml": hadoop.ConfigurationXMLFrom("discovery", site),
		},
	}
}

var _ = Describe("StorageBackend on HDFS", Label("envtest"), func() {
	It("asks the NameNode given by address and renders a client ConfigMap with its replication", func() {
		ns := createNamespace("hdfs")
		nn := newNameNodeWeb("active", "2")
		sb := readyHDFSBackend(ns, "baseline", nn)

		got := fresh(sb)(Default)
		Expect(got.Status.Mode).To(Equal(v1alpha1.StorageBackendModeHDFS))
		Expect(got.Status.HDFS).To(Equal(&v1alpha1.HDFSStatus{
			DefaultFS:   "hdfs://127.0.0.1:8020",
			NameNodes:   []v1alpha1.HDFSNameNodeStatus{{HTTPAddress: nn.address(), State: "active"}},
			Replication: 2,
			BlockSize:   256 << 20,
		}))
		Expect(got.Status.FilesystemName).To(Equal("hdfs://127.0.0.1:8020"))
		Expect(got.Status.RawOverhead).To(Equal("2"))
		Expect(got.Status.ClientConfigMap).To(Equal("baseline-hdfs-client"))
		Expect(got.Status.ClientConfigHash).NotTo(BeEmpty())
		Expect(got.Status.ClientConfigSecret).To(BeEmpty(), "an HDFS backend has no Ceph client")
		Expect(conditionsOf(Default, got)).NotTo(ContainElement(HaveField("Type", v1alpha1.ConditionClientReady)))

		files := hdfsClientFiles(sb)(Default)
		Expect(files["core-site.xml"]).To(Equal(map[string]string{"fs.defaultFS": "hdfs://127.0.0.1:8020"}))
		Expect(files["hdfs-site.xml"]).To(HaveKeyWithValue("dfs.replication", "2"), "files are written with the NameNode's own replication")
		Expect(files["hdfs-site.xml"]).To(HaveKeyWithValue("dfs.blocksize", strconv.Itoa(256<<20)))
	})

	It("reads a discovery ConfigMap, follows its changes and finds the active NameNode of a nameservice", func() {
		ns := createNamespace("hdfs")
		standby, active := newNameNodeWeb("standby", "3"), newNameNodeWeb("active", "3")
		sb := &v1alpha1.StorageBackend{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "stackable"},
			Spec:       v1alpha1.StorageBackendSpec{HDFS: &v1alpha1.HDFSSpec{DiscoveryConfigMap: &v1alpha1.LocalObjectReference{Name: "simple-hdfs"}}},
		}
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())

		By("saying the ConfigMap is missing")
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("False/ConfigMapNotFound"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemReady)(Default)).To(ContainSubstring("spec.hdfs.discoveryConfigMap"))
		Expect(condition(sb, v1alpha1.ConditionClientConfigReady)(Default)).To(Equal("False/DependencyNotReady"))

		By("naming what a ConfigMap without fs.defaultFS lacks")
		cm := discoveryConfigMap(ns, "simple-hdfs", map[string]string{"hadoop.security.authentication": "simple"}, nil)
		Expect(k8sClient.Create(ctx, cm)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionFilesystemReady)).Should(Equal("False/InvalidDiscoveryConfigMap"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemReady)(Default)).To(ContainSubstring("core-site.xml has no fs.defaultFS"))

		By("becoming Ready on the nameservice's active NameNode")
		site := map[string]string{
			"dfs.nameservices":                               "simple-hdfs",
			"dfs.ha.namenodes.simple-hdfs":                   "name-0,name-1",
			"dfs.namenode.rpc-address.simple-hdfs.name-0":    "simple-hdfs-namenode-0.simple-hdfs-namenode:8020",
			"dfs.namenode.rpc-address.simple-hdfs.name-1":    "simple-hdfs-namenode-1.simple-hdfs-namenode:8020",
			"dfs.namenode.http-address.simple-hdfs.name-0":   standby.address(),
			"dfs.namenode.http-address.simple-hdfs.name-1":   active.address(),
			"dfs.client.failover.proxy.provider.simple-hdfs": "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider",
		}
		cm.Data = discoveryConfigMap(ns, "simple-hdfs", map[string]string{"fs.defaultFS": "hdfs://simple-hdfs/"}, site).Data
		Expect(k8sClient.Update(ctx, cm)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
		Expect(conditionMessage(sb, v1alpha1.ConditionFilesystemReady)(Default)).To(ContainSubstring("NameNode " + active.address() + " is active"))
		got := freshBackend(sb)
		Expect(got.Status.HDFS.DefaultFS).To(Equal("hdfs://simple-hdfs"))
		Expect(got.Status.HDFS.NameNodes).To(Equal([]v1alpha1.HDFSNameNodeStatus{
			{HTTPAddress: standby.address(), State: "standby"},
			{HTTPAddress: active.address(), State: "active"},
		}))
		files := hdfsClientFiles(sb)(Default)
		for k, v := range site {
			Expect(files["hdfs-site.xml"]).To(HaveKeyWithValue(k, v))
		}
		hash := got.Status.ClientConfigHash

		By("keeping the ConfigMap's own replication, and following its changes")
		site["dfs.replication"] = "1"
		cm.Data = discoveryConfigMap(ns, "simple-hdfs", map[string]string{"fs.defaultFS": "hdfs://simple-hdfs/"}, site).Data
		Expect(k8sClient.Update(ctx, cm)).To(Succeed())
		Eventually(func(g Gomega) int32 { return freshBackend(sb).Status.HDFS.Replication }).Should(Equal(int32(1)))
		Expect(freshBackend(sb).Status.ClientConfigHash).NotTo(Equal(hash))
		Expect(hdfsClientFiles(sb)(Default)["hdfs-site.xml"]).To(HaveKeyWithValue("dfs.replication", "1"))
	})

	It("says when no NameNode answers, and keeps the HadoopClusters waiting", func() {
		ns := createNamespace("hdfs")
		closed := newNameNodeWeb("active", "3")
		address := closed.nameNode()
		closed.Close()
		sb := &v1alpha1.StorageBackend{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "down"},
			Spec:       v1alpha1.StorageBackendSpec{HDFS: &v1alpha1.HDFSSpec{NameNodes: []v1alpha1.HDFSNameNode{address}}},
		}
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("False/NameNodeUnreachable"))
		Expect(freshBackend(sb).Status.HDFS.NameNodes).To(ConsistOf(HaveField("State", "unreachable")))

		hc := createCluster(ns, "waits", "down")
		Eventually(condition(hc, v1alpha1.ConditionStorageReady)).Should(Equal("False/StorageBackendNotReady"))
	})

	It("gives a HadoopCluster on it HDFS as its default file system and no Ceph client", func() {
		ns := createNamespace("hdfs")
		nn := newNameNodeWeb("active", "3")
		sb := readyHDFSBackend(ns, "baseline", nn)

		hc := createCluster(ns, "on-hdfs", "baseline")
		Eventually(condition(hc, v1alpha1.ConditionStorageReady)).Should(Equal("True/Reconciled"))
		Expect(conditionMessage(hc, v1alpha1.ConditionStorageReady)(Default)).To(ContainSubstring("HDFS hdfs://127.0.0.1:8020"))

		cm := &corev1.ConfigMap{}
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "on-hdfs-config"}, cm)
		}).Should(Succeed())
		core, err := hadoop.ParseConfigurationXML(cm.Data["core-site.xml"])
		Expect(err).NotTo(HaveOccurred())
		Expect(core).To(HaveKeyWithValue("fs.defaultFS", "hdfs://127.0.0.1:8020"))
		site, err := hadoop.ParseConfigurationXML(cm.Data["hdfs-site.xml"])
		Expect(err).NotTo(HaveOccurred())
		Expect(site).To(HaveKeyWithValue("dfs.replication", "3"))

		nms := &appsv1.StatefulSet{}
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKey{Namespace: ns, Name: "on-hdfs-nodemanager"}, nms)
		}).Should(Succeed())
		for _, v := range nms.Spec.Template.Spec.Volumes {
			Expect(v.Secret).To(BeNil(), "volume %s: a cluster on HDFS mounts no Ceph client", v.Name)
		}
		configHash := nms.Spec.Template.Annotations[hadoop.ConfigHashAnnotation]

		By("rolling the pods when the HDFS client configuration changes")
		nn.mu.Lock()
		nn.replication = "2"
		nn.mu.Unlock()
		// The NameNode is asked again on the next pass: a spec change starts one now.
		Eventually(func(g Gomega) {
			b := freshBackend(sb)
			b.Labels = map[string]string{"touched": strconv.Itoa(int(b.Generation))}
			g.Expect(k8sClient.Update(ctx, b)).To(Succeed())
		}).Should(Succeed())
		Eventually(func(g Gomega) string {
			g.Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(nms), nms)).To(Succeed())
			return nms.Spec.Template.Annotations[hadoop.ConfigHashAnnotation]
		}).ShouldNot(Equal(configHash))
	})
})

// readyHDFSBackend is an HDFS StorageBackend on the NameNode nn, once Ready.
func readyHDFSBackend(ns, name string, nn *nameNodeWeb) *v1alpha1.StorageBackend {
	GinkgoHelper()
	sb := &v1alpha1.StorageBackend{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       v1alpha1.StorageBackendSpec{HDFS: &v1alpha1.HDFSSpec{NameNodes: []v1alpha1.HDFSNameNode{nn.nameNode()}}},
	}
	Expect(k8sClient.Create(ctx, sb)).To(Succeed())
	Eventually(condition(sb, v1alpha1.ConditionReady)).Should(Equal("True/Reconciled"))
	return sb
}

func freshBackend(sb *v1alpha1.StorageBackend) *v1alpha1.StorageBackend {
	return fresh(sb)(Default)
}
