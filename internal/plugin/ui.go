package plugin

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/portforward"
	"k8s.io/client-go/transport/spdy"
	streamhttp "k8s.io/streaming/pkg/httpstream"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// WebUI is a daemon's web UI that ui forwards: the first pod of the daemon's
// StatefulSet, its web port there, and the local port asked for (0 for any free one).
type WebUI struct {
	Name      string
	Pod       string
	Port      int
	LocalPort int
}

func newUICommand(o *Options) *cobra.Command {
	var address string
	var rmPort, jhPort int
	cmd := &cobra.Command{
		Use:   "ui CLUSTER",
		Short: "Forward the web UIs of a HadoopCluster's ResourceManager and JobHistory server to local ports",
		Long: `ui forwards local ports to the web UIs of the HadoopCluster's ResourceManager and
JobHistory server, through the API server as kubectl port-forward does, prints their
local URLs, and runs until Ctrl-C. A cluster without a JobHistory server
(spec.jobHistory.enabled: false), or whose JobHistory pod does not run, gets the
ResourceManager's alone. Links within each UI work; links that name another daemon's
host, such as a NodeManager's or the JobHistory server's, lead to addresses inside the
cluster, which do not resolve here.

It needs get on hadoopclusters and pods, and create on pods/portforward in the
cluster's namespace.`,
		Args: cobra.ExactArgs(1),
	}
	cmd.Flags().StringVar(&address, "address", "127.0.0.1", "Local address to listen on: an IP address, or localhost for both 127.0.0.1 and ::1.")
	cmd.Flags().IntVar(&rmPort, "resourcemanager-port", hadoop.PortRMWeb, "Local port of the ResourceManager's web UI; 0 picks a free one.")
	cmd.Flags().IntVar(&jhPort, "jobhistory-port", hadoop.PortJHWeb, "Local port of the JobHistory server's web UI; 0 picks a free one.")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := checkUIFlags(address, rmPort, jhPort); err != nil {
			return err
		}
		cl, err := o.cluster(cmd.Context(), args[0])
		if err != nil {
			return err
		}
		hc, cfg, cs := cl.hc, cl.cfg, cl.cs
		uis := WebUIs(hc, rmPort, jhPort)
		if err := podRuns(cmd.Context(), cs, hc.Namespace, uis[0].Pod); err != nil {
			return fmt.Errorf("the ResourceManager's web UI: %w; is HadoopCluster %s/%s Ready?", err, hc.Namespace, hc.Name)
		}
		// The JobHistory server's UI is the lesser one: without it, the
		// ResourceManager's is still worth forwarding.
		if len(uis) == 1 {
			fmt.Fprintln(o.Streams.ErrOut, "No JobHistory server to forward to: spec.jobHistory.enabled is false.")
		} else if err := podRuns(cmd.Context(), cs, hc.Namespace, uis[1].Pod); err != nil {
			fmt.Fprintf(o.Streams.ErrOut, "No JobHistory server to forward to: %v.\n", err)
			uis = uis[:1]
		}
		return forwardWebUIs(cmd.Context(), cfg, cs, hc.Namespace, address, uis, o.Streams.Out, o.Streams.ErrOut)
	}
	return cmd
}

// checkUIFlags refuses an address or ports that cannot be listened on, before any
// request.
func checkUIFlags(address string, rmPort, jhPort int) error {
	if address != "localhost" && net.ParseIP(address) == nil {
		return fmt.Errorf("--address %q: must be an IP address or localhost", address)
	}
	for _, p := range []struct {
		flag string
		port int
	}{{"--resourcemanager-port", rmPort}, {"--jobhistory-port", jhPort}} {
		if p.port < 0 || p.port > 65535 {
			return fmt.Errorf("%s %d: must be 0 to 65535; 0 picks a free port", p.flag, p.port)
		}
	}
	if rmPort != 0 && rmPort == jhPort {
		return fmt.Errorf("--resourcemanager-port and --jobhistory-port are both %d: they must differ, or be 0", rmPort)
	}
	return nil
}

