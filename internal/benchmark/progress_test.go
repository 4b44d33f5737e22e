package benchmark

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// The ResourceManager answers of internal/yarn/testdata, whose stage Jobs were
// created at 03:56:00 UTC.
var fixtureJobCreated = time.UnixMilli(1795319760000)

func rmAnswer(t *testing.T, name string) []yarn.Application {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "yarn", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	apps, err := yarn.DecodeApplications(data)
	if err != nil {
		t.Fatal(err)
	}
	return apps
}

func TestStagePercent(t *testing.T) {
	grep := rmAnswer(t, "grep-sorting.json")
	running := func(progress float64) yarn.Application {
		return yarn.Application{State: "RUNNING", Progress: progress, StartedTime: 1795319765812}
	}
	tests := []struct {
		name   string
		stage  v1alpha1.BenchmarkStage
		apps   []yarn.Application
		want   int32
		wantOK bool
	}{
		{"no application yet", v1alpha1.StageTeraSort, rmAnswer(t, "none.json"), 0, false},
		{"one job running, rounded down", v1alpha1.StageTeraSort, rmAnswer(t, "terasort-running.json"), 42, true},
		{"Grep's search job running", v1alpha1.StageGrep, []yarn.Application{running(30.1)}, 15, true},
		{"Grep between its jobs", v1alpha1.StageGrep, grep[:1], 50, true},
		{"Grep's sort job running", v1alpha1.StageGrep, grep, 65, true},
		{"an earlier run's job is left out", v1alpha1.StageWordCount, rmAnswer(t, "wordcount-rerun.json"), 0, true},
		{"only an earlier run's job", v1alpha1.StageWordCount, rmAnswer(t, "wordcount-rerun.json")[:1], 0, false},
		{"a failed job has ended", v1alpha1.StageTeraGen, []yarn.Application{{State: "FAILED", Progress: 57, StartedTime: 1795319765812}}, 100, true},
		{"more jobs than expected share the stage", v1alpha1.StageWordCount, []yarn.Application{{State: "FINISHED", Progress: 100}, running(50)}, 75, true},
		{"a hidden start time is taken as this run's", v1alpha1.StageWordCount, []yarn.Application{{State: "RUNNING", Progress: 20}}, 20, true},
		{"within the clocks' skew", v1alpha1.StageWordCount, []yarn.Application{{State: "RUNNING", Progress: 20, StartedTime: 1795319759000}}, 20, true},
		{"progress beyond 100 is 100", v1alpha1.StageWordCount, []yarn.Application{running(100.4)}, 100, true},
		{"ingest runs no MapReduce job", v1alpha1.StageIngest, []yarn.Application{running(50)}, 0, false},
		{"cleanup runs no MapReduce job", v1alpha1.StageCleanup, []yarn.Application{running(50)}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := StagePercent(tt.stage, tt.apps, fixtureJobCreated)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("StagePercent = %d, %t; want %d, %t", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}
