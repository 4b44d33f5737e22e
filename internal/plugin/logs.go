package plugin

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
)

// stagePod is one pod of a stage's Job, with where it belongs in the run; or, for a
// step whose pods are gone, the step's result in status.
type stagePod struct {
	Pod        corev1.Pod
	Result     *v1alpha1.StageResult
	Stage      v1alpha1.BenchmarkStage
	Repetition int
}

// logStreamer copies the log of a pod's container to w.
type logStreamer func(ctx context.Context, pod *corev1.Pod, container string, w io.Writer) error

func newLogsCommand(o *Options) *cobra.Command {
	var repetition int
	var follow bool
	var tail int64
	cmd := &cobra.Command{
		Use:   "logs RUN [STAGE]",
		Short: "Print the output of a BenchmarkRun's stages",
		Long: `logs prints what the runner of each of the run's stages wrote: the Hadoop job's
client output, its counters and the runner's report. Without STAGE every stage is
printed in the order the run ran them, each under a header. The logs live with the
stage's pods, which the operator keeps until the BenchmarkRun is deleted; a stage whose
pods are gone prints the summary the runner left in status instead.`,
		Args: cobra.RangeArgs(1, 2),
	}
	cmd.Flags().IntVar(&repetition, "repetition", 0, "Only this repetition (1 is the first); 0 prints all.")
	cmd.Flags().BoolVarP(&follow, "follow", "f", false, "Follow the log of a stage that is running.")
	cmd.Flags().Int64Var(&tail, "tail", -1, "Lines of each log to print from its end; -1 prints all.")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		c, ns, err := o.connect()
		if err != nil {
			return err
		}
		cs, err := o.clientset()
		if err != nil {
			return err
		}
		runs, err := getRuns(cmd.Context(), c, ns, args[:1])
		if err != nil {
			return err
		}
		var stage v1alpha1.BenchmarkStage
		if len(args) == 2 {
			stage = v1alpha1.BenchmarkStage(args[1])
		}
		opts := corev1.PodLogOptions{Follow: follow}
		if tail >= 0 {
			opts.TailLines = &tail
		}
		return WriteLogs(cmd.Context(), o.Streams.Out, c, &runs[0], stage, repetition, podLogs(cs, opts))
	}
	return cmd
}

// podLogs streams a container's log from the API server, as kubectl logs does.
func podLogs(cs kubernetes.Interface, opts corev1.PodLogOptions) logStreamer {
	return func(ctx context.Context, pod *corev1.Pod, container string, w io.Writer) error {
		o := opts
		o.Container = container
		stream, err := cs.CoreV1().Pods(pod.Namespace).GetLogs(pod.Name, &o).Stream(ctx)
		if err != nil {
			return fmt.Errorf("reading the log of pod %s/%s: %w", pod.Namespace, pod.Name, err)
		}
		defer func() { _ = stream.Close() }()
		_, err = io.Copy(w, stream)
		return err
	}
}

