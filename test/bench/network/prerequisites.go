package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/localcluster"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/rook"
)

// What the local cluster's scripts set up (hack/local, hack/rook/env.sh).
const (
	clusterNodes      = 3
	operatorNamespace = "hadoop-ceph-operator"
	rookNamespace     = "rook-ceph"
	rookCluster       = "rook-ceph"
)

// publicNAD is Rook's public network on the data network (ROOK_PUBLIC_NAD), whose
// rate the benchmark declares.
var publicNAD = client.ObjectKey{Namespace: rookNamespace, Name: "ceph-public"}

var nadGVK = schema.GroupVersionKind{Group: "k8s.cni.cncf.io", Version: "v1", Kind: "NetworkAttachmentDefinition"}

// How to bring up what is missing, in the order it must come up.
const (
	upCluster  = "HCO_CLUSTER_NODES=3 hack/local/up.sh"
	upOperator = "hack/local/install-operator.sh"
	upRook     = "HCO_ROOK_NETWORK=multus hack/rook/up.sh"
)

// environment is where the local cluster's files are, as hack/cluster/env.sh puts
// them.
type environment struct {
	// kubeconfig is $KUBECONFIG, else the local cluster's.
	kubeconfig string
	// localCluster is the cluster's launcher, which sets the data network's rate.
	localCluster string
}

func newEnvironment() environment {
	home, _ := os.UserHomeDir()
	return environmentFrom(os.Getenv, home)
}

// environmentFrom reads the variables hack/cluster/env.sh reads, with its defaults.
func environmentFrom(getenv func(string) string, home string) environment {
	or := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	cache := or("HCO_CACHE", filepath.Join(home, ".cache", "hadoop-ceph-operator"))
	clusterDir := or("HCO_CLUSTER_DIR", filepath.Join(cache, "cluster"))
	return environment{
		kubeconfig:   or("KUBECONFIG", filepath.Join(clusterDir, "kubeconfig")),
		localCluster: or("LOCAL_CLUSTER", filepath.Join(cache, "bin", "local-cluster")),
	}
}

// dataRate runs `local-cluster data-rate RATE`, which changes tc's limit on every
// node's port of the data network's switch.
func (e environment) dataRate(ctx context.Context, rate string) error {
	cmd := exec.CommandContext(ctx, e.localCluster, "data-rate", rate)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s data-rate %s: %w", e.localCluster, rate, err)
	}
	return nil
}

func newScheme() *k8sruntime.Scheme {
	s := k8sruntime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(v1alpha1.AddToScheme(s))
	utilruntime.Must(cephv1.AddToScheme(s))
	return s
}

// checkPrerequisites checks, in the order they come up, what the benchmark runs on,
// and returns a client of the cluster. Each failure says what to run.
func checkPrerequisites(ctx context.Context, env environment, allowBusy bool) (client.Client, error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("the data network's rate (tc) and counters are in its switch's network namespace, which only root may enter: run as root (sudo -E make bench-network)")
	}
	if _, err := os.Stat(env.localCluster); err != nil {
		return nil, fmt.Errorf("no local-cluster launcher at %s (set LOCAL_CLUSTER to another): %s builds it", env.localCluster, upCluster)
	}
	if _, err := localcluster.DataSwitchReceived(); err != nil {
		return nil, fmt.Errorf("reading the data network's switch (network namespace %s): %w; %s makes it", localcluster.DataSwitchNS, err, upCluster)
	}
	rules := &clientcmd.ClientConfigLoadingRules{Precedence: filepath.SplitList(env.kubeconfig)}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w; start the local cluster with %s", env.kubeconfig, err, upCluster)
	}
	c, err := client.New(cfg, client.Options{Scheme: newScheme()})
	if err != nil {
		return nil, err
	}
	if err := checkNodes(ctx, c, env.kubeconfig); err != nil {
		return nil, err
	}
	if err := checkOperator(ctx, c); err != nil {
		return nil, err
	}
	if err := checkRook(ctx, c); err != nil {
		return nil, err
	}
	return c, checkIdle(ctx, c, allowBusy)
}

