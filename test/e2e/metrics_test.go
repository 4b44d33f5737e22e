//go:build e2e

package e2e

import (
	"context"
	"os"
	"sync"
	"time"

	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/test/dashboards"
	"github.com/hadoopceph/hadoop-ceph-operator/test/promtext"
)

// promPath is Hadoop's Prometheus endpoint on the daemons' web ports, which the
// operator turns on.
const promPath = "/prom"

// The chart's YARN dashboard, whose queries must find their metrics in the scrapes.
const yarnDashboard = "../../charts/hadoop-ceph-operator/files/dashboards/yarn.json"

// promWatch scrapes the ResourceManager's and the NodeManager's /prom every two seconds
// while a job runs, keeping the last scrapes and the largest values of the figures the
// spec checks.
type promWatch struct {
	cluster string
	cancel  context.CancelFunc
	done    chan struct{}

	mu              sync.Mutex
	resourceManager promtext.Exposition
	nodeManager     promtext.Exposition
	maxActiveNMs    float64
	maxAllocatedMB  float64
	errors          int
	lastErr         error
}

func watchProm(cluster string) *promWatch {
	c, cancel := context.WithCancel(ctx)
	w := &promWatch{cluster: cluster, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(2 * time.Second)
		defer t.Stop()
		for {
			w.scrape()
			select {
			case <-c.Done():
				return
			case <-t.C:
			}
		}
	}()
	return w
}

func (w *promWatch) scrape() {
	rm, rmErr := daemonProm(w.cluster, hadoop.ResourceManager, hadoop.PortRMWeb)
	nm, nmErr := daemonProm(w.cluster, hadoop.NodeManager, hadoop.PortNMWeb)
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, err := range []error{rmErr, nmErr} {
		if err != nil {
			w.errors++
			w.lastErr = err
		}
	}
	if rmErr == nil {
		w.resourceManager = rm
		if v, ok := rm.Value("cluster_metrics_num_active_n_ms", nil); ok && v > w.maxActiveNMs {
			w.maxActiveNMs = v
		}
		// The root queue holds every container of the cluster, the job's included.
		if v, ok := rm.Value("queue_metrics_allocated_mb", map[string]string{"queue": "root"}); ok && v > w.maxAllocatedMB {
			w.maxAllocatedMB = v
		}
	}
	if nmErr == nil {
		w.nodeManager = nm
	}
}

// stop ends the scraping and waits for the last scrape to finish.
func (w *promWatch) stop() {
	w.cancel()
	<-w.done
}

// daemonProm scrapes the one running daemon of a role of cluster.
func daemonProm(cluster string, c hadoop.Component, port int) (promtext.Exposition, error) {
	base, err := daemonURL(cluster, c, port)
	if err != nil {
		return nil, err
	}
	return promGet(base + promPath)
}

// expectJobSeenInProm checks what the scrapes taken during a job showed: the cluster's
// one NodeManager active, memory allocated while the job ran, and every metric the
// chart's YARN dashboard queries present in the scrapes, so that a metric renamed by
// a Hadoop upgrade fails here instead of leaving a panel empty.
func expectJobSeenInProm(w *promWatch) {
	w.mu.Lock()
	defer w.mu.Unlock()
	Expect(w.resourceManager).NotTo(BeNil(), "no scrape of the ResourceManager's /prom (%d errors, last: %v)", w.errors, w.lastErr)
	Expect(w.nodeManager).NotTo(BeNil(), "no scrape of the NodeManager's /prom (%d errors, last: %v)", w.errors, w.lastErr)
	Expect(w.maxActiveNMs).To(Equal(1.0), "cluster_metrics_num_active_n_ms")
	Expect(w.maxAllocatedMB).To(BeNumerically(">", 0), "queue_metrics_allocated_mb of the root queue while the job ran")

	dashboard, err := os.ReadFile(yarnDashboard)
	Expect(err).NotTo(HaveOccurred())
	used, err := dashboards.DashboardMetrics(dashboard)
	Expect(err).NotTo(HaveOccurred())
	Expect(used).NotTo(BeEmpty())
	Expect(dashboards.Missing(used, w.resourceManager.Names(), w.nodeManager.Names())).To(BeEmpty(), "metrics the YARN dashboard queries that the daemons do not export")
}
