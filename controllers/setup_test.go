package controllers

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// jobSelection is the label selector of the cache's Jobs.
func jobSelection(t *testing.T, co cache.Options) labels.Selector {
	t.Helper()
	for obj, by := range co.ByObject {
		if _, ok := obj.(*batchv1.Job); ok {
			return by.Label
		}
	}
	t.Fatal("the cache options select no Jobs")
	return nil
}

func TestCacheOptionsSelectTheOperatorsJobs(t *testing.T) {
	co, err := CacheOptions(Options{RookNamespace: "rook-ceph"})
	if err != nil {
		t.Fatal(err)
	}
	if co.DefaultNamespaces != nil {
		t.Errorf("DefaultNamespaces = %v, want every namespace", co.DefaultNamespaces)
	}
	if co.DefaultTransform == nil {
		t.Error("no DefaultTransform: managed fields would be cached")
	}

	run := &v1alpha1.BenchmarkRun{
		ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "sort"},
		Spec: v1alpha1.BenchmarkRunSpec{
			ClusterRef: v1alpha1.LocalObjectReference{Name: "hc"},
			TeraSort:   &v1alpha1.TeraSortWorkload{Rows: ptr.To[int64](1000)},
		},
	}
	hc := &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "hc"}}
	selector := jobSelection(t, co)
	for _, step := range benchmark.Plan(&run.Spec) {
		job, err := benchmark.Job(benchmark.Input{Run: run, Cluster: hadoop.Input{Cluster: hc, Defaults: hadoop.Defaults{Image: "hadoop"}}}, step, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		if !selector.Matches(labels.Set(job.Labels)) {
			t.Errorf("the cache leaves out the Job of %s: %v", step.Stage, job.Labels)
		}
	}
	sb := &v1alpha1.StorageBackend{ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "lake"}}
	deleteData := hadoop.DeleteDataJob(hadoop.DeleteData{Name: "lake-delete-data", Namespace: "analytics", Labels: naming.StorageBackendLabels(sb)})
	if !selector.Matches(labels.Set(deleteData.Labels)) {
		t.Errorf("the cache leaves out the Job that empties a deleted backend's root: %v", deleteData.Labels)
	}
	for name, l := range map[string]map[string]string{
		"someone's Job":                  nil,
		"a Job with the run label alone": {benchmark.LabelRun: "sort"},
	} {
		if selector.Matches(labels.Set(l)) {
			t.Errorf("the cache holds %s", name)
		}
	}
}

func TestCacheOptionsKeepTheRookNamespacesInView(t *testing.T) {
	co, err := CacheOptions(Options{RookNamespace: "rook-ceph", WatchNamespaces: []string{"analytics", "etl"}, RookNamespaces: []string{"rook-ec"}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]cache.Config{"rook-ceph": {}, "analytics": {}, "etl": {}, "rook-ec": {}}
	if diff := cmp.Diff(want, co.DefaultNamespaces); diff != "" {
		t.Errorf("DefaultNamespaces (-want +got)\n%s", diff)
	}
	// The Jobs follow the default namespaces.
	for obj, by := range co.ByObject {
		if by.Namespaces != nil {
			t.Errorf("%T has namespaces of its own: %v", obj, by.Namespaces)
		}
	}
}
