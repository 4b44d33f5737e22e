package yarn

import (
	"os"
	"strings"
	"testing"
)

func TestDecodeQueuesFlattensTheHierarchy(t *testing.T) {
	data, err := os.ReadFile("testdata/scheduler-queues.json")
	if err != nil {
		t.Fatal(err)
	}
	queues, err := DecodeQueues(data)
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		path     string
		state    string
		leaf     bool
		absolute float64
		apps     int32
	}
	wants := []want{
		{"root.default", "RUNNING", true, 70, 1},
		{"root.teams", "RUNNING", false, 30, 0},
		{"root.teams.etl", "RUNNING", true, 15, 0},
		{"root.teams.adhoc", "STOPPED", true, 15, 0},
	}
	if len(queues) != len(wants) {
		t.Fatalf("got %d queues %+v, want %d", len(queues), queues, len(wants))
	}
	for i, w := range wants {
		q := queues[i]
		if q.Path != w.path || q.State != w.state || q.Leaf != w.leaf || q.AbsoluteCapacity != w.absolute || q.NumApplications != w.apps {
			t.Errorf("queue %d = %+v, want %+v", i, q, w)
		}
	}
	if got := queues[0].UsedCapacity; got < 83.3 || got > 83.4 {
		t.Errorf("root.default's used capacity = %v, want 83.33", got)
	}
}

func TestDecodeQueuesRefusesOtherSchedulers(t *testing.T) {
	_, err := DecodeQueues([]byte(`{"scheduler":{"schedulerInfo":{"type":"fifoScheduler","capacity":1}}}`))
	if err == nil || !strings.Contains(err.Error(), `"fifoScheduler"`) {
		t.Fatalf("err = %v, want the FIFO scheduler named", err)
	}
	_, err = DecodeQueues([]byte(`{"apps":null}`))
	if err == nil || !strings.Contains(err.Error(), "schedulerInfo") {
		t.Fatalf("err = %v, want the missing schedulerInfo named", err)
	}
}
