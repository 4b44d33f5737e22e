package yarn

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDecodeApplications(t *testing.T) {
	tests := []struct {
		fixture string
		want    []Application
	}{
		{"none.json", nil},
		{"terasort-running.json", []Application{{
			ID: "application_1795318800000_0002", Name: "TeraSort", State: "RUNNING", FinalStatus: "UNDEFINED",
			Progress: 42.52, ApplicationTags: "sort-terasort-r1", StartedTime: 1795319765812,
			User: "hadoop", Queue: "default", ElapsedTime: 61388, AllocatedMB: 14336, AllocatedVCores: 7, RunningContainers: 7,
			AMHostHTTPAddress: "analytics-nodemanager-1.analytics-nodemanager.bench.svc:8042",
		}}},
		{"grep-sorting.json", []Application{
			{
				ID: "application_1795318800000_0007", Name: "grep-search", State: "FINISHED", FinalStatus: "SUCCEEDED",
				Progress: 100, ApplicationTags: "find-grep-r1", StartedTime: 1795319765812, FinishedTime: 1795319803517,
				// A finished application's allocation is -1: it holds nothing.
				User: "hadoop", Queue: "default", ElapsedTime: 37705, AllocatedMB: -1, AllocatedVCores: -1, RunningContainers: -1,
				AMHostHTTPAddress: "analytics-nodemanager-0.analytics-nodemanager.bench.svc:8042",
			},
			{
				ID: "application_1795318800000_0008", Name: "grep-sort", State: "RUNNING", FinalStatus: "UNDEFINED",
				Progress: 30.1, ApplicationTags: "find-grep-r1", StartedTime: 1795319804302,
				User: "hadoop", Queue: "default", ElapsedTime: 6215, AllocatedMB: 4096, AllocatedVCores: 2, RunningContainers: 2,
				AMHostHTTPAddress: "analytics-nodemanager-2.analytics-nodemanager.bench.svc:8042",
			},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.fixture, func(t *testing.T) {
			got, err := DecodeApplications(fixture(t, tt.fixture))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

func TestDecodeApplicationsRefusesWhatIsNotJSON(t *testing.T) {
	// What a ResourceManager behind an authenticating proxy might answer.
	if _, err := DecodeApplications([]byte("<html><body>Login</body></html>")); err == nil {
		t.Error("want an error")
	}
}

func TestApplicationTagsStatesAndTimes(t *testing.T) {
	apps, err := DecodeApplications(fixture(t, "unfiltered.json"))
	if err != nil {
		t.Fatal(err)
	}
	var tagged []string
	for _, a := range apps {
		if a.HasTag("Sort-TeraGen-r1") {
			tagged = append(tagged, a.ID)
		}
	}
	if diff := cmp.Diff([]string{"application_1795318800000_0001"}, tagged); diff != "" {
		t.Errorf("applications tagged sort-teragen-r1 (-want +got)\n%s", diff)
	}
	if !apps[1].HasTag("nightly") {
		t.Error("the second application has the tag nightly too")
	}

	for state, ended := range map[string]bool{
		"NEW": false, "NEW_SAVING": false, "SUBMITTED": false, "ACCEPTED": false, "RUNNING": false,
		"FINISHED": true, "FAILED": true, "KILLED": true,
	} {
		if got := (Application{State: state}).Ended(); got != ended {
			t.Errorf("%s: Ended() = %t, want %t", state, got, ended)
		}
	}

	if got, want := apps[0].Started(), time.Date(2026, 11, 22, 3, 56, 5, 812e6, time.UTC); !got.Equal(want) {
		t.Errorf("Started() = %s, want %s", got, want)
	}
	if got := (Application{}).Started(); !got.IsZero() {
		t.Errorf("Started() of an application whose start is hidden = %s, want the zero time", got)
	}
}
