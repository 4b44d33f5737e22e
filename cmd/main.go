// Command manager runs the Hadoop-on-Ceph operator.
package main

import (
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	hadoopv1alpha1 "github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers"
)

func main() {
	var (
		cfg             config
		watchNamespaces string
		rookNamespaces  string
	)
	flag.StringVar(&cfg.metricsAddr, "metrics-bind-address", ":8080", "Address the Prometheus metrics endpoint binds to; 0 disables it.")
	flag.BoolVar(&cfg.metricsSecure, "metrics-secure", true,
		"Serve the metrics endpoint over HTTPS and answer only requests whose bearer token the API server authenticates (TokenReview) "+
			"and authorizes to get /metrics (SubjectAccessReview); false serves plain HTTP to anyone who can reach the port.")
	flag.StringVar(&cfg.metricsCertDir, "metrics-cert-dir", "",
		"Directory with the HTTPS metrics endpoint's certificate and key, tls.crt and tls.key, reloaded when they change. "+
			"Empty means a self-signed certificate made at start.")
	flag.StringVar(&cfg.probeAddr, "health-probe-bind-address", ":8081", "Address the /healthz and /readyz probes bind to.")
	flag.BoolVar(&cfg.leaderElect, "leader-elect", false, "Elect a leader so that only one of several replicas reconciles.")
	flag.StringVar(&watchNamespaces, "watch-namespaces", "",
		"Comma-separated namespaces whose resources are reconciled; empty means all. The operator then reads nothing outside "+
			"these namespaces, --rook-namespace and --rook-namespaces: every Rook namespace a StorageBackend names must be "+
			"listed in one of them, and NetworkAttachmentDefinitions must live in a watched namespace.")
	flag.StringVar(&cfg.rookNamespace, "rook-namespace", "rook-ceph", "Namespace of the Rook CephCluster when a StorageBackend does not name one.")
	flag.StringVar(&rookNamespaces, "rook-namespaces", "",
		"Comma-separated further Rook namespaces that StorageBackends name, watched together with --watch-namespaces; "+
			"without --watch-namespaces every namespace is watched and this has no effect.")
	flag.StringVar(&cfg.operatorNamespace, "operator-namespace", "",
		"Namespace of the operator's own pods; with --operator-pod-selector, the ResourceManagers' NetworkPolicies admit them to the REST API "+
			"the operator reads benchmark progress from.")
	flag.StringVar(&cfg.operatorPodSelector, "operator-pod-selector", "",
		"Label selector (such as app.kubernetes.io/name=hadoop-ceph-operator) of the operator's own pods in --operator-namespace. "+
			"Empty when the operator runs outside the cluster: no NetworkPolicy then admits it, and benchmark stages of clusters "+
			"with spec.access.networkPolicies show no progress where a network plugin enforces them.")
	flag.StringVar(&cfg.hadoopImage, "hadoop-image", "",
		"Hadoop image of HadoopClusters that do not set spec.image. Without it, such clusters are refused with ConfigReady=False, reason InvalidSpec. "+
			"Rook-mode StorageBackends run their Jobs with it (setting the file system's flags, emptying a deleted backend's root).")
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	log := ctrl.Log.WithName("setup")

	cfg.watchNamespaces = splitNamespaces(watchNamespaces)
	cfg.rookNamespaces = splitNamespaces(rookNamespaces)
	if err := run(cfg); err != nil {
		if errors.Is(err, controllers.ErrOptionalAPIInstalled) {
			// Not a failure: the Deployment starts the operator again, which then
			// watches the newly installed kinds.
			log.Info("stopping to start again with the new API", "reason", err.Error())
			os.Exit(0)
		}
		log.Error(err, "manager stopped")
		os.Exit(1)
	}
}

// config is the manager's command line.
type config struct {
	metricsAddr     string
	metricsSecure   bool
	metricsCertDir  string
	probeAddr       string
	leaderElect     bool
	watchNamespaces []string
	rookNamespace   string
	rookNamespaces  []string
	hadoopImage     string

	operatorNamespace   string
	operatorPodSelector string
}

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(hadoopv1alpha1.AddToScheme(s))
	utilruntime.Must(cephv1.AddToScheme(s))
	return s
}

