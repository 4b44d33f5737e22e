package plugin

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/remotecommand"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// clientPodTemplate is a client PodTemplate in the shape the operator's has: client
// labels, a default-container annotation, the configuration over HADOOP_CONF_DIR and a
// first container that sleeps. The plugin must pass all of it through.
func clientPodTemplate(ns, cluster string) *corev1.PodTemplate {
	return &corev1.PodTemplate{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: cluster + "-client"},
		Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{
				Labels:      map[string]string{hadoop.LabelName: hadoop.AppName, hadoop.LabelInstance: cluster, hadoop.LabelComponent: "client"},
				Annotations: map[string]string{hadoop.DefaultContainerAnnotation: "client"},
			},
			Spec: corev1.PodSpec{
				RestartPolicy:   corev1.RestartPolicyAlways,
				SecurityContext: &corev1.PodSecurityContext{RunAsUser: ptr.To[int64](1000), RunAsNonRoot: ptr.To(true)},
				Containers: []corev1.Container{{
					Name:         "client",
					Image:        "hadoop:test",
					Command:      []string{"sleep", "infinity"},
					VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/opt/hadoop/etc/hadoop"}},
				}},
				Volumes: []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{
					ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: cluster + "-client"}},
				}}},
			},
		},
	}
}

func TestClientPodKeepsTheTemplateAndLimitsItsLife(t *testing.T) {
	tmpl := clientPodTemplate("analytics-ns", "analytics")
	hc := &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "analytics-ns", Name: "analytics", UID: "c1"}}
	pod, err := ClientPod(tmpl, hc, "shell", 90*time.Minute+300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	wantSpec := *tmpl.Template.Spec.DeepCopy()
	wantSpec.RestartPolicy = corev1.RestartPolicyNever
	wantSpec.ActiveDeadlineSeconds = ptr.To[int64](5401)
	want := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:    "analytics-ns",
			GenerateName: "analytics-shell-",
			Labels:       map[string]string{hadoop.LabelName: hadoop.AppName, hadoop.LabelInstance: "analytics", hadoop.LabelComponent: "client"},
			Annotations:  map[string]string{hadoop.DefaultContainerAnnotation: "client"},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "hadoopceph.io/v1alpha1", Kind: "HadoopCluster", Name: "analytics", UID: "c1",
			}},
		},
		Spec: wantSpec,
	}
	if !reflect.DeepEqual(pod, want) {
		t.Fatalf("ClientPod =\n%+v\nwant\n%+v", pod, want)
	}
	if got := pod.Spec.Containers[0].Command; !reflect.DeepEqual(got, []string{"sleep", "infinity"}) {
		t.Fatalf("command = %q, want the template's", got)
	}
	// The pod is the template's copy: building it twice, or changing it, leaves the
	// template as the operator wrote it.
	pod.Labels["changed"] = "yes"
	if _, ok := tmpl.Template.Labels["changed"]; ok || tmpl.Template.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		t.Fatal("ClientPod changed the PodTemplate")
	}
}

func TestClientPodRefusesATemplateWithoutContainers(t *testing.T) {
	tmpl := clientPodTemplate("ns", "analytics")
	tmpl.Template.Spec.Containers = nil
	_, err := ClientPod(tmpl, &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Name: "analytics"}}, "run", time.Hour)
	if err == nil || err.Error() != "PodTemplate ns/analytics-client has no containers" {
		t.Fatalf("err = %v, want the template named", err)
	}
}

