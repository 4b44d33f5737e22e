// Package plugin is `kubectl hadoopceph`: BenchmarkRuns listed, compared and drawn,
// a HadoopCluster's YARN seen through the API server, a benchmark stage's output, and
// a HadoopCluster used from a client pod of its own or through its web UIs.
// It follows kubectl's plugin conventions: kubectl's connection flags (--kubeconfig,
// --context, -n and the rest), -o table|yaml|json where a command prints data, and
// errors on standard error with a non-zero exit.
package plugin

import (
	"fmt"

	"github.com/spf13/cobra"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Options are what every command shares: how to reach the cluster, in which namespace,
// and where to write.
type Options struct {
	Flags   *genericclioptions.ConfigFlags
	Streams genericiooptions.IOStreams
}

// NewCommand is the plugin's root command. kubectl runs the binary
// kubectl-hadoopceph for `kubectl hadoopceph`, so its usage names the latter.
func NewCommand(streams genericiooptions.IOStreams) *cobra.Command {
	o := &Options{Flags: genericclioptions.NewConfigFlags(true), Streams: streams}
	cmd := &cobra.Command{
		Use:   "kubectl hadoopceph",
		Short: "BenchmarkRuns, comparisons and reports, YARN's view of a HadoopCluster, and client pods in it",
		Long: `kubectl hadoopceph reads the Hadoop-on-Ceph Operator's resources and works in its clusters.

  runs                    BenchmarkRuns with their stages, durations, throughput and ratio
  compare RUN [RUN...]    stage times and throughputs side by side, ratios to the first run
  report RUN [RUN...]     the comparison as Markdown, HTML and bar charts (SVG and PNG);
                          with --series, runs that vary one parameter as line charts
  status CLUSTER          YARN's nodes, queues and applications, through the API server
  logs RUN [STAGE]        a benchmark stage's output
  shell CLUSTER           bash in a new client pod of the cluster, deleted when bash exits
  run CLUSTER -- COMMAND  COMMAND in a new client pod; its output and exit code are the plugin's
  ui CLUSTER              the ResourceManager's and JobHistory server's web UIs on local ports

A RUN or CLUSTER is a BenchmarkRun's or HadoopCluster's name in the namespace of -n,
or NAMESPACE/NAME.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.SetIn(streams.In)
	cmd.SetOut(streams.Out)
	cmd.SetErr(streams.ErrOut)
	o.Flags.AddFlags(cmd.PersistentFlags())
	cmd.AddCommand(
		newRunsCommand(o),
		newCompareCommand(o),
		newReportCommand(o),
		newStatusCommand(o),
		newLogsCommand(o),
		newShellCommand(o),
		newRunCommand(o),
		newUICommand(o),
	)
	return cmd
}

// namespace is the namespace of -n, else the kubeconfig context's, else default.
func (o *Options) namespace() (string, error) {
	ns, _, err := o.Flags.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return "", fmt.Errorf("reading the namespace from the kubeconfig: %w", err)
	}
	return ns, nil
}

// client reads the operator's kinds and Kubernetes' own.
func (o *Options) client() (client.Client, error) {
	cfg, err := o.Flags.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	return client.New(cfg, client.Options{Scheme: scheme()})
}

// scheme knows the operator's kinds and Kubernetes' built-in ones.
func scheme() *k8sruntime.Scheme {
	s := k8sruntime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	utilruntime.Must(v1alpha1.AddToScheme(s))
	return s
}

// clientset serves what the controller-runtime client does not: pod logs and the
// service proxy.
func (o *Options) clientset() (kubernetes.Interface, error) {
	cfg, err := o.Flags.ToRESTConfig()
	if err != nil {
		return nil, err
	}
	return kubernetes.NewForConfig(cfg)
}
