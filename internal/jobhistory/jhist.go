package jobhistory

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// MapAttempt is one attempt of a map task, as the job's history records it.
type MapAttempt struct {
	// Task and Attempt are MapReduce's ids (task_..._m_000000, attempt_..._m_000000_0).
	Task    string
	Attempt string
	// SplitLocations are the hosts the job client found for the task's split: the
	// file system's block locations, in its order.
	SplitLocations []string
	// Locality is YARN's verdict on the container: NODE_LOCAL, RACK_LOCAL or
	// OFF_SWITCH.
	Locality string
	// Host is the NodeManager host the attempt ran on, as YARN names it; Rack is its
	// rack. Both are empty for an attempt that did not finish.
	Host string
	Rack string
	// Status is the attempt's final state: SUCCEEDED, FAILED or KILLED, empty while
	// unfinished.
	Status string
}

// The events read, by their type in the file; the others are skipped.
const (
	eventTaskStarted         = "TASK_STARTED"
	eventMapAttemptStarted   = "MAP_ATTEMPT_STARTED"
	eventMapAttemptFinished  = "MAP_ATTEMPT_FINISHED"
	eventMapAttemptFailed    = "MAP_ATTEMPT_FAILED"
	eventMapAttemptKilled    = "MAP_ATTEMPT_KILLED"
	eventReduceAttemptFailed = "REDUCE_ATTEMPT_FAILED"
	eventReduceAttemptKilled = "REDUCE_ATTEMPT_KILLED"
)

// A history file's first line names its encoding: Avro's JSON or binary encoding
// (mapreduce.jobhistory.jhist.format, binary by default since Hadoop 3).
const (
	jsonFormat   = "Avro-Json"
	binaryFormat = "Avro-Binary"
)

// event is one line after the schema: {"type": ..., "event": {"<record class>": {...}}}.
type event struct {
	Type  string                     `json:"type"`
	Event map[string]json.RawMessage `json:"event"`
}

// record holds the fields of the events read. Avro's JSON encoding writes a value of
// a nullable union as {"string": "..."}, hence optional.
type record struct {
	TaskID         string   `json:"taskid"`
	TaskType       string   `json:"taskType"`
	AttemptID      string   `json:"attemptId"`
	SplitLocations string   `json:"splitLocations"`
	Locality       optional `json:"locality"`
	Hostname       string   `json:"hostname"`
	Rackname       optional `json:"rackname"`
	TaskStatus     string   `json:"taskStatus"`
	Status         string   `json:"status"`
	Error          optional `json:"error"`
}

// optional is a string written either plainly or as Avro's {"string": "..."}.
type optional string

func (o *optional) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*o = ""
		return nil
	}
	var plain string
	if err := json.Unmarshal(b, &plain); err == nil {
		*o = optional(plain)
		return nil
	}
	var union map[string]string
	if err := json.Unmarshal(b, &union); err != nil {
		return fmt.Errorf("neither a string nor an Avro union of one: %s", b)
	}
	*o = optional(union["string"])
	return nil
}

