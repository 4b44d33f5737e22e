package benchmark

import (
	"fmt"
	"path"
	"strconv"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Labels on every stage Job and its pods, next to the HadoopCluster's labels with
// component hadoop.Client. The operator finds a run's Jobs and pods by LabelRun.
const (
	LabelRun        = "hadoopceph.io/benchmarkrun"
	LabelStage      = "hadoopceph.io/stage"
	LabelRepetition = "hadoopceph.io/repetition"
)

// WorkRoot is the directory, from Hadoop's root on CephFS, under which runs keep
// their data.
const WorkRoot = "/benchmarks"

// JobName names the Job of a step: <run>-<stage>-r<repetition>. The API limits run
// names to 46 characters and repetitions to 10, so it has at most 63 characters, and
// the hostname of an ingest pod, <job>-<index>, stays within 63 too.
func JobName(run *v1alpha1.BenchmarkRun, s Step) string {
	return fmt.Sprintf("%s-%s-r%d", run.Name, s.Stage, s.Repetition)
}

// WorkDir is the run's directory on the cluster's file system. The UID keeps a new
// run of the same name clear of data an old one left behind with cleanup off.
func WorkDir(run *v1alpha1.BenchmarkRun) string {
	return path.Join(WorkRoot, run.Namespace, run.Name+"-"+string(run.UID))
}

// repetitionDir holds the data of one repetition.
func repetitionDir(run *v1alpha1.BenchmarkRun, rep int32) string {
	return path.Join(WorkDir(run), "r"+strconv.Itoa(int(rep)))
}

func jobLabels(run *v1alpha1.BenchmarkRun, s Step) map[string]string {
	return map[string]string{
		LabelRun:        run.Name,
		LabelStage:      string(s.Stage),
		LabelRepetition: strconv.Itoa(int(s.Repetition)),
	}
}
