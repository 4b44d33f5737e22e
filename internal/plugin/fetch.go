package plugin

import (
	"context"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/report"
)

// splitName reads a RUN or CLUSTER argument: NAME in the namespace of -n, or
// NAMESPACE/NAME, since the runs a user compares may be in different namespaces.
func splitName(arg, namespace string) (client.ObjectKey, error) {
	parts := strings.Split(arg, "/")
	switch {
	case len(parts) == 1 && parts[0] != "":
		return client.ObjectKey{Namespace: namespace, Name: parts[0]}, nil
	case len(parts) == 2 && parts[0] != "" && parts[1] != "":
		return client.ObjectKey{Namespace: parts[0], Name: parts[1]}, nil
	}
	return client.ObjectKey{}, fmt.Errorf("%q: name a resource as NAME or NAMESPACE/NAME", arg)
}

// connect is what the commands start with: a client, and the namespace a bare NAME
// is in.
func (o *Options) connect() (client.Client, string, error) {
	c, err := o.client()
	if err != nil {
		return nil, "", err
	}
	ns, err := o.namespace()
	if err != nil {
		return nil, "", err
	}
	return c, ns, nil
}

// comparison reads the runs that args name and lines them up, for compare and report.
func (o *Options) comparison(ctx context.Context, args []string) (*report.Comparison, error) {
	c, ns, err := o.connect()
	if err != nil {
		return nil, err
	}
	runs, err := getRuns(ctx, c, ns, args)
	if err != nil {
		return nil, err
	}
	return report.Build(runs)
}

// getRuns reads the named BenchmarkRuns in the order given, which is the order the
// comparisons keep.
func getRuns(ctx context.Context, c client.Client, namespace string, args []string) ([]v1alpha1.BenchmarkRun, error) {
	runs := make([]v1alpha1.BenchmarkRun, 0, len(args))
	for _, arg := range args {
		key, err := splitName(arg, namespace)
		if err != nil {
			return nil, err
		}
		var run v1alpha1.BenchmarkRun
		if err := c.Get(ctx, key, &run); err != nil {
			if apierrors.IsNotFound(err) {
				return nil, fmt.Errorf("BenchmarkRun %s not found", key)
			}
			return nil, fmt.Errorf("reading BenchmarkRun %s: %w", key, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// getCluster reads the HadoopCluster a CLUSTER argument names.
func getCluster(ctx context.Context, c client.Client, namespace, arg string) (*v1alpha1.HadoopCluster, error) {
	key, err := splitName(arg, namespace)
	if err != nil {
		return nil, err
	}
	var hc v1alpha1.HadoopCluster
	if err := c.Get(ctx, key, &hc); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, fmt.Errorf("HadoopCluster %s not found", key)
		}
		return nil, fmt.Errorf("reading HadoopCluster %s: %w", key, err)
	}
	return &hc, nil
}

// clusterSession is the HadoopCluster that arg names, with what talks to its pods:
// the REST config (exec and port-forward build their own connections from it) and a
// clientset.
type clusterSession struct {
	hc  *v1alpha1.HadoopCluster
	cfg *rest.Config
	cs  kubernetes.Interface
}

// cluster reads the HadoopCluster that arg names, for shell, run and ui.
func (o *Options) cluster(ctx context.Context, arg string) (*clusterSession, error) {
	c, ns, err := o.connect()
	if err != nil {
		return nil, err
	}
	cfg, err := o.Flags.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	hc, err := getCluster(ctx, c, ns, arg)
	if err != nil {
		return nil, err
	}
	return &clusterSession{hc: hc, cfg: cfg, cs: cs}, nil
}
