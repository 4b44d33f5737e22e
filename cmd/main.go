// Command manager runs the Hadoop-on-Ceph operator.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	hadoopv1alpha1 "github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers"
)

func main() {
	var (
		metricsAddr     string
		probeAddr       string
		leaderElect     bool
		watchNamespaces string
		rookNamespace   string
	)
	flag.StringVar(&metricsAddr, "metrics-bind-address", ":8080", "Address the Prometheus metrics endpoint binds to; 0 disables it.")
	flag.StringVar(&probeAddr, "health-probe-bind-address", ":8081", "Address the /healthz and /readyz probes bind to.")
	flag.BoolVar(&leaderElect, "leader-elect", false, "Elect a leader so that only one of several replicas reconciles.")
	flag.StringVar(&watchNamespaces, "watch-namespaces", "", "Comma-separated namespaces whose resources are reconciled; empty means all.")
	flag.StringVar(&rookNamespace, "rook-namespace", "rook-ceph", "Namespace of the Rook CephCluster when a StorageBackend does not name one.")
	zapOpts := zap.Options{}
	zapOpts.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zapOpts)))
	log := ctrl.Log.WithName("setup")

	if err := run(metricsAddr, probeAddr, leaderElect, splitNamespaces(watchNamespaces), rookNamespace); err != nil {
		log.Error(err, "manager stopped")
		os.Exit(1)
	}
}

func newScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(hadoopv1alpha1.AddToScheme(s))
	utilruntime.Must(cephv1.AddToScheme(s))
	return s
}

func run(metricsAddr, probeAddr string, leaderElect bool, namespaces []string, rookNamespace string) error {
	cacheOpts := cache.Options{}
	if len(namespaces) > 0 {
		// The Rook namespace must stay visible even when users' namespaces are limited:
		// the operator reads mon endpoints and client Secrets there.
		cacheOpts.DefaultNamespaces = map[string]cache.Config{rookNamespace: {}}
		for _, ns := range namespaces {
			cacheOpts.DefaultNamespaces[ns] = cache.Config{}
		}
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{
		Scheme:                 newScheme(),
		Cache:                  cacheOpts,
		Metrics:                metricsserver.Options{BindAddress: metricsAddr},
		HealthProbeBindAddress: probeAddr,
		LeaderElection:         leaderElect,
		LeaderElectionID:       "hadoop-ceph-operator.hadoopceph.io",
	})
	if err != nil {
		return fmt.Errorf("creating manager: %w", err)
	}
	if err := controllers.SetupWithManager(mgr, controllers.Options{RookNamespace: rookNamespace}); err != nil {
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
