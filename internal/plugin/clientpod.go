package plugin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/client-go/kubernetes"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
	utilexec "k8s.io/client-go/util/exec"
	streamhttp "k8s.io/streaming/pkg/httpstream"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// shell and run work in a client pod of their own, made from the PodTemplate the
// operator keeps for each HadoopCluster (status.client.podTemplate): the pod gets the
// cluster's image, configuration, keyring, networks and client labels without the
// plugin knowing how they are put together.

const (
	// deleteTimeout bounds the deletion of a client pod, which runs on a context of its
	// own because the command's is already cancelled after Ctrl-C or SIGTERM.
	deleteTimeout = 15 * time.Second
	// podPollInterval is how often a starting client pod is read.
	podPollInterval = time.Second
	// eventsTimeout bounds the look at a pod's events when it did not start, which
	// only adds to the error.
	eventsTimeout = 5 * time.Second
)

// Waiting reasons of a container that will not start without someone changing the pod
// or the node: waiting for them until --timeout would only delay the error.
var hopelessWaitingReasons = []string{"InvalidImageName", "ErrImageNeverPull"}

// ExitCodeError is the exit code of a command that ran in a client pod and failed.
// kubectl-hadoopceph exits with it and prints no error line, so that a script sees the
// command's own status, as with kubectl exec.
type ExitCodeError struct {
	Code int
}

func (e *ExitCodeError) Error() string {
	return fmt.Sprintf("command terminated with exit code %d", e.Code)
}

// clientPodFlags are shell's and run's: how long the pod may take to start, and how
// long it may live.
type clientPodFlags struct {
	timeout time.Duration
	maxTime time.Duration
}

func (f *clientPodFlags) add(cmd *cobra.Command) {
	cmd.Flags().DurationVar(&f.timeout, "timeout", 5*time.Minute,
		"How long to wait for the pod to run; after that it is deleted and the command fails, saying why the pod did not start.")
	cmd.Flags().DurationVar(&f.maxTime, "max-time", 12*time.Hour,
		"How long the pod may live (its activeDeadlineSeconds), so that a pod left behind by a killed plugin ends by itself.")
}

// check refuses durations the API server or the wait cannot use, before any request.
func (f *clientPodFlags) check() error {
	if f.timeout <= 0 {
		return fmt.Errorf("--timeout %s: must be more than 0", f.timeout)
	}
	if f.maxTime < time.Second {
		return fmt.Errorf("--max-time %s: must be at least 1s", f.maxTime)
	}
	return nil
}

// ClientPod is the pod that shell and run create from a cluster's client PodTemplate:
// the template's pod as the operator wrote it, labels, annotations and containers
// untouched, with a name of its own for each session (<cluster>-<purpose>-<random>),
// no restarts, since a session that ended must not start again, and maxTime as its
// activeDeadlineSeconds, so that a pod the plugin could not delete (killed, or cut off
// from the API server) does not sleep forever. The HadoopCluster owns it, so that
// deleting the cluster deletes its sessions' pods too.
func ClientPod(tmpl *corev1.PodTemplate, hc *v1alpha1.HadoopCluster, purpose string, maxTime time.Duration) (*corev1.Pod, error) {
	t := tmpl.Template.DeepCopy()
	if len(t.Spec.Containers) == 0 {
		return nil, fmt.Errorf("PodTemplate %s/%s has no containers", tmpl.Namespace, tmpl.Name)
	}
	t.Spec.RestartPolicy = corev1.RestartPolicyNever
	// Rounded up: the API server refuses a deadline of 0.
	t.Spec.ActiveDeadlineSeconds = ptr.To(int64(math.Ceil(maxTime.Seconds())))
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:    tmpl.Namespace,
			GenerateName: hc.Name + "-" + purpose + "-",
			Labels:       t.Labels,
			Annotations:  t.Annotations,
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: v1alpha1.GroupVersion.String(),
				Kind:       "HadoopCluster",
				Name:       hc.Name,
				UID:        hc.UID,
			}},
		},
		Spec: t.Spec,
	}, nil
}

// clientSession is a client pod whose container runs, and what exec needs to reach it.
type clientSession struct {
	cfg       *rest.Config
	cs        kubernetes.Interface
	pod       *corev1.Pod
	container string
}

