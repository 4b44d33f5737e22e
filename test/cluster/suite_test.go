//go:build cluster

// Package cluster checks the local Kubernetes's nodes as a whole: that several real
// kubelets on one host behave as several machines do. It runs against a cluster that
// hack/cluster/up.sh started with HCO_CLUSTER_NODES of 2 or more (`make cluster-test`).
package cluster

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

var (
	ctx        context.Context
	clientset  kubernetes.Interface
	restConfig *rest.Config
	// namespace holds this run's pods, deleted at the end unless a spec failed.
	namespace string
	// image is a busybox image present on every node (hack/cluster/busybox-image.sh).
	image string
	// registryImage is the same image in the cluster's registry, which no node has
	// imported.
	registryImage string
	// wantNodes is the node count the cluster was started with.
	wantNodes int
)

func TestCluster(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Local cluster nodes", Label("cluster"))
}

var _ = BeforeSuite(func() {
	SetDefaultEventuallyPollingInterval(time.Second)
	var cancel context.CancelFunc
	ctx, cancel = context.WithCancel(context.Background())
	DeferCleanup(cancel)

	kubeconfig := os.Getenv("KUBECONFIG")
	Expect(kubeconfig).NotTo(BeEmpty(), "KUBECONFIG must name the local cluster's kubeconfig")
	image = os.Getenv("BUSYBOX_IMAGE")
	Expect(image).NotTo(BeEmpty(), "BUSYBOX_IMAGE must name an image on every node (hack/cluster/busybox-image.sh)")
	registryImage = os.Getenv("REGISTRY_IMAGE")
	Expect(registryImage).NotTo(BeEmpty(), "REGISTRY_IMAGE must name that image in the cluster's registry (hack/images/push.sh)")
	var err error
	wantNodes, err = strconv.Atoi(os.Getenv("HCO_CLUSTER_NODES"))
	Expect(err).NotTo(HaveOccurred(), "HCO_CLUSTER_NODES must say how many nodes the cluster has")
	Expect(wantNodes).To(BeNumerically(">=", 2), "these specs need two nodes or more")
	Expect(os.Getenv("LOCAL_CLUSTER")).NotTo(BeEmpty(), "LOCAL_CLUSTER must name cmd/local-cluster's binary")

	restConfig, err = clientcmd.BuildConfigFromFlags("", kubeconfig)
	Expect(err).NotTo(HaveOccurred())
	clientset, err = kubernetes.NewForConfig(restConfig)
	Expect(err).NotTo(HaveOccurred())

	namespace = "hco-nodes-" + rand.String(5)
	_, err = clientset.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
	Expect(err).NotTo(HaveOccurred())
})

var failed bool

var _ = AfterEach(func() {
	if CurrentSpecReport().Failed() {
		failed = true
	}
})

var _ = AfterSuite(func() {
	if namespace == "" {
		return
	}
	if failed {
		GinkgoWriter.Printf("namespace %s is left for a look\n", namespace)
		return
	}
	Expect(clientset.CoreV1().Namespaces().Delete(context.Background(), namespace, metav1.DeleteOptions{})).To(Succeed())
})

// kubectl runs $KUBECTL (make passes the pinned build) against the cluster.
func kubectl(args ...string) *exec.Cmd {
	bin := os.Getenv("KUBECTL")
	if bin == "" {
		bin = "kubectl"
	}
	return exec.CommandContext(ctx, bin, args...)
}

// localCluster runs $LOCAL_CLUSTER, the workers' launcher (hack/cluster/env.sh).
func localCluster(args ...string) *exec.Cmd {
	return exec.CommandContext(ctx, os.Getenv("LOCAL_CLUSTER"), args...)
}