// managerOptions are the manager's and the reconcilers' options for cfg.
func managerOptions(cfg config) (ctrl.Options, controllers.Options, error) {
	operator, err := operatorPeer(cfg.operatorNamespace, cfg.operatorPodSelector)
	if err != nil {
		return ctrl.Options{}, controllers.Options{}, err
	}
	opts := controllers.Options{
		RookNamespace:   cfg.rookNamespace,
		HadoopImage:     cfg.hadoopImage,
		WatchNamespaces: cfg.watchNamespaces,
		RookNamespaces:  cfg.rookNamespaces,
		OperatorPeer:    operator,
	}
	cacheOpts, err := controllers.CacheOptions(opts)
	if err != nil {
		return ctrl.Options{}, controllers.Options{}, fmt.Errorf("building the cache options: %w", err)
	}
	metricsOpts, err := metricsOptions(cfg)
	if err != nil {
		return ctrl.Options{}, controllers.Options{}, err
	}
	return ctrl.Options{
		Scheme:                 newScheme(),
		Cache:                  cacheOpts,
		Metrics:                metricsOpts,
		HealthProbeBindAddress: cfg.probeAddr,
		LeaderElection:         cfg.leaderElect,
		LeaderElectionID:       "hadoop-ceph-operator.hadoopceph.io",
		// The process ends as soon as the manager stops (main), so handing the lease
		// back is safe; the next operator (an upgrade's new pod, or this one after it
		// exits to watch Rook or Multus) then leads at once instead of waiting out the
		// lease, 15 s measured on each such restart.
		LeaderElectionReleaseOnCancel: true,
	}, opts, nil
}

// metricsOptions are the metrics server's options for cfg. Over HTTPS a scraper
// presents a bearer token, such as its ServiceAccount's, which the API server
// authenticates and authorizes: a ClusterRole that grants get on the non-resource URL
// /metrics is all it needs, and nobody without one reads the names and state of the
// operator's objects.
func metricsOptions(cfg config) (metricsserver.Options, error) {
	opts := metricsserver.Options{BindAddress: cfg.metricsAddr}
	if !cfg.metricsSecure {
		if cfg.metricsCertDir != "" {
			return metricsserver.Options{}, errors.New("--metrics-cert-dir needs --metrics-secure")
		}
		return opts, nil
	}
	opts.SecureServing = true
	opts.FilterProvider = filters.WithAuthenticationAndAuthorization
	// HTTP/2's stream resets let a client that cannot authenticate still keep the
	// server busy (CVE-2023-44487, CVE-2023-39325); a scrape needs none of HTTP/2.
	opts.TLSOpts = []func(*tls.Config){func(c *tls.Config) { c.NextProtos = []string{"http/1.1"} }}
	if cfg.metricsCertDir != "" {
		// controller-runtime falls back to a self-signed certificate when the files
		// are missing: a mount that went wrong must not pass unnoticed.
		for _, name := range []string{metricsCertName, metricsKeyName} {
			if _, err := os.Stat(filepath.Join(cfg.metricsCertDir, name)); err != nil {
				return metricsserver.Options{}, fmt.Errorf("--metrics-cert-dir: %w", err)
			}
		}
		opts.CertDir, opts.CertName, opts.KeyName = cfg.metricsCertDir, metricsCertName, metricsKeyName
	}
	return opts, nil
}

// The names of a kubernetes.io/tls Secret's keys, so that one mounts as the
// certificate directory.
const (
	metricsCertName = "tls.crt"
	metricsKeyName  = "tls.key"
)

func run(cfg config) error {
	mgrOpts, opts, err := managerOptions(cfg)
	if err != nil {
		return err
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), mgrOpts)
	if err != nil {
		return fmt.Errorf("creating manager: %w", err)
	}
	if err := controllers.SetupWithManager(mgr, opts); err != nil {
		return fmt.Errorf("setting up controllers: %w", err)
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return fmt.Errorf("adding health check: %w", err)
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return fmt.Errorf("adding readiness check: %w", err)
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}

func splitNamespaces(s string) []string {
	var out []string
	for _, ns := range strings.Split(s, ",") {
		if ns = strings.TrimSpace(ns); ns != "" {
			out = append(out, ns)
		}
	}
	return out
}

// operatorPeer selects the operator's pods for the clusters' NetworkPolicies: the pods
// matching selector in namespace. It is nil without a selector.
func operatorPeer(namespace, selector string) (*networkingv1.NetworkPolicyPeer, error) {
	if strings.TrimSpace(selector) == "" {
		return nil, nil
	}
	if namespace == "" {
		return nil, errors.New("--operator-pod-selector needs --operator-namespace")
	}
	pods, err := metav1.ParseToLabelSelector(selector)
	if err != nil {
		return nil, fmt.Errorf("--operator-pod-selector: %w", err)
	}
	if len(pods.MatchExpressions) == 0 {
		pods.MatchExpressions = nil
	}
	return &networkingv1.NetworkPolicyPeer{
		PodSelector:       pods,
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{corev1.LabelMetadataName: namespace}},
	}, nil
}
