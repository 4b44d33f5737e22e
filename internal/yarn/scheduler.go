package yarn

import (
	"encoding/json"
	"fmt"
)

// Queue is one queue of the Capacity Scheduler as the ResourceManager's scheduler API
// (/ws/v1/cluster/scheduler) reports it. Capacities are percentages: Capacity and
// MaxCapacity of the parent queue, the Absolute ones of the whole cluster.
type Queue struct {
	// Path is the queue's full name, such as root.default.
	Path string `json:"queuePath"`
	QueueFigures
	// Leaf says whether applications can be submitted to the queue; only leaves take
	// them, parents only divide capacity.
	Leaf bool `json:"leaf"`
}

// QueueFigures are a queue's state, shares and load, named as the API names them.
type QueueFigures struct {
	State                string  `json:"state"`
	Capacity             float64 `json:"capacity"`
	MaxCapacity          float64 `json:"maxCapacity"`
	UsedCapacity         float64 `json:"usedCapacity"`
	AbsoluteCapacity     float64 `json:"absoluteCapacity"`
	AbsoluteUsedCapacity float64 `json:"absoluteUsedCapacity"`
	NumApplications      int32   `json:"numApplications"`
}

// schedulerQueue is a queue in the scheduler API's nesting: a parent carries its
// children under queues.queue. The API names a queue's path queuePath since Hadoop
// 3.1 and its short name queueName always.
type schedulerQueue struct {
	Type      string `json:"type"`
	QueueName string `json:"queueName"`
	QueuePath string `json:"queuePath"`
	QueueFigures
	Queues *struct {
		Queue []schedulerQueue `json:"queue"`
	} `json:"queues"`
}

// DecodeQueues reads the ResourceManager's answer to /ws/v1/cluster/scheduler and
// returns the Capacity Scheduler's queues below root, parents before their children,
// in the scheduler's order. Other schedulers (FIFO, Fair) are refused by name: the
// operator configures only the Capacity Scheduler.
func DecodeQueues(data []byte) ([]Queue, error) {
	var out struct {
		Scheduler *struct {
			Info *schedulerQueue `json:"schedulerInfo"`
		} `json:"scheduler"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, fmt.Errorf("decoding the ResourceManager's scheduler: %w", err)
	}
	if out.Scheduler == nil || out.Scheduler.Info == nil {
		return nil, fmt.Errorf("the ResourceManager's scheduler answer has no schedulerInfo: %.200s", data)
	}
	root := out.Scheduler.Info
	if root.Type != "capacityScheduler" {
		return nil, fmt.Errorf("the ResourceManager runs the %q scheduler, not the Capacity Scheduler", root.Type)
	}
	var queues []Queue
	var walk func(parent string, qs []schedulerQueue)
	walk = func(parent string, qs []schedulerQueue) {
		for _, q := range qs {
			path := q.QueuePath
			if path == "" {
				path = parent + "." + q.QueueName
			}
			leaf := q.Queues == nil || len(q.Queues.Queue) == 0
			queues = append(queues, Queue{Path: path, QueueFigures: q.QueueFigures, Leaf: leaf})
			if !leaf {
				walk(path, q.Queues.Queue)
			}
		}
	}
	rootName := root.QueueName
	if rootName == "" {
		rootName = "root"
	}
	if root.Queues != nil {
		walk(rootName, root.Queues.Queue)
	}
	return queues, nil
}