// WriteLogs writes the logs of run's stage (every stage when stage is empty) and
// repetition (every one when 0) in the order the run ran them, each under a header. A
// step that status records but whose pods are gone shows the runner's summary there.
func WriteLogs(ctx context.Context, w io.Writer, c client.Client, run *v1alpha1.BenchmarkRun,
	stage v1alpha1.BenchmarkStage, repetition int, stream logStreamer) error {
	if err := checkStage(run, stage); err != nil {
		return err
	}
	if reps := max(run.Spec.Repetitions, 1); repetition < 0 || repetition > int(reps) {
		return fmt.Errorf("--repetition %d: BenchmarkRun %s/%s has repetitions 1 to %d; 0 prints all", repetition, run.Namespace, run.Name, reps)
	}
	steps, err := stagePods(ctx, c, run, stage, repetition)
	if err != nil {
		return err
	}
	withPods := map[string]bool{}
	for _, p := range steps {
		withPods[stepKey(p.Stage, p.Repetition)] = true
	}
	for _, res := range run.Status.Stages {
		if (stage != "" && res.Stage != stage) || (repetition != 0 && int(res.Repetition) != repetition) {
			continue
		}
		if !withPods[stepKey(res.Stage, int(res.Repetition))] {
			steps = append(steps, stagePod{Stage: res.Stage, Repetition: int(res.Repetition), Result: &res})
		}
	}
	if len(steps) == 0 {
		what := "any stage"
		if stage != "" {
			what = "stage " + string(stage)
		}
		if repetition != 0 {
			what += fmt.Sprintf(" repetition %d", repetition)
		}
		return fmt.Errorf("BenchmarkRun %s/%s has not started %s yet", run.Namespace, run.Name, what)
	}
	sortSteps(run, steps)
	for _, p := range steps {
		if p.Result != nil {
			fmt.Fprintf(w, "==> %s r%d: no pods left (Job %s); status says: %s <==\n", p.Stage, p.Repetition,
				orNone(p.Result.JobName), orNone(p.Result.Message))
			continue
		}
		fmt.Fprintf(w, "==> %s r%d: pod %s <==\n", p.Stage, p.Repetition, p.Pod.Name)
		if err := stream(ctx, &p.Pod, p.Pod.Spec.Containers[0].Name, w); err != nil {
			return err
		}
	}
	return nil
}

// checkStage refuses a stage the run's workload does not have, naming those it has.
func checkStage(run *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage) error {
	if stage == "" {
		return nil
	}
	stages := append(benchmark.MeasuredStages(&run.Spec), v1alpha1.StageCleanup)
	if slices.Contains(stages, stage) {
		return nil
	}
	names := make([]string, len(stages))
	for i, s := range stages {
		names[i] = string(s)
	}
	return fmt.Errorf("STAGE %q: BenchmarkRun %s/%s runs the stages %s", stage, run.Namespace, run.Name, strings.Join(names, ", "))
}

// stagePods lists the pods of run's stage Jobs by the labels every stage pod carries,
// so that a running step is found before status records it.
func stagePods(ctx context.Context, c client.Client, run *v1alpha1.BenchmarkRun, stage v1alpha1.BenchmarkStage, repetition int) ([]stagePod, error) {
	match := client.MatchingLabels{benchmark.LabelRun: run.Name}
	if stage != "" {
		match[benchmark.LabelStage] = string(stage)
	}
	if repetition != 0 {
		match[benchmark.LabelRepetition] = strconv.Itoa(repetition)
	}
	var list corev1.PodList
	if err := c.List(ctx, &list, client.InNamespace(run.Namespace), match); err != nil {
		return nil, fmt.Errorf("listing the pods of BenchmarkRun %s/%s: %w", run.Namespace, run.Name, err)
	}
	pods := make([]stagePod, 0, len(list.Items))
	for _, p := range list.Items {
		rep, err := strconv.Atoi(p.Labels[benchmark.LabelRepetition])
		if err != nil || len(p.Spec.Containers) == 0 {
			continue
		}
		pods = append(pods, stagePod{Pod: p, Stage: v1alpha1.BenchmarkStage(p.Labels[benchmark.LabelStage]), Repetition: rep})
	}
	return pods, nil
}

// sortSteps puts steps in the order the run ran them: by repetition, then stage, then
// creation (an ingest stage has a pod per client).
func sortSteps(run *v1alpha1.BenchmarkRun, steps []stagePod) {
	order := map[v1alpha1.BenchmarkStage]int{}
	for i, s := range benchmark.Plan(&run.Spec) {
		if _, ok := order[s.Stage]; !ok {
			order[s.Stage] = i
		}
	}
	slices.SortFunc(steps, func(a, b stagePod) int {
		return cmp.Or(cmp.Compare(a.Repetition, b.Repetition), cmp.Compare(order[a.Stage], order[b.Stage]),
			a.Pod.CreationTimestamp.Compare(b.Pod.CreationTimestamp.Time), strings.Compare(a.Pod.Name, b.Pod.Name))
	})
}

func stepKey(stage v1alpha1.BenchmarkStage, rep int) string {
	return fmt.Sprintf("%s/%d", stage, rep)
}