// withClientPod creates a client pod of the HadoopCluster that arg names, waits until
// its first container runs, hands it to use, and deletes it whatever happens: after
// use returns, when the pod does not start, and when ctx is cancelled.
func (o *Options) withClientPod(ctx context.Context, arg, purpose string, f clientPodFlags,
	use func(context.Context, *clientSession) error) error {
	cl, err := o.cluster(ctx, arg)
	if err != nil {
		return err
	}
	hc, cfg, cs := cl.hc, cl.cfg, cl.cs
	name := hc.Status.Client.PodTemplate
	if name == "" {
		return fmt.Errorf("HadoopCluster %s/%s names no client PodTemplate in status.client.podTemplate: "+
			"the operator writes it once the cluster's configuration is in place, and operators older than this plugin never do; "+
			"kubectl get hadoopcluster -n %s %s shows the cluster's conditions", hc.Namespace, hc.Name, hc.Namespace, hc.Name)
	}
	tmpl, err := cs.CoreV1().PodTemplates(hc.Namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		if apierrors.IsNotFound(err) {
			return fmt.Errorf("PodTemplate %s/%s, which HadoopCluster %s/%s names in status.client.podTemplate, not found",
				hc.Namespace, name, hc.Namespace, hc.Name)
		}
		return fmt.Errorf("reading PodTemplate %s/%s: %w", hc.Namespace, name, err)
	}
	pod, err := ClientPod(tmpl, hc, purpose, f.maxTime)
	if err != nil {
		return err
	}
	created, err := cs.CoreV1().Pods(hc.Namespace).Create(ctx, pod, metav1.CreateOptions{})
	if err != nil {
		return fmt.Errorf("creating a pod from PodTemplate %s/%s: %w", hc.Namespace, name, err)
	}
	fmt.Fprintf(o.Streams.ErrOut, "Using pod %s/%s, which is deleted when the %s ends.\n", created.Namespace, created.Name, purpose)
	defer deleteClientPod(ctx, cs, created, f.maxTime, o.Streams.ErrOut)
	container := created.Spec.Containers[0].Name
	if err := waitForClientPod(ctx, cs, created, container, f.timeout, o.Streams.ErrOut); err != nil {
		return err
	}
	return use(ctx, &clientSession{cfg: cfg, cs: cs, pod: created, container: container})
}

// deleteClientPod deletes pod on a context of its own, since ctx may be cancelled
// already. The UID precondition keeps it from deleting another pod of the same name.
func deleteClientPod(ctx context.Context, cs kubernetes.Interface, pod *corev1.Pod, maxTime time.Duration, w io.Writer) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deleteTimeout)
	defer cancel()
	err := cs.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{Preconditions: metav1.NewUIDPreconditions(string(pod.UID))})
	if err != nil && !apierrors.IsNotFound(err) {
		fmt.Fprintf(w, "Could not delete pod %s/%s: %v\nIt stops by itself %s after it started (--max-time); kubectl delete pod -n %s %s deletes it now.\n",
			pod.Namespace, pod.Name, err, maxTime, pod.Namespace, pod.Name)
	}
}

// waitForClientPod reads pod until its container runs. It tells w each new reason the
// pod gives for not running yet, and gives up when the pod can no longer start, or
// after timeout with the last reason and the pod's latest warning event.
func waitForClientPod(ctx context.Context, cs kubernetes.Interface, pod *corev1.Pod, container string, timeout time.Duration, w io.Writer) error {
	// A timer rather than a context deadline for the reads: client-go's rate limiter
	// refuses a read that would end after a deadline with an error of its own, which
	// would hide why the pod did not start.
	expired := time.NewTimer(timeout)
	defer expired.Stop()
	ticker := time.NewTicker(podPollInterval)
	defer ticker.Stop()
	reason := "not read yet"
	for {
		p, err := cs.CoreV1().Pods(pod.Namespace).Get(ctx, pod.Name, metav1.GetOptions{})
		switch {
		case err == nil:
			st := ReadPodStart(p, container)
			if st.Running {
				return nil
			}
			if st.Ended {
				return fmt.Errorf("pod %s/%s did not start: %s%s", pod.Namespace, pod.Name, st.Reason, latestWarning(ctx, cs, pod))
			}
			if st.Reason != reason {
				fmt.Fprintf(w, "Waiting for pod %s: %s\n", pod.Name, st.Reason)
				reason = st.Reason
			}
		case apierrors.IsNotFound(err):
			return fmt.Errorf("pod %s/%s did not start: it was deleted", pod.Namespace, pod.Name)
		case ctx.Err() != nil:
			return fmt.Errorf("waiting for pod %s/%s: %w", pod.Namespace, pod.Name, ctx.Err())
		default:
			return fmt.Errorf("reading pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for pod %s/%s: %w", pod.Namespace, pod.Name, ctx.Err())
		case <-expired.C:
			return fmt.Errorf("pod %s/%s did not start within %s (--timeout): %s%s", pod.Namespace, pod.Name, timeout, reason,
				latestWarning(ctx, cs, pod))
		case <-ticker.C:
		}
	}
}

// PodStart is how far a client pod is from running its container.
type PodStart struct {
	Running bool
	// Ended says the container will not run without someone changing the pod or the
	// cluster: waiting longer is no use.
	Ended bool
	// Reason is why the container does not run yet, from the pod's status.
	Reason string
}

