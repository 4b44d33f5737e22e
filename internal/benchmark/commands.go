package benchmark

import (
	"fmt"
	"path"
	"strconv"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// hadoopDefaultReplication is Hadoop's dfs.replication default, TeraSort's output
// replication when neither the run nor the cluster sets one.
const hadoopDefaultReplication = 3

// Rows is the number of 100-byte rows TeraGen generates for w.
func Rows(w *v1alpha1.TeraSortWorkload) int64 {
	if w.Rows != nil {
		return *w.Rows
	}
	if w.Size != nil {
		return w.Size.Value() / rowBytes
	}
	return 0
}

// runnerArgs are run-benchmark's arguments for step: the runner's options, then the
// Hadoop command. Every MapReduce job is tagged with the stage's Job name, so the
// ResourceManager's REST API finds it (and its progress) by
// /ws/v1/cluster/apps?applicationTags=<job name>.
func runnerArgs(in Input, s Step) ([]string, error) {
	run := in.Run
	spec := &run.Spec
	rep := repetitionDir(run, s.Repetition)
	tag := define("mapreduce.job.tags", JobName(run, s))
	exec := func(opts ...string) []string {
		return append(append([]string{"exec", "--stage", string(s.Stage)}, opts...), "--")
	}
	// job is the generic options of every MapReduce job: the tag, and the queue.
	job := []string{tag}
	if spec.Queue != "" {
		job = append(job, define("mapreduce.job.queuename", spec.Queue))
	}
	examples := func(program string) []string {
		return append([]string{"hadoop", "jar", ExamplesJar, program}, job...)
	}

	switch s.Stage {
	case v1alpha1.StageTeraGen:
		args := append(exec(), examples("teragen")...)
		if m := spec.TeraSort.Maps; m != nil {
			args = append(args, define("mapreduce.job.maps", strconv.Itoa(int(*m))))
		}
		return append(args, strconv.FormatInt(Rows(spec.TeraSort), 10), path.Join(rep, "teragen")), nil
	case v1alpha1.StageTeraSort:
		args := append(exec(), examples("terasort")...)
		if r := spec.TeraSort.Reduces; r != nil {
			args = append(args, define("mapreduce.job.reduces", strconv.Itoa(int(*r))))
		}
		args = append(args, define("mapreduce.terasort.output.replication", outputReplication(spec.TeraSort, in.Cluster.Cluster, hdfsReplication(in.Cluster.Storage))))
		return append(args, path.Join(rep, "teragen"), path.Join(rep, "terasort")), nil
	case v1alpha1.StageTeraValidate:
		report := path.Join(rep, "teravalidate")
		args := append(exec("--validate-report", report), examples("teravalidate")...)
		return append(args, path.Join(rep, "terasort"), report), nil
	case v1alpha1.StageDFSIOWrite, v1alpha1.StageDFSIORead:
		mode := "-write"
		if s.Stage == v1alpha1.StageDFSIORead {
			mode = "-read"
		}
		w := spec.TestDFSIO
		args := append(exec("--dfsio-result", dfsioResultFile),
			"hadoop", "jar", JobClientTestsJar, "TestDFSIO")
		args = append(append(args, job...),
			define("test.build.data", path.Join(rep, "dfsio")),
			mode, "-nrFiles", strconv.Itoa(int(w.Files)), "-size", dfsioSize(w.FileSize.Value()),
			"-resFile", dfsioResultFile)
		return args, nil
	case v1alpha1.StageIngest:
		w := spec.Ingest
		return []string{
			"ingest", "--stage", string(s.Stage),
			"--puts", strconv.Itoa(int(max(w.ParallelPuts, 1))),
			"--size", strconv.FormatInt(w.FileSize.Value(), 10),
			"--dest", path.Join(rep, "ingest"),
		}, nil
	case v1alpha1.StageWordCount:
		input := spec.WordCount.InputPath
		args := append(exec("--require-path", input), examples("wordcount")...)
		return append(args, input, path.Join(rep, "wordcount")), nil
	case v1alpha1.StageGrep:
		g := spec.Grep
		args := append(exec("--require-path", g.InputPath), examples("grep")...)
		args = append(args, g.InputPath, path.Join(rep, "grep"), g.Pattern)
		if g.Group != nil {
			args = append(args, strconv.Itoa(int(*g.Group)))
		}
		return args, nil
	case v1alpha1.StageCleanup:
		// The last repetition's cleanup takes the run's directory with it.
		target := rep
		if s.Repetition >= repetitions(spec) {
			target = WorkDir(run)
		}
		return append(exec(), "hadoop", "fs", "-rm", "-r", "-f", "-skipTrash", target), nil
	}
	return nil, fmt.Errorf("unknown stage %q", s.Stage)
}

// define is a Hadoop generic option.
func define(key, value string) string {
	return "-D" + key + "=" + value
}

// outputReplication is spec.teraSort.outputReplication, else the cluster's
// dfs.replication, else the storage's (an HDFS backend's hdfs-site.xml, which the
// cluster's clients write with; empty for CephFS), else Hadoop's default: what
// TeraGen's output was written with.
func outputReplication(w *v1alpha1.TeraSortWorkload, hc *v1alpha1.HadoopCluster, storage string) string {
	if r := w.OutputReplication; r != nil {
		return strconv.Itoa(int(*r))
	}
	if r, ok := hc.Spec.Config.CoreSite["dfs.replication"]; ok {
		return r
	}
	if storage != "" {
		return storage
	}
	return strconv.Itoa(hadoopDefaultReplication)
}

// hdfsReplication is the dfs.replication of an HDFS backend's client configuration;
// empty for CephFS, whose pool decides.
func hdfsReplication(st hadoop.Storage) string {
	if st.HDFS == nil {
		return ""
	}
	return st.HDFS.Site["dfs.replication"]
}

// dfsioSize is TestDFSIO's -size for a file of bytes: whole MiB where it can, as
// TestDFSIO reports in MiB; TestDFSIO's units are binary.
func dfsioSize(bytes int64) string {
	if bytes%(1<<20) == 0 {
		return strconv.FormatInt(bytes>>20, 10) + "MB"
	}
	return strconv.FormatInt(bytes, 10) + "B"
}
