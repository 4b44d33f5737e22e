package plugin

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// stagePodFor creates a pod labelled as the operator labels a stage Job's pods. The
// test API server has no kubelet, so the pod never runs; its log is the fake
// streamer's, and the end-to-end suite reads real ones.
func stagePodFor(t *testing.T, run *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage, rep int) {
	t.Helper()
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: run.Namespace,
			Name:      fmt.Sprintf("%s-%s-r%d-x7k2p", run.Name, stage, rep),
			Labels: map[string]string{
				benchmark.LabelRun:        run.Name,
				benchmark.LabelStage:      string(stage),
				benchmark.LabelRepetition: fmt.Sprint(rep),
			},
		},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "hadoop", Image: "hadoop"}}},
	}
	if err := k8s.Create(context.Background(), pod); err != nil {
		t.Fatal(err)
	}
}

// fakeLogs writes a line naming the pod and container it was asked for.
func fakeLogs(_ context.Context, pod *corev1.Pod, container string, w io.Writer) error {
	_, err := fmt.Fprintf(w, "log of %s/%s\n", pod.Name, container)
	return err
}

func TestLogsFollowTheRunsOrderAndFallBackToStatus(t *testing.T) {
	ns := namespace(t, "logs")
	run := teraSortRun(t, ns, "sort", "analytics", cephReplicated, [][3]float64{{20, 60, 18}, {21, 61, 19}})
	// Created out of order, and the first repetition's teragen pod is gone.
	stagePodFor(t, run, v1alpha1.StageTeraValidate, 2)
	stagePodFor(t, run, v1alpha1.StageTeraSort, 1)
	time.Sleep(1100 * time.Millisecond) // creation timestamps have one-second resolution
	stagePodFor(t, run, v1alpha1.StageTeraValidate, 1)
	stagePodFor(t, run, v1alpha1.StageTeraGen, 2)
	stagePodFor(t, run, v1alpha1.StageTeraSort, 2)
	// A pod of another run in the same namespace is not this run's.
	other := teraSortRun(t, ns, "other", "analytics", cephReplicated, [][3]float64{{20, 60, 18}})
	stagePodFor(t, other, v1alpha1.StageTeraGen, 1)

	var out bytes.Buffer
	if err := WriteLogs(context.Background(), &out, k8s, run, "", 0, fakeLogs); err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"==> teragen r1: no pods left (Job sort-teragen-r1); status says: teragen repetition 1 done <==",
		"==> terasort r1: pod sort-terasort-r1-x7k2p <==",
		"log of sort-terasort-r1-x7k2p/hadoop",
		"==> teravalidate r1: pod sort-teravalidate-r1-x7k2p <==",
		"log of sort-teravalidate-r1-x7k2p/hadoop",
		"==> teragen r2: pod sort-teragen-r2-x7k2p <==",
		"log of sort-teragen-r2-x7k2p/hadoop",
		"==> terasort r2: pod sort-terasort-r2-x7k2p <==",
		"log of sort-terasort-r2-x7k2p/hadoop",
		"==> teravalidate r2: pod sort-teravalidate-r2-x7k2p <==",
		"log of sort-teravalidate-r2-x7k2p/hadoop",
		"",
	}, "\n")
	if out.String() != want {
		t.Errorf("logs of every stage:\n%s\nwant:\n%s", out.String(), want)
	}

	out.Reset()
	if err := WriteLogs(context.Background(), &out, k8s, run, v1alpha1.StageTeraSort, 2, fakeLogs); err != nil {
		t.Fatal(err)
	}
	if want := "==> terasort r2: pod sort-terasort-r2-x7k2p <==\nlog of sort-terasort-r2-x7k2p/hadoop\n"; out.String() != want {
		t.Errorf("logs of terasort r2:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestLogsRefuseAStageTheWorkloadHasNot(t *testing.T) {
	ns := namespace(t, "logs-stage")
	teraSortRun(t, ns, "sort", "analytics", cephReplicated, [][3]float64{{20, 60, 18}})
	_, _, err := kubectl(t, "-n", ns, "logs", "sort", "dfsio-write")
	want := `STAGE "dfsio-write": BenchmarkRun ` + ns + `/sort runs the stages teragen, terasort, teravalidate, cleanup`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

func TestLogsOfARunThatHasNotStarted(t *testing.T) {
	ns := namespace(t, "logs-new")
	run := teraSortRun(t, ns, "sort", "analytics", cephReplicated, [][3]float64{{20, 60, 18}})
	run.Status.Stages = nil
	if err := k8s.Status().Update(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	err := WriteLogs(context.Background(), io.Discard, k8s, run, v1alpha1.StageTeraSort, 0, fakeLogs)
	if err == nil || !strings.Contains(err.Error(), "has not started stage terasort yet") {
		t.Fatalf("err = %v, want the stage named as not started", err)
	}
	_, _, err = kubectl(t, "-n", ns, "logs", "missing")
	if err == nil || err.Error() != "BenchmarkRun "+ns+"/missing not found" {
		t.Fatalf("err = %v, want the missing run named", err)
	}
}

func TestLogsRefuseARepetitionTheRunHasNot(t *testing.T) {
	ns := namespace(t, "logs-rep")
	teraSortRun(t, ns, "sort", "analytics", cephReplicated, [][3]float64{{20, 60, 18}, {21, 61, 19}})
	for _, rep := range []string{"3", "-1"} {
		_, _, err := kubectl(t, "-n", ns, "logs", "sort", "--repetition", rep)
		want := "--repetition " + rep + ": BenchmarkRun " + ns + "/sort has repetitions 1 to 2; 0 prints all"
		if err == nil || err.Error() != want {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
}