func TestReadPodStart(t *testing.T) {
	scheduled := corev1.PodSpec{NodeName: "node-1"}
	waiting := func(reason, message string) corev1.PodStatus {
		return corev1.PodStatus{Phase: corev1.PodPending, ContainerStatuses: []corev1.ContainerStatus{{
			Name: "client", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}},
		}}}
	}
	for _, tc := range []struct {
		name string
		pod  corev1.Pod
		want PodStart
	}{{
		name: "just created",
		pod:  corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending}},
		want: PodStart{Reason: "not scheduled yet"},
	}, {
		name: "unschedulable",
		pod: corev1.Pod{Status: corev1.PodStatus{Phase: corev1.PodPending, Conditions: []corev1.PodCondition{{
			Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable", Message: "0/3 nodes are available: 3 Insufficient memory.",
		}}}},
		want: PodStart{Reason: "not scheduled: Unschedulable: 0/3 nodes are available: 3 Insufficient memory."},
	}, {
		name: "creating",
		pod:  corev1.Pod{Spec: scheduled, Status: waiting("ContainerCreating", "")},
		want: PodStart{Reason: "container client: ContainerCreating"},
	}, {
		name: "pulling in vain, which may yet succeed",
		pod:  corev1.Pod{Spec: scheduled, Status: waiting("ImagePullBackOff", `Back-off pulling image "hadoop:test"`)},
		want: PodStart{Reason: `container client: ImagePullBackOff: Back-off pulling image "hadoop:test"`},
	}, {
		name: "an image name that never pulls",
		pod:  corev1.Pod{Spec: scheduled, Status: waiting("InvalidImageName", `couldn't parse image name "Hadoop:?"`)},
		want: PodStart{Ended: true, Reason: `container client: InvalidImageName: couldn't parse image name "Hadoop:?"`},
	}, {
		name: "an init container first",
		pod: corev1.Pod{Spec: scheduled, Status: corev1.PodStatus{
			Phase: corev1.PodPending,
			InitContainerStatuses: []corev1.ContainerStatus{{Name: "setup", State: corev1.ContainerState{
				Waiting: &corev1.ContainerStateWaiting{Reason: "CreateContainerConfigError", Message: `secret "analytics-ceph" not found`}}}},
			ContainerStatuses: []corev1.ContainerStatus{{Name: "client", State: corev1.ContainerState{
				Waiting: &corev1.ContainerStateWaiting{Reason: "PodInitializing"}}}},
		}},
		want: PodStart{Reason: `container setup: CreateContainerConfigError: secret "analytics-ceph" not found`},
	}, {
		name: "running",
		pod: corev1.Pod{Spec: scheduled, Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{
			{Name: "sidecar", State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}},
			{Name: "client", State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}},
		}}},
		want: PodStart{Running: true},
	}, {
		name: "its container ended",
		pod: corev1.Pod{Spec: scheduled, Status: corev1.PodStatus{Phase: corev1.PodRunning, ContainerStatuses: []corev1.ContainerStatus{{
			Name: "client", State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 137, Reason: "OOMKilled"}},
		}}}},
		want: PodStart{Ended: true, Reason: "container client exited with code 137 (OOMKilled)"},
	}, {
		name: "past its deadline",
		pod: corev1.Pod{Spec: scheduled, Status: corev1.PodStatus{
			Phase: corev1.PodFailed, Reason: "DeadlineExceeded", Message: "Pod was active on the node longer than the specified deadline",
		}},
		want: PodStart{Ended: true, Reason: "it ended, in phase Failed (DeadlineExceeded: Pod was active on the node longer than the specified deadline)"},
	}, {
		name: "being deleted",
		pod:  corev1.Pod{ObjectMeta: metav1.ObjectMeta{DeletionTimestamp: ptr.To(metav1.Now())}, Spec: scheduled, Status: waiting("ContainerCreating", "")},
		want: PodStart{Ended: true, Reason: "it is being deleted"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReadPodStart(&tc.pod, "client"); got != tc.want {
				t.Fatalf("ReadPodStart = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestClientPodFlagsAreCheckedFirst(t *testing.T) {
	for _, args := range [][]string{
		{"shell", "analytics", "--max-time", "0s"},
		{"run", "analytics", "--max-time", "500ms", "--", "hadoop", "version"},
		{"shell", "analytics", "--timeout", "0s"},
	} {
		// No such cluster: the flags are refused before it is looked for.
		_, _, err := kubectl(t, append([]string{"-n", "nowhere"}, args...)...)
		if err == nil || (!strings.Contains(err.Error(), "--max-time") && !strings.Contains(err.Error(), "--timeout")) {
			t.Fatalf("%q: err = %v, want the duration refused", args, err)
		}
	}
}

// clusterWithClientTemplate creates a HadoopCluster whose status names a client
// PodTemplate, and the PodTemplate unless template is nil.
func clusterWithClientTemplate(t *testing.T, ns, name string, template *corev1.PodTemplate) *v1alpha1.HadoopCluster {
	t.Helper()
	ctx := context.Background()
	hc := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "ceph"}, Image: "hadoop:test"},
	}
	if err := k8s.Create(ctx, hc); err != nil {
		t.Fatal(err)
	}
	hc.Status.Client = v1alpha1.ClientStatus{ConfigMap: name + "-client", Secret: name + "-ceph-client", PodTemplate: name + "-client"}
	if err := k8s.Status().Update(ctx, hc); err != nil {
		t.Fatal(err)
	}
	if template != nil {
		if err := k8s.Create(ctx, template); err != nil {
			t.Fatal(err)
		}
	}
	return hc
}

// clientPods lists the pods of cluster's sessions in ns.
func clientPods(t *testing.T, ns, cluster string) []corev1.Pod {
	t.Helper()
	var pods corev1.PodList
	if err := k8s.List(context.Background(), &pods, client.InNamespace(ns), client.MatchingLabels{hadoop.LabelInstance: cluster}); err != nil {
		t.Fatal(err)
	}
	return pods.Items
}

