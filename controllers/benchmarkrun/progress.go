package benchmarkrun

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/utils/clock"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// YARNApplications finds a HadoopCluster's YARN applications by tag.
type YARNApplications interface {
	ApplicationsByTag(ctx context.Context, hc *v1alpha1.HadoopCluster, tag string) ([]yarn.Application, error)
}

// resourceManagers asks each cluster's ResourceManager through its Service, which
// only an operator that runs in the Kubernetes cluster can reach. A ResourceManager
// that did not answer is left alone for a while: BenchmarkRuns are reconciled one at a
// time, and a pass that waits for a request to time out holds up every other run.
type resourceManagers struct {
	client *yarn.Client
	webURL func(*v1alpha1.HadoopCluster) string
	clock  clock.PassiveClock

	mu     sync.Mutex
	silent map[client.ObjectKey]time.Time
}

// silence is how long a ResourceManager that did not answer is not asked again.
const silence = time.Minute

// NewResourceManagers asks the ResourceManager of each cluster at webURL(cluster):
// hadoop.ResourceManagerWebURL, its Service, in the operator. It asks as
// hadoop.HadoopUser, whom every cluster's YARN ACLs count among the admins. clk tells
// how long a ResourceManager that did not answer is left alone.
func NewResourceManagers(webURL func(*v1alpha1.HadoopCluster) string, clk clock.PassiveClock) YARNApplications {
	return &resourceManagers{client: yarn.NewClient(hadoop.HadoopUser), webURL: webURL, clock: clk}
}

func (m *resourceManagers) ApplicationsByTag(ctx context.Context, hc *v1alpha1.HadoopCluster, tag string) ([]yarn.Application, error) {
	key := client.ObjectKeyFromObject(hc)
	m.mu.Lock()
	until, silent := m.silent[key]
	m.mu.Unlock()
	if silent && m.clock.Now().Before(until) {
		return nil, fmt.Errorf("not asked until %s: the last request failed", until.Format(time.TimeOnly))
	}

	apps, err := m.client.ApplicationsByTag(ctx, m.webURL(hc), tag)
	m.mu.Lock()
	defer m.mu.Unlock()
	if err != nil {
		now := m.clock.Now()
		if m.silent == nil {
			m.silent = map[client.ObjectKey]time.Time{}
		}
		maps.DeleteFunc(m.silent, func(_ client.ObjectKey, until time.Time) bool { return now.After(until) })
		m.silent[key] = now.Add(silence)
		return nil, err
	}
	delete(m.silent, key)
	return apps, nil
}

// ProgressInterval is how often the percent of a running MapReduce stage is read:
// the runner reports only when a stage ends, and a Job's status does not change
// while its pod waits for YARN.
const ProgressInterval = 10 * time.Second

// reportPercent adds the percent of step's MapReduce work to status.progress, from
// the applications the stage's Job submitted, and asks for the next reading. A
// ResourceManager that does not answer leaves the percent out: it is a convenience,
// and the stage's result does not depend on it.
func (r *Reconciler) reportPercent(ctx context.Context, p *runPass, step benchmark.Step, job *batchv1.Job) {
	if r.YARN == nil || p.cluster == nil || benchmark.MapReduceJobs(step.Stage) == 0 {
		return
	}
	p.RequeueWithin(ProgressInterval)
	apps, err := r.YARN.ApplicationsByTag(ctx, p.cluster, job.Name)
	if err != nil {
		log.FromContext(ctx).V(1).Info("stage progress unknown: the ResourceManager did not answer",
			"hadoopCluster", p.cluster.Name, "job", job.Name, "error", err.Error())
		return
	}
	percent, ok := benchmark.StagePercent(step.Stage, apps, job.CreationTimestamp.Time)
	if !ok {
		return
	}
	progress := p.run.Status.Progress
	progress.Percent = &percent
	progress.Message = fmt.Sprintf("%s, %d%%", progress.Message, percent)
}
