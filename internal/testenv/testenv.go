// Package testenv starts a real kube-apiserver and etcd (envtest) with this project's
// CRDs and Rook's released CRDs installed, for the envtest layer of the tests.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	hadoopv1alpha1 "github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/repo"
)

// Scheme knows every kind the operator reads or writes.
func Scheme() *k8sruntime.Scheme {
	s := k8sruntime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(hadoopv1alpha1.AddToScheme(s))
	utilruntime.Must(cephv1.AddToScheme(s))
	return s
}

// New describes an envtest environment; call Start on it. KUBEBUILDER_ASSETS must name
// the kube-apiserver/etcd directory and ROOK_CRDS Rook's crds.yaml: `make test` sets
// both, and `make envtest-env` prints them for running `go test` by hand.
func New() (*envtest.Environment, error) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		return nil, errors.New("KUBEBUILDER_ASSETS is not set: run `make test`, or `eval $(make -s envtest-env)` first")
	}
	rookCRDs := os.Getenv("ROOK_CRDS")
	if rookCRDs == "" {
		return nil, errors.New("ROOK_CRDS is not set: run `make test`, or `eval $(make -s envtest-env)` first")
	}
	if _, err := os.Stat(rookCRDs); err != nil {
		return nil, fmt.Errorf("ROOK_CRDS: %w", err)
	}
	root, err := repo.Root()
	if err != nil {
		return nil, err
	}
	return &envtest.Environment{
		Scheme:                Scheme(),
		CRDDirectoryPaths:     []string{filepath.Join(root, "config", "crd", "bases"), rookCRDs},
		ErrorIfCRDPathMissing: true,
	}, nil
}

// PodMonitorCRD is the path of the Prometheus Operator's released PodMonitor CRD,
// which PROMETHEUS_CRDS names: `make test` sets it, and `make envtest-env` prints it. A
// suite that runs the HadoopCluster controller adds it to CRDDirectoryPaths, so that
// the controller applies PodMonitors to the real schema; the other suites leave it out,
// like a Kubernetes cluster without the Prometheus Operator.
func PodMonitorCRD() (string, error) {
	crd := os.Getenv("PROMETHEUS_CRDS")
	if crd == "" {
		return "", errors.New("PROMETHEUS_CRDS is not set: run `make test`, or `eval $(make -s envtest-env)` first")
	}
	if _, err := os.Stat(crd); err != nil {
		return "", fmt.Errorf("PROMETHEUS_CRDS: %w", err)
	}
	return crd, nil
}

// Start starts env and, when that fails, stops what it had started: envtest leaves its
// kube-apiserver and etcd running when installing a CRD fails, as one with a CEL rule
// that does not compile does, and each failed run would leave two more processes.
func Start(env *envtest.Environment) (*rest.Config, error) {
	cfg, err := env.Start()
	if err != nil {
		if stopErr := env.Stop(); stopErr != nil {
			return nil, errors.Join(err, fmt.Errorf("stopping the test environment: %w", stopErr))
		}
		return nil, err
	}
	return cfg, nil
}
