package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/controller-runtime/pkg/cache"
)

func TestManagerOptions(t *testing.T) {
	cfg := config{
		metricsAddr:     ":8080",
		probeAddr:       ":8081",
		leaderElect:     true,
		watchNamespaces: splitNamespaces(" analytics, ,etl"),
		rookNamespace:   "rook-ceph",
		rookNamespaces:  splitNamespaces("rook-ec"),
		hadoopImage:     "registry.example/hadoop:3.4.2",
	}
	mgrOpts, opts, err := managerOptions(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]cache.Config{"rook-ceph": {}, "analytics": {}, "etl": {}, "rook-ec": {}}
	if diff := cmp.Diff(want, mgrOpts.Cache.DefaultNamespaces); diff != "" {
		t.Errorf("cached namespaces (-want +got)\n%s", diff)
	}
	var jobs *cache.ByObject
	for obj, by := range mgrOpts.Cache.ByObject {
		if _, ok := obj.(*batchv1.Job); ok {
			jobs = &by
		}
	}
	if jobs == nil || jobs.Label == nil || jobs.Label.Empty() {
		t.Error("the manager caches every Job in the cluster")
	}
	if !mgrOpts.LeaderElection || mgrOpts.LeaderElectionID == "" {
		t.Error("leader election is off")
	}
	if mgrOpts.Scheme == nil || !mgrOpts.Scheme.Recognizes(batchv1.SchemeGroupVersion.WithKind("Job")) {
		t.Error("the scheme does not know Jobs")
	}
	if opts.RookNamespace != "rook-ceph" || opts.HadoopImage != cfg.hadoopImage || len(opts.WatchNamespaces) != 2 || opts.YARN != nil {
		t.Errorf("reconciler options %+v do not follow the command line", opts)
	}
}