func TestShellAndRunNeedTheClusterToNameAPodTemplate(t *testing.T) {
	ns := namespace(t, "no-template")
	ctx := context.Background()
	hc := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "older"},
		Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "ceph"}, Image: "hadoop:test"},
	}
	if err := k8s.Create(ctx, hc); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"shell", "older"}, {"run", "older", "--", "hadoop", "version"}} {
		_, _, err := kubectl(t, append([]string{"-n", ns}, args...)...)
		if err == nil || !strings.Contains(err.Error(), "HadoopCluster "+ns+"/older names no client PodTemplate in status.client.podTemplate") ||
			!strings.Contains(err.Error(), "operators older than this plugin") {
			t.Fatalf("%s: err = %v, want the missing status.client.podTemplate explained", args[0], err)
		}
	}

	clusterWithClientTemplate(t, ns, "gone", nil)
	_, _, err := kubectl(t, "-n", ns, "shell", "gone")
	if err == nil || err.Error() != "PodTemplate "+ns+"/gone-client, which HadoopCluster "+ns+"/gone names in status.client.podTemplate, not found" {
		t.Fatalf("err = %v, want the missing PodTemplate named", err)
	}
	if pods := clientPods(t, ns, "older"); len(pods) != 0 {
		t.Fatalf("pods %v created without a PodTemplate", pods)
	}
}

func TestRunCreatesThePodFromTheTemplateAndDeletesItWhenItDoesNotStart(t *testing.T) {
	ns := namespace(t, "run")
	hc := clusterWithClientTemplate(t, ns, "analytics", clientPodTemplate(ns, "analytics"))

	// The test API server has no scheduler and no kubelet: the pod stays Pending, and
	// run gives up after --timeout. The pod is read while run waits for it.
	type result struct {
		stderr string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		_, stderr, err := kubectl(t, "-n", ns, "run", "analytics", "--timeout", "3s", "--max-time", "2h", "--", "hadoop", "version")
		done <- result{stderr, err}
	}()
	var pod corev1.Pod
	for deadline := time.Now().Add(3 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if pods := clientPods(t, ns, "analytics"); len(pods) == 1 {
			pod = pods[0]
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("run created no pod")
		}
	}
	if !strings.HasPrefix(pod.Name, "analytics-run-") || pod.Labels[hadoop.LabelComponent] != "client" ||
		pod.Spec.RestartPolicy != corev1.RestartPolicyNever || ptr.Deref(pod.Spec.ActiveDeadlineSeconds, 0) != 7200 ||
		!reflect.DeepEqual(pod.Spec.Containers[0].Command, []string{"sleep", "infinity"}) ||
		len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0].UID != hc.UID {
		t.Fatalf("pod = %+v, want the PodTemplate's pod, named for run, with no restarts, a 2h deadline and the cluster as owner", pod)
	}

	res := <-done
	if !strings.Contains(res.stderr, "Using pod "+ns+"/"+pod.Name) || !strings.Contains(res.stderr, "Waiting for pod "+pod.Name+": not scheduled yet") {
		t.Fatalf("stderr = %q, want the pod named and why it waits", res.stderr)
	}
	want := "pod " + ns + "/" + pod.Name + " did not start within 3s (--timeout): not scheduled yet"
	if res.err == nil || res.err.Error() != want {
		t.Fatalf("err = %v, want %q", res.err, want)
	}
	if pods := clientPods(t, ns, "analytics"); len(pods) != 0 {
		t.Fatalf("pods %s left behind", pods[0].Name)
	}
}

// unscheduledPod creates a pod the test API server cannot stream to: with no kubelet,
// it has no node. Requests to its exec and portforward subresources reach the API
// server, which refuses them; the end-to-end suite streams to real pods.
func unscheduledPod(t *testing.T, ns, name string) *corev1.Pod {
	t.Helper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "client", Image: "hadoop:test"}}},
	}
	if err := k8s.Create(context.Background(), pod); err != nil {
		t.Fatal(err)
	}
	return pod
}

// testREST is how the plugin reaches the suite's API server.
func testREST(t *testing.T) (*rest.Config, kubernetes.Interface) {
	t.Helper()
	flags := genericclioptions.NewConfigFlags(true)
	flags.KubeConfig = &kubeconfig
	cfg, err := flags.ToRESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	return cfg, kubernetes.NewForConfigOrDie(cfg)
}

func TestExecReturnsTheAPIServersRefusal(t *testing.T) {
	ns := namespace(t, "exec")
	pod := unscheduledPod(t, ns, "analytics-run-x7k2p")
	cfg, cs := testREST(t)
	s := &clientSession{cfg: cfg, cs: cs, pod: pod, container: "client"}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	err := s.exec(ctx, []string{"hadoop", "version"}, remotecommand.StreamOptions{Stdout: &out, Stderr: &errOut})
	want := "running hadoop in pod " + ns + "/analytics-run-x7k2p: "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "does not have a host assigned") {
		t.Fatalf("err = %v, want %q and the API server's reason", err, want)
	}
	if _, ok := exitCode(err); ok {
		t.Fatal("a refused exec is not the command's exit")
	}
}
