// Command kubectl-hadoopceph is the kubectl plugin of the Hadoop-on-Ceph Operator:
// with the binary on PATH, kubectl runs it for `kubectl hadoopceph`.
package main

import (
	"context"
	"errors"
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
	// Ctrl-C stops a followed log or a slow request cleanly, and shell and run delete
	// their pods before they exit, also when their terminal closes (SIGHUP).
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	err := cmd.ExecuteContext(ctx)
	stop()
	// A command that run or shell ran in a pod said what it had to say itself; its exit
	// code is the plugin's, as with kubectl exec.
	var exit *plugin.ExitCodeError
	if errors.As(err, &exit) {
		os.Exit(exit.Code)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
