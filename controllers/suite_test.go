package controllers

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	logf "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/testenv"
)

// The envtest suite runs the real manager with every controller against a real
// kube-apiserver that has this project's CRDs, Rook's released CRDs and the Prometheus
// Operator's released PodMonitor CRD. No Rook operator runs: the specs play its part
// by setting status phases on Rook objects and writing the Secrets and ConfigMaps Rook
// would write. No kube-controller-manager or scheduler runs either: specs play the
// StatefulSet controller and the scheduler by writing the status they would, and
// nothing garbage-collects owned objects. No Hadoop runs: HTTP servers of the suite
// answer for the clusters' ResourceManagers (fakeResourceManager) and for the
// NodeManagers the specs give an address (fakeNodeManagers). No Prometheus runs: the
// specs read the PodMonitors.

var (
	ctx       context.Context
	k8sClient client.Client
	// restConfig reaches the suite's API server.
	restConfig *rest.Config
	// managerCache is the manager's cache, for specs about what it holds.
	managerCache cache.Cache
	// resourceManager plays the clusters' ResourceManagers.
	resourceManager *fakeResourceManager
	// nodeManagers plays the NodeManagers of the specs' pods.
	nodeManagers *fakeNodeManagers
)

func TestControllers(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Controllers", Label("envtest"))
}

var _ = BeforeSuite(func() {
	logf.SetLogger(zap.New(zap.WriteTo(GinkgoWriter), zap.UseDevMode(true)))
	SetDefaultEventuallyTimeout(20 * time.Second)
	SetDefaultEventuallyPollingInterval(100 * time.Millisecond)

	var cancel context.CancelFunc
	ctx, cancel = context.WithCancel(context.Background())

	env, err := testenv.New()
	Expect(err).NotTo(HaveOccurred())
	// Multus's NetworkAttachmentDefinition, which HadoopClusters' attachments name, and
	// the Prometheus Operator's PodMonitor, which they get for their metrics.
	podMonitorCRD, err := testenv.PodMonitorCRD()
	Expect(err).NotTo(HaveOccurred())
	env.CRDDirectoryPaths = append(env.CRDDirectoryPaths, filepath.Join("testdata", "crds"), podMonitorCRD)
	cfg, err := testenv.Start(env)
	Expect(err).NotTo(HaveOccurred())
	restConfig = cfg
	DeferCleanup(func() {
		cancel()
		Expect(env.Stop()).To(Succeed())
	})

	k8sClient, err = client.New(cfg, client.Options{Scheme: env.Scheme})
	Expect(err).NotTo(HaveOccurred())

	resourceManager = newFakeResourceManager()
	DeferCleanup(resourceManager.close)
	nodeManagers = newFakeNodeManagers()
	DeferCleanup(nodeManagers.close)
	opts := Options{RookNamespace: defaultRookNamespace, HadoopImage: testImage, YARN: resourceManager.source(), YARNNodes: nodeManagers, OperatorPeer: operatorPeer}
	// The operator's cache options, so that the specs see what it caches.
	cacheOpts, err := CacheOptions(opts)
	Expect(err).NotTo(HaveOccurred())
	// The manager runs with the chart's RBAC, not as the suite's administrator.
	mgr, err := ctrl.NewManager(asOperator(cfg), ctrl.Options{
		Scheme:                 env.Scheme,
		Cache:                  cacheOpts,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{SkipNameValidation: ptr.To(true)},
	})
	Expect(err).NotTo(HaveOccurred())
	managerCache = mgr.GetCache()
	Expect(SetupWithManager(mgr, opts)).To(Succeed())
	go func() {
		defer GinkgoRecover()
		Expect(mgr.Start(ctx)).To(Succeed())
	}()
})
