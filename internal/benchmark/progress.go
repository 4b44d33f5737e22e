package benchmark

import (
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// MapReduceJobs is the number of MapReduce jobs a stage's tool runs, one after the
// other: Grep runs a search job and then a job that sorts what it found; TeraSort
// samples its input in the client, without a job. Ingest and cleanup run none.
func MapReduceJobs(stage v1alpha1.BenchmarkStage) int {
	switch stage {
	case v1alpha1.StageGrep:
		return 2
	case v1alpha1.StageIngest, v1alpha1.StageCleanup:
		return 0
	}
	return 1
}

// clockSkew is how far the ResourceManager's clock may be ahead of the API server's
// without an application of the stage being taken for an earlier run's.
const clockSkew = 2 * time.Second

// StagePercent is how far a running stage's MapReduce work is, from the YARN
// applications tagged with the stage's Job name. Each of the stage's jobs
// (MapReduceJobs, or more if YARN lists more) weighs the same: one that ended counts
// in full whatever its final status, since the stage's report says whether it
// succeeded; one that has not ended counts with the progress YARN reports; one not
// submitted yet counts nothing. Applications that started before the Job was
// created belong to an earlier run of the same name, deleted while its job ran on.
//
// ok is false while YARN lists no application of the stage, and for stages that run
// no MapReduce job: the percent is unknown, not 0.
func StagePercent(stage v1alpha1.BenchmarkStage, apps []yarn.Application, jobCreated time.Time) (percent int32, ok bool) {
	jobs := MapReduceJobs(stage)
	if jobs == 0 {
		return 0, false
	}
	var mine int
	var done float64
	for _, a := range apps {
		if started := a.Started(); !started.IsZero() && started.Before(jobCreated.Add(-clockSkew)) {
			continue
		}
		mine++
		if a.Ended() {
			done += 100
		} else {
			done += min(max(a.Progress, 0), 100)
		}
	}
	if mine == 0 {
		return 0, false
	}
	return int32(done / float64(max(jobs, mine))), true
}