// checkNodes wants the local cluster's three nodes, Ready. One of them carries this
// host's name: a KUBECONFIG of another cluster would have the benchmark create its
// objects there while it limits this host's data network.
func checkNodes(ctx context.Context, c client.Client, kubeconfig string) error {
	nodes := &corev1.NodeList{}
	if err := c.List(ctx, nodes); err != nil {
		return fmt.Errorf("listing the nodes of the cluster of kubeconfig %s (is the local cluster running? %s starts it): %w", kubeconfig, upCluster, err)
	}
	host, err := os.Hostname()
	if err != nil {
		return err
	}
	host = strings.ToLower(host)
	names := make([]string, 0, len(nodes.Items))
	var notReady []string
	for _, n := range nodes.Items {
		names = append(names, n.Name)
		ready := slices.ContainsFunc(n.Status.Conditions, func(c corev1.NodeCondition) bool {
			return c.Type == corev1.NodeReady && c.Status == corev1.ConditionTrue
		})
		if !ready {
			notReady = append(notReady, n.Name)
		}
	}
	switch {
	case !slices.Contains(names, host):
		return fmt.Errorf("the cluster of kubeconfig %s has no node %s, this host: it is not the local cluster (unset KUBECONFIG to use the local cluster's)", kubeconfig, host)
	case len(names) != clusterNodes:
		return fmt.Errorf("the local cluster has %d nodes (%s) and the benchmark needs %d, a client and an OSD on each: %s, then %s (hack/rook/up.sh --replace-if-nodes-changed when Rook was made on other nodes)",
			len(names), strings.Join(names, ", "), clusterNodes, upCluster, upRook)
	case len(notReady) > 0:
		return fmt.Errorf("nodes %s are not Ready (local-cluster list; local-cluster start NODE starts a stopped one)", strings.Join(notReady, ", "))
	}
	return nil
}

// checkOperator wants the operator's Deployment available.
func checkOperator(ctx context.Context, c client.Client) error {
	deployments := &appsv1.DeploymentList{}
	if err := c.List(ctx, deployments, client.InNamespace(operatorNamespace)); err != nil {
		return err
	}
	for _, d := range deployments.Items {
		if d.Status.AvailableReplicas > 0 {
			return nil
		}
	}
	if len(deployments.Items) == 0 {
		return fmt.Errorf("the operator is not installed (no Deployment in namespace %s): %s", operatorNamespace, upOperator)
	}
	return fmt.Errorf("the operator's Deployment in namespace %s has no available replica (kubectl -n %s get pods): %s installs it again", operatorNamespace, operatorNamespace, upOperator)
}

// checkRook wants the local Rook Ready with Ceph's public network on Multus, on
// publicNAD, as the operator reads it (internal/rook).
func checkRook(ctx context.Context, c client.Client) error {
	cc := &cephv1.CephCluster{}
	err := c.Get(ctx, client.ObjectKey{Namespace: rookNamespace, Name: rookCluster}, cc)
	switch {
	case apierrors.IsNotFound(err) || meta.IsNoMatchError(err):
		return fmt.Errorf("no CephCluster %s/%s: bring up Rook on Multus with %s", rookNamespace, rookCluster, upRook)
	case err != nil:
		return err
	}
	net, err := rook.DaemonNetwork(cc)
	switch {
	case err != nil:
		return fmt.Errorf("CephCluster %s/%s: reading its network: %w", rookNamespace, rookCluster, err)
	case net.Host:
		return fmt.Errorf("the local Rook runs on the host network (CephCluster %s/%s, spec.network.provider host), so CephFS traffic does not cross the data network: hack/rook/down.sh, then %s", rookNamespace, rookCluster, upRook)
	case net.Public == nil:
		return fmt.Errorf("CephCluster %s/%s puts Ceph's public network on no Multus network (spec.network.provider %q): hack/rook/down.sh, then %s", rookNamespace, rookCluster, cc.Spec.Network.Provider, upRook)
	case net.Public.Namespace != publicNAD.Namespace || net.Public.Name != publicNAD.Name:
		return fmt.Errorf("CephCluster %s/%s's public network is %s/%s, not %s, which the local Rook makes: hack/rook/down.sh, then %s",
			rookNamespace, rookCluster, net.Public.Namespace, net.Public.Name, publicNAD, upRook)
	case cc.Status.Phase != cephv1.ConditionReady:
		return fmt.Errorf("CephCluster %s/%s is %q, not Ready: %s waits until it is healthy", rookNamespace, rookCluster, cc.Status.Phase, upRook)
	}
	nad := &metav1.PartialObjectMetadata{}
	nad.SetGroupVersionKind(nadGVK)
	if err := c.Get(ctx, publicNAD, nad); err != nil {
		if apierrors.IsNotFound(err) || meta.IsNoMatchError(err) {
			return fmt.Errorf("no NetworkAttachmentDefinition %s, Rook's public network: %s makes it", publicNAD, upRook)
		}
		return err
	}
	return nil
}

// checkIdle refuses to run beside other HadoopClusters: their daemons take the same
// two cores as the clients and the OSDs, by an amount that changes from run to run.
func checkIdle(ctx context.Context, c client.Client, allowBusy bool) error {
	clusters := &v1alpha1.HadoopClusterList{}
	if err := c.List(ctx, clusters); err != nil {
		return err
	}
	var others []string
	for _, hc := range clusters.Items {
		if hc.Namespace != namespace {
			others = append(others, hc.Namespace+"/"+hc.Name)
		}
	}
	if len(others) == 0 {
		return nil
	}
	if allowBusy {
		step("measuring beside other HadoopClusters (-allow-busy): " + strings.Join(others, ", "))
		return nil
	}
	return fmt.Errorf("other HadoopClusters run on the nodes and share their cores: %s; delete their namespaces, or pass -allow-busy", strings.Join(others, ", "))
}