// ReadPodStart reads from pod's status whether its container runs, and if not, why.
func ReadPodStart(pod *corev1.Pod, container string) PodStart {
	if pod.DeletionTimestamp != nil {
		return PodStart{Ended: true, Reason: "it is being deleted"}
	}
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		why := "it ended, in phase " + string(pod.Status.Phase)
		if r := reasonText(pod.Status.Reason, pod.Status.Message); r != "" {
			why += " (" + r + ")"
		}
		return PodStart{Ended: true, Reason: why}
	}
	for _, c := range pod.Status.ContainerStatuses {
		if c.Name != container {
			continue
		}
		if c.State.Running != nil {
			return PodStart{Running: true}
		}
		// restartPolicy Never: a container that ended does not start again.
		if t := c.State.Terminated; t != nil {
			return PodStart{Ended: true, Reason: fmt.Sprintf("container %s exited with code %d (%s)", c.Name, t.ExitCode,
				reasonText(t.Reason, t.Message))}
		}
	}
	for _, cond := range pod.Status.Conditions {
		if cond.Type == corev1.PodScheduled && cond.Status == corev1.ConditionFalse {
			return PodStart{Reason: "not scheduled: " + reasonText(cond.Reason, cond.Message)}
		}
	}
	if pod.Spec.NodeName == "" {
		return PodStart{Reason: "not scheduled yet"}
	}
	for _, c := range slices.Concat(pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses) {
		if c.State.Waiting != nil && c.State.Waiting.Reason != "" {
			return PodStart{
				Ended:  slices.Contains(hopelessWaitingReasons, c.State.Waiting.Reason),
				Reason: fmt.Sprintf("container %s: %s", c.Name, reasonText(c.State.Waiting.Reason, c.State.Waiting.Message)),
			}
		}
	}
	return PodStart{Reason: "starting on node " + pod.Spec.NodeName}
}

// reasonText joins a machine reason and a human message, either of which may be empty.
func reasonText(reason, message string) string {
	switch {
	case reason == "":
		return message
	case message == "":
		return reason
	}
	return reason + ": " + message
}

// latestWarning is the newest Warning event of pod, as "; last warning ...", or empty
// when there is none or the events cannot be read. It tells what status does not,
// such as a volume that cannot be mounted while the container waits in
// ContainerCreating.
func latestWarning(ctx context.Context, cs kubernetes.Interface, pod *corev1.Pod) string {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), eventsTimeout)
	defer cancel()
	selector := fields.Set{"involvedObject.uid": string(pod.UID), "type": corev1.EventTypeWarning}.AsSelector().String()
	list, err := cs.CoreV1().Events(pod.Namespace).List(ctx, metav1.ListOptions{FieldSelector: selector})
	if err != nil || len(list.Items) == 0 {
		return ""
	}
	e := slices.MaxFunc(list.Items, func(a, b corev1.Event) int { return eventTime(a).Compare(eventTime(b)) })
	return fmt.Sprintf("; last warning: %s", reasonText(e.Reason, strings.TrimSpace(e.Message)))
}

// eventTime is when an event last happened, in whichever field its reporter set.
func eventTime(e corev1.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	}
	return e.CreationTimestamp.Time
}

// exec runs command in the session's container through the pods/exec subresource,
// over WebSocket, and over SPDY where the API server (before Kubernetes 1.31) or a
// proxy between refuses the WebSocket upgrade, as kubectl exec does. A command that
// exits non-zero returns an *ExitCodeError with its code.
func (s *clientSession) exec(ctx context.Context, command []string, streams remotecommand.StreamOptions) error {
	req := s.cs.CoreV1().RESTClient().Post().Resource("pods").Namespace(s.pod.Namespace).Name(s.pod.Name).SubResource("exec").
		VersionedParams(&corev1.PodExecOptions{
			Container: s.container,
			Command:   command,
			Stdin:     streams.Stdin != nil,
			Stdout:    streams.Stdout != nil,
			Stderr:    streams.Stderr != nil,
			TTY:       streams.Tty,
		}, clientgoscheme.ParameterCodec)
	spdy, err := remotecommand.NewSPDYExecutor(s.cfg, http.MethodPost, req.URL())
	if err != nil {
		return err
	}
	// WebSocket's handshake is a GET (RFC 6455, 4.1).
	websocket, err := remotecommand.NewWebSocketExecutor(s.cfg, http.MethodGet, req.URL().String())
	if err != nil {
		return err
	}
	executor, err := remotecommand.NewFallbackExecutor(websocket, spdy, upgradeRefused)
	if err != nil {
		return err
	}
	err = executor.StreamWithContext(ctx, streams)
	if code, ok := exitCode(err); ok {
		return &ExitCodeError{Code: code}
	}
	if err != nil {
		return fmt.Errorf("running %s in pod %s/%s: %w", command[0], s.pod.Namespace, s.pod.Name, err)
	}
	return nil
}

// exitCode is the code of a command that exited non-zero, which the kubelet reports
// on the exec stream and client-go returns as an error that carries it.
func exitCode(err error) (int, bool) {
	var exit utilexec.ExitError
	if errors.As(err, &exit) && exit.Exited() {
		return exit.ExitStatus(), true
	}
	return 0, false
}

// upgradeRefused says whether a WebSocket attempt failed where SPDY may not: the API
// server or a proxy refused the upgrade, or the proxy is one that the WebSocket
// library cannot use. client-go's WebSocket transport reports these with
// k8s.io/streaming's error type, for exec and port-forward alike.
func upgradeRefused(err error) bool {
	return streamhttp.IsUpgradeFailure(err) || streamhttp.IsHTTPSProxyError(err)
}
