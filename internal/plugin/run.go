package plugin

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/client-go/tools/remotecommand"
)

// runUsage is how run is called, for its errors.
const runUsage = "run CLUSTER -- COMMAND [ARGS...]"

func newRunCommand(o *Options) *cobra.Command {
	var f clientPodFlags
	var stdin bool
	cmd := &cobra.Command{
		Use:   runUsage,
		Short: "Run a command in a new client pod of a HadoopCluster, deleted when the command ends",
		Long: `run starts a pod from the HadoopCluster's client PodTemplate, as shell does, runs COMMAND
in it once the pod runs, and deletes the pod when COMMAND ends, when the plugin is
interrupted, and when the pod does not start within --timeout. COMMAND's standard output
and standard error are the plugin's, each its own, and its exit code is the plugin's.

COMMAND runs as it is, without a shell: for globs, pipes or variables run it with
bash -c, in single quotes so that the local shell leaves them alone:

  kubectl hadoopceph run analytics -- hadoop fs -ls /
  kubectl hadoopceph run analytics -- bash -c \
    'hadoop jar /opt/hadoop/share/hadoop/mapreduce/hadoop-mapreduce-examples-*.jar pi 2 10'
  kubectl hadoopceph run analytics -i -- hadoop fs -put - /data/in.csv < in.csv
  kubectl hadoopceph run analytics -- spark-submit --deploy-mode cluster \
    --class com.example.Job ceph:///apps/job.jar /data/in.csv /data/out

It needs get on podtemplates, create, get and delete on pods, and create on pods/exec
in the cluster's namespace.`,
		Args: func(cmd *cobra.Command, args []string) error {
			_, _, err := splitRunArgs(args, cmd.ArgsLenAtDash())
			return err
		},
	}
	f.add(cmd)
	cmd.Flags().BoolVarP(&stdin, "stdin", "i", false, "Pass the plugin's standard input to COMMAND.")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		cluster, command, err := splitRunArgs(args, cmd.ArgsLenAtDash())
		if err != nil {
			return err
		}
		if err := f.check(); err != nil {
			return err
		}
		return o.withClientPod(cmd.Context(), cluster, "run", f, func(ctx context.Context, s *clientSession) error {
			streams := remotecommand.StreamOptions{Stdout: o.Streams.Out, Stderr: o.Streams.ErrOut}
			if stdin {
				streams.Stdin = o.Streams.In
			}
			return s.exec(ctx, command, streams)
		})
	}
	return cmd
}

// splitRunArgs separates CLUSTER from COMMAND, given where -- was (cobra's
// ArgsLenAtDash, -1 without one). COMMAND must follow --, so that its own flags are
// never read as the plugin's.
func splitRunArgs(args []string, dash int) (cluster string, command []string, err error) {
	switch {
	case dash < 0:
		return "", nil, fmt.Errorf("%s: put -- between CLUSTER and COMMAND", runUsage)
	case dash != 1:
		return "", nil, fmt.Errorf("%s: name one CLUSTER before --, not %d", runUsage, dash)
	case len(args) == 1:
		return "", nil, fmt.Errorf("%s: no COMMAND after --", runUsage)
	}
	return args[0], args[1:], nil
}