// WebUIs are the web UIs of hc that ui forwards, the ResourceManager's first: the
// JobHistory server's too unless hc runs none.
func WebUIs(hc *v1alpha1.HadoopCluster, rmPort, jhPort int) []WebUI {
	uis := []WebUI{{Name: "ResourceManager", Pod: hadoop.ResourceManagerName(hc) + "-0", Port: hadoop.PortRMWeb, LocalPort: rmPort}}
	if jobHistoryEnabled(hc) {
		uis = append(uis, WebUI{Name: "JobHistory", Pod: hadoop.JobHistoryName(hc) + "-0", Port: hadoop.PortJHWeb, LocalPort: jhPort})
	}
	return uis
}

// jobHistoryEnabled reads spec.jobHistory.enabled, which the API defaults to true.
func jobHistoryEnabled(hc *v1alpha1.HadoopCluster) bool {
	e := hc.Spec.JobHistory.Enabled
	return e == nil || *e
}

// podRuns says why the pod cannot be forwarded to, if it cannot.
func podRuns(ctx context.Context, cs kubernetes.Interface, namespace, name string) error {
	pod, err := cs.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return fmt.Errorf("pod %s/%s not found", namespace, name)
	case err != nil:
		return fmt.Errorf("reading pod %s/%s: %w", namespace, name, err)
	case pod.Status.Phase != corev1.PodRunning:
		return fmt.Errorf("pod %s/%s is %s, not Running", namespace, name, pod.Status.Phase)
	}
	return nil
}

// forwardWebUIs forwards a local port on address to each UI's pod and port, prints
// their URLs to out, and forwards until ctx ends or a forward fails, such as when its
// pod is deleted.
func forwardWebUIs(ctx context.Context, cfg *rest.Config, cs kubernetes.Interface, namespace, address string, uis []WebUI, out, errOut io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	failed := make(chan error, len(uis))
	for _, ui := range uis {
		dialer, err := portForwardDialer(cfg, cs, namespace, ui.Pod)
		if err != nil {
			return err
		}
		ready := make(chan struct{})
		// The forwarder's own output names each connection it handles; the URLs below
		// are what a user needs.
		pf, err := portforward.NewOnAddressesForStreamingWithContext(ctx, dialer, []string{address},
			[]string{fmt.Sprintf("%d:%d", ui.LocalPort, ui.Port)}, ready, io.Discard, errOut)
		if err != nil {
			return err
		}
		go func() {
			if err := pf.ForwardPorts(); err != nil {
				failed <- fmt.Errorf("forwarding to the %s's web UI, pod %s/%s port %d: %w", ui.Name, namespace, ui.Pod, ui.Port, err)
			}
		}()
		select {
		case <-ready:
		case err := <-failed:
			return err
		case <-ctx.Done():
			return nil
		}
		ports, err := pf.GetPorts()
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "%-16s http://%s/\n", ui.Name, net.JoinHostPort(address, strconv.Itoa(int(ports[0].Local))))
	}
	fmt.Fprintln(errOut, "Forwarding until Ctrl-C.")
	select {
	case err := <-failed:
		return err
	case <-ctx.Done():
		return nil
	}
}

// portForwardDialer reaches pod's pods/portforward subresource with SPDY tunnelled
// through WebSocket, and with SPDY alone where the API server (before Kubernetes 1.31)
// or a proxy between refuses the WebSocket upgrade, as kubectl port-forward does.
func portForwardDialer(cfg *rest.Config, cs kubernetes.Interface, namespace, pod string) (streamhttp.Dialer, error) {
	url := cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(namespace).Name(pod).SubResource("portforward").URL()
	transport, upgrader, err := spdy.RoundTripperFor(cfg)
	if err != nil {
		return nil, err
	}
	legacy := spdy.NewDialerForStreaming(upgrader, &http.Client{Transport: transport}, http.MethodPost, url)
	tunnelled, err := portforward.NewSPDYOverWebsocketDialerForStreaming(url, cfg)
	if err != nil {
		return nil, err
	}
	return portforward.NewFallbackDialerForStreaming(tunnelled, legacy, upgradeRefused), nil
}