// MapAttempts reads a job history file, in either encoding, and returns its map
// attempts in the order they started. A map task's split locations come from its
// TASK_STARTED event, and an attempt's host and final state from the event that ended
// it.
func MapAttempts(r io.Reader) ([]MapAttempt, error) {
	events, err := readEvents(r)
	if err != nil {
		return nil, err
	}
	splits := map[string][]string{}
	var order []string
	attempts := map[string]*MapAttempt{}
	for i, raw := range events {
		var ev event
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("event %d: %w", i+1, err)
		}
		switch ev.Type {
		case eventTaskStarted, eventMapAttemptStarted, eventMapAttemptFinished, eventMapAttemptFailed, eventMapAttemptKilled:
		default:
			continue
		}
		rec, err := only(ev.Event)
		if err != nil {
			return nil, fmt.Errorf("event %d (%s): %w", i+1, ev.Type, err)
		}
		if ev.Type == eventTaskStarted {
			if rec.TaskType == "MAP" {
				splits[rec.TaskID] = hosts(rec.SplitLocations)
			}
			continue
		}
		a := attempts[rec.AttemptID]
		if a == nil {
			a = &MapAttempt{Task: rec.TaskID, Attempt: rec.AttemptID}
			attempts[rec.AttemptID] = a
			order = append(order, rec.AttemptID)
		}
		switch ev.Type {
		case eventMapAttemptStarted:
			a.Locality = string(rec.Locality)
		case eventMapAttemptFinished:
			a.Host, a.Rack, a.Status = rec.Hostname, string(rec.Rackname), rec.TaskStatus
		default: // failed or killed: TaskAttemptUnsuccessfulCompletion
			a.Host, a.Rack, a.Status = rec.Hostname, string(rec.Rackname), rec.Status
		}
	}
	out := make([]MapAttempt, 0, len(order))
	for _, id := range order {
		a := attempts[id]
		a.SplitLocations = splits[a.Task]
		out = append(out, *a)
	}
	return out, nil
}

// LostAttempt is a task attempt that failed or was killed, with MapReduce's reason.
type LostAttempt struct {
	Attempt string
	// TaskType is MAP or REDUCE.
	TaskType string
	// Host is the NodeManager host it ran on, as YARN names it.
	Host string
	// Status is FAILED or KILLED.
	Status string
	// Error is the ApplicationMaster's reason, such as "Container released on a *lost*
	// node", or the task's own exception.
	Error string
}

// LostAttempts reads the attempts of a job's history that failed or were killed, maps
// and reduces, in the order the ApplicationMaster recorded them: where a job that
// should have lost none did, they say why.
func LostAttempts(r io.Reader) ([]LostAttempt, error) {
	events, err := readEvents(r)
	if err != nil {
		return nil, err
	}
	var out []LostAttempt
	for i, raw := range events {
		var ev event
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, fmt.Errorf("event %d: %w", i+1, err)
		}
		switch ev.Type {
		case eventMapAttemptFailed, eventMapAttemptKilled, eventReduceAttemptFailed, eventReduceAttemptKilled:
		default:
			continue
		}
		rec, err := only(ev.Event)
		if err != nil {
			return nil, fmt.Errorf("event %d (%s): %w", i+1, ev.Type, err)
		}
		out = append(out, LostAttempt{Attempt: rec.AttemptID, TaskType: rec.TaskType, Host: rec.Hostname, Status: rec.Status, Error: string(rec.Error)})
	}
	return out, nil
}

// readEvents returns every event of a history file in Avro's JSON encoding.
func readEvents(r io.Reader) ([][]byte, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	format, err := br.ReadString('\n')
	if err != nil && format == "" {
		return nil, fmt.Errorf("empty job history: %w", err)
	}
	switch strings.TrimSpace(format) {
	case binaryFormat:
		return binaryEvents(br)
	case jsonFormat:
	default:
		return nil, fmt.Errorf("job history in format %q, neither %q nor %q", strings.TrimSpace(format), jsonFormat, binaryFormat)
	}
	sc := bufio.NewScanner(br)
	// A line holds one event; a finished attempt's counters make it a few KB, a
	// job's submission event (its whole configuration) far more.
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("job history without a schema: %w", err)
		}
		return nil, errors.New("job history without a schema")
	}
	var events [][]byte
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			events = append(events, []byte(line))
		}
	}
	return events, sc.Err()
}

// only decodes the one record of an event's union.
func only(union map[string]json.RawMessage) (record, error) {
	var rec record
	if len(union) != 1 {
		return rec, fmt.Errorf("an event holds one record, this one %d", len(union))
	}
	for _, raw := range union {
		if err := json.Unmarshal(raw, &rec); err != nil {
			return rec, err
		}
	}
	return rec, nil
}

// hosts splits a comma-separated host list, dropping empty names (a host name holds
// no space).
func hosts(list string) []string {
	return strings.FieldsFunc(list, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}
