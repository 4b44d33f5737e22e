package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

		operatorNamespace:   "hadoop-ceph-system",
		operatorPodSelector: "app.kubernetes.io/name=hadoop-ceph-operator,app.kubernetes.io/instance=ops",
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
	if !mgrOpts.LeaderElectionReleaseOnCancel {
		t.Error("a stopping operator keeps its lease until it expires")
	}
	if mgrOpts.Scheme == nil || !mgrOpts.Scheme.Recognizes(batchv1.SchemeGroupVersion.WithKind("Job")) {
		t.Error("the scheme does not know Jobs")
	}
	if opts.RookNamespace != "rook-ceph" || opts.HadoopImage != cfg.hadoopImage || len(opts.WatchNamespaces) != 2 || opts.YARN != nil {
		t.Errorf("reconciler options %+v do not follow the command line", opts)
	}
	wantPeer := &networkingv1.NetworkPolicyPeer{
		PodSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
			"app.kubernetes.io/name": "hadoop-ceph-operator", "app.kubernetes.io/instance": "ops",
		}},
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "hadoop-ceph-system"}},
	}
	if diff := cmp.Diff(wantPeer, opts.OperatorPeer); diff != "" {
		t.Errorf("the operator's pods for NetworkPolicies (-want +got)\n%s", diff)
	}
}

func TestOperatorPeer(t *testing.T) {
	if peer, err := operatorPeer("", ""); peer != nil || err != nil {
		t.Errorf("without a selector: %+v, %v; want none", peer, err)
	}
	if _, err := operatorPeer("", "app=operator"); err == nil {
		t.Error("a selector without a namespace was accepted")
	}
	if _, err := operatorPeer("ops", "app in (a"); err == nil {
		t.Error("a malformed selector was accepted")
	}
}
