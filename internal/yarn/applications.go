// Package yarn reads what a HadoopCluster's ResourceManager says about its
// applications, through the REST API it serves next to its web UI.
package yarn

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Application is one YARN application as the Cluster Applications API
// (/ws/v1/cluster/apps) describes it, with the fields the operator reads.
type Application struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	State       string `json:"state"`
	FinalStatus string `json:"finalStatus"`
	// Progress is in percent, 0 to 100.
	Progress float64 `json:"progress"`
	// ApplicationTags are comma-separated, lower-cased by YARN when the application
	// was submitted.
	ApplicationTags string `json:"applicationTags"`
	// StartedTime and FinishedTime are milliseconds since the epoch. The
	// ResourceManager reports 0 to users its ACLs do not let view the application.
	StartedTime  int64 `json:"startedTime"`
	FinishedTime int64 `json:"finishedTime"`

	// What a person looking at a running cluster asks besides: whose, where, how long
	// and how big.
	User              string `json:"user,omitempty"`
	Queue             string `json:"queue,omitempty"`
	ElapsedTime       int64  `json:"elapsedTime,omitempty"`
	AllocatedMB       int64  `json:"allocatedMB,omitempty"`
	AllocatedVCores   int32  `json:"allocatedVCores,omitempty"`
	RunningContainers int32  `json:"runningContainers,omitempty"`
	// AMHostHTTPAddress is the web address (host:port) of the NodeManager that runs the
	// application's master.
	AMHostHTTPAddress string `json:"amHostHttpAddress,omitempty"`
}

// HasTag reports whether the application carries tag, compared as YARN stores tags.
func (a Application) HasTag(tag string) bool {
	return slices.Contains(strings.Split(a.ApplicationTags, ","), strings.ToLower(tag))
}

// Ended reports whether the application is in a final state, whatever its outcome.
func (a Application) Ended() bool {
	switch a.State {
	case "FINISHED", "FAILED", "KILLED":
		return true
	}
	return false
}

// Started is when the application started; the zero time when the ResourceManager
// does not say.
func (a Application) Started() time.Time {
	if a.StartedTime <= 0 {
		return time.Time{}
	}
	return time.UnixMilli(a.StartedTime)
}

// DecodeApplications reads a Cluster Applications API response. The
// ResourceManager answers {"apps":null} when no application matches.
func DecodeApplications(data []byte) ([]Application, error) {
	var out struct {
		Apps *struct {
			App []Application `json:"app"`
		} `json:"apps"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decoding the ResourceManager's applications: %w", err)
	}
	if out.Apps == nil {
		return nil, nil
	}
	return out.Apps.App, nil
}
