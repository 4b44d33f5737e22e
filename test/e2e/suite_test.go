//go:build e2e

package e2e

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/repo"
)

// The end-to-end suite runs on the local Kubernetes of hack/cluster with three nodes (a
// real etcd, kube-apiserver, controller-manager, scheduler, and a kubelet with its own
// containerd per node), with the local Ceph of hack/ceph as an external StorageBackend,
// the operator's and Hadoop's images of hack/images pulled by every node from the
// cluster's registry, and the operator installed by its Helm chart. `make e2e` brings all of that up first (hack/local/up.sh); the suite
// installs the chart itself, so its first spec is the install.
//
// The suite's Hadoop clusters run on the host network and advertise their node's
// address on the nodes' link (hco-node0), where the suite reaches their REST APIs; the
// local Ceph listens on an address of the host that every node routes to. Midway the
// suite installs Rook (hack/rook/up.sh), one mon and one OSD on each node, with Ceph's
// public and cluster networks on the nodes' data links through Rook's Multus provider
// (rooknet_test.go).

var (
	ctx       context.Context
	k8sClient client.Client
	repoRoot  string
	// namespace holds everything this run creates, so runs never see each other's
	// objects and one namespace deletion cleans up.
	namespace string
	// cephRoot is Hadoop's root directory on CephFS for this run.
	cephRoot string
)

func TestE2E(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "End-to-end", Label("e2e"))
}

// suiteNodes is how many nodes the suite's cluster has: a mon, an OSD and a
// NodeManager's place on each.
const suiteNodes = 3

// suiteNamespaceLabel marks the namespaces this suite creates, so that a later run
// can tell them from a user's (the demo's, say) and remove them.
const suiteNamespaceLabel = "e2e.hadoopceph.io/run"

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	SetDefaultEventuallyPollingInterval(2 * time.Second)
	var cancel context.CancelFunc
	ctx, cancel = context.WithCancel(context.Background())
	DeferCleanup(cancel)

	var err error
	repoRoot, err = repo.Root()
	Expect(err).NotTo(HaveOccurred())

	kubeconfig := os.Getenv("KUBECONFIG")
	Expect(kubeconfig).NotTo(BeEmpty(), "KUBECONFIG must name the local cluster's kubeconfig (make e2e sets it)")
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	Expect(err).NotTo(HaveOccurred())
	k8sClient, err = client.New(cfg, client.Options{Scheme: newScheme()})
	Expect(err).NotTo(HaveOccurred())

	// The story checks the operator without Rook, then installs Rook while it runs: a
	// Rook left by the demo or an earlier run goes first, and an operator that
	// watched it starts again without it.
	leftovers := false
	if err := k8sClient.List(ctx, &cephv1.CephClusterList{}, client.Limit(1)); !meta.IsNoMatchError(err) {
		By("removing the local Rook that an earlier run or the demo left (hack/rook/down.sh)")
		runLogged(command("hack/rook/down.sh"))
		leftovers = true
	}
	// Likewise Multus's CRD: the local cluster installs it with Multus, and the
	// operator's restart spec installs it again while the operator runs; an operator
	// started with it served would have nothing to restart for. The Multus daemons
	// keep serving pods that ask for no attachment meanwhile.
	multus := &apiextensionsv1.CustomResourceDefinition{ObjectMeta: metav1.ObjectMeta{Name: multusCRD}}
	if err := k8sClient.Get(ctx, client.ObjectKeyFromObject(multus), multus); err == nil {
		By("removing the Multus CRD (the local cluster's, or one an earlier run installed)")
		mustRun(kubectl("delete", "crd", multusCRD, "--wait"))
		leftovers = true
	} else {
		Expect(apierrors.IsNotFound(err)).To(BeTrue(), "looking up CRD %s: %v", multusCRD, err)
	}
	if leftovers {
		if err := k8sClient.Get(ctx, client.ObjectKey{Namespace: operatorNamespace, Name: operatorRelease}, &appsv1.Deployment{}); err == nil {
			mustRun(kubectl("-n", operatorNamespace, "rollout", "restart", "deployment/"+operatorRelease))
			mustRun(kubectl("-n", operatorNamespace, "rollout", "status", "deployment/"+operatorRelease, "--timeout=3m"))
		}
	}

	// An interrupted run leaves its namespace, and the HadoopClusters in it hold the
	// node's ports: the suite's own namespaces (by their label) go too. After Rook: a
	// Rook-mode StorageBackend that deletes its Rook objects would wait for a Rook that
	// is going, while one whose Rook is gone has nothing to wait for.
	leftNamespaces := &corev1.NamespaceList{}
	Expect(k8sClient.List(ctx, leftNamespaces, client.HasLabels{suiteNamespaceLabel})).To(Succeed())
	for _, ns := range leftNamespaces.Items {
		By("removing namespace " + ns.Name + ", left by an interrupted run")
		Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, &ns))).To(Succeed())
	}
	for _, ns := range leftNamespaces.Items {
		Eventually(func() error {
			return k8sClient.Get(ctx, client.ObjectKeyFromObject(&ns), &corev1.Namespace{})
		}).WithTimeout(5*time.Minute).Should(Satisfy(apierrors.IsNotFound),
			"namespace %s is still there: its StorageBackend's finalizer needs the operator running", ns.Name)
	}

	// Every Hadoop pod here takes its node's Hadoop ports (host network), so a
	// HadoopCluster left by the demo would keep this run's pods off a node.
	// On a fresh cluster the CRDs come with the operator, which the first spec installs.
	others := &v1alpha1.HadoopClusterList{}
	if err := k8sClient.List(ctx, others); !meta.IsNoMatchError(err) {
		Expect(err).NotTo(HaveOccurred())
	}
	for _, hc := range others.Items {
		Fail(fmt.Sprintf("HadoopCluster %s/%s runs on this cluster and holds a node's Hadoop ports: delete it first (kubectl delete namespace %s, or make demo-down for the demo's)",
			hc.Namespace, hc.Name, hc.Namespace))
	}

	// Rook's pools spread over hosts, and several specs place pods on several nodes.
	nodes := &corev1.NodeList{}
	Expect(k8sClient.List(ctx, nodes)).To(Succeed())
	Expect(nodes.Items).To(HaveLen(suiteNodes), "the suite runs on a local cluster of %d nodes (make e2e starts it)", suiteNodes)
	labelWorkers(nodes.Items)

	namespace = "e2e-" + rand.String(5)
	Expect(k8sClient.Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name: namespace, Labels: map[string]string{suiteNamespaceLabel: "true"},
	}})).To(Succeed())
	cephRoot = externalRoot(namespace)
	DeferCleanup(func() {
		// The data stays on CephFS on purpose (one spec checks that it does); the
		// namespace goes, and with it the StorageBackend, whose deletion keeps data.
		Expect(client.IgnoreNotFound(k8sClient.Delete(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}))).To(Succeed())
	})
})

var _ = AfterEach(func() {
	if CurrentSpecReport().Failed() {
		dumpState()
	}
})
