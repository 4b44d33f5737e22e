package plugin

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"
	"golang.org/x/term"
	"k8s.io/client-go/tools/remotecommand"
)

// shellCommand is what shell runs: bash, not bash -l, because a login shell reads
// Debian's /etc/profile, which sets PATH anew for users other than root and so drops
// the Hadoop image's /opt/hadoop/bin from it.
var shellCommand = []string{"bash"}

func newShellCommand(o *Options) *cobra.Command {
	var f clientPodFlags
	cmd := &cobra.Command{
		Use:   "shell CLUSTER",
		Short: "An interactive shell in a new client pod of a HadoopCluster, deleted when the shell ends",
		Long: `shell starts a pod from the HadoopCluster's client PodTemplate (status.client.podTemplate):
the cluster's image with its Hadoop configuration, CephFS keyring, networks and client
labels, so that hadoop, yarn and mapred reach the cluster as its own jobs do. Once the
pod runs, shell opens bash in it on this terminal, and deletes the pod when bash exits,
when the plugin is interrupted, and when the pod does not start within --timeout,
saying why. A pod the plugin could not delete ends by itself after --max-time. The
shell's exit code is the plugin's. With standard input not a terminal, bash reads its
commands from it without a TTY.

It needs get on podtemplates, create, get and delete on pods, and create on pods/exec
in the cluster's namespace.`,
		Args: cobra.ExactArgs(1),
	}
	f.add(cmd)
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := f.check(); err != nil {
			return err
		}
		return o.withClientPod(cmd.Context(), args[0], "shell", f, func(ctx context.Context, s *clientSession) error {
			fd, tty := terminal(o.Streams.In)
			if !tty {
				return s.exec(ctx, shellCommand, remotecommand.StreamOptions{Stdin: o.Streams.In, Stdout: o.Streams.Out, Stderr: o.Streams.ErrOut})
			}
			// Raw, so that keys such as Ctrl-C and Tab reach bash in the pod instead of
			// acting here.
			state, err := term.MakeRaw(fd)
			if err != nil {
				return fmt.Errorf("putting the terminal into raw mode: %w", err)
			}
			defer func() { _ = term.Restore(fd, state) }()
			sizeCtx, stop := context.WithCancel(ctx)
			defer stop()
			// With a TTY, the pod's terminal carries standard error on standard output.
			return s.exec(ctx, shellCommand, remotecommand.StreamOptions{Stdin: o.Streams.In, Stdout: o.Streams.Out, Tty: true,
				TerminalSizeQueue: followTerminalSize(sizeCtx, fd)})
		})
	}
	return cmd
}

// terminal is the file descriptor of in, and whether it is a terminal.
func terminal(in io.Reader) (int, bool) {
	f, ok := in.(*os.File)
	if !ok {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// terminalSizes is the local terminal's size for the pod's TTY: its size at first,
// then each new size after a SIGWINCH, until its context ends.
type terminalSizes chan remotecommand.TerminalSize

func (q terminalSizes) Next() *remotecommand.TerminalSize {
	size, ok := <-q
	if !ok {
		return nil
	}
	return &size
}

// followTerminalSize starts following the size of the terminal fd until ctx ends.
func followTerminalSize(ctx context.Context, fd int) terminalSizes {
	q := make(terminalSizes)
	resized := make(chan os.Signal, 1)
	signal.Notify(resized, syscall.SIGWINCH)
	go func() {
		defer close(q)
		defer signal.Stop(resized)
		for {
			if width, height, err := term.GetSize(fd); err == nil {
				select {
				case q <- remotecommand.TerminalSize{Width: uint16(width), Height: uint16(height)}:
				case <-ctx.Done():
					return
				}
			}
			select {
			case <-resized:
			case <-ctx.Done():
				return
			}
		}
	}()
	return q
}
