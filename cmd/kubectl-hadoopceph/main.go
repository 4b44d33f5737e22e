// Command kubectl-hadoopceph is the kubectl plugin of the Hadoop-on-Ceph Operator:
// with the binary on PATH, kubectl runs it for `kubectl hadoopceph`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/plugin"
)

// version is the release's, set by hack/dist.sh.
var version = "dev"

func main() {
	cmd := plugin.NewCommand(genericiooptions.IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr})
	cmd.Version = version
	cmd.SetVersionTemplate("kubectl-hadoopceph {{.Version}}\n")
	// Ctrl-C stops a followed log or a slow request cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := cmd.ExecuteContext(ctx)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
