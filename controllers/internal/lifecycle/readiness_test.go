package lifecycle

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestReadyGauge(t *testing.T) {
	g := NewReadyGauge("hadoopceph_widget_ready", "Whether the Widget is Ready.")
	ready := client.ObjectKey{Namespace: "team-a", Name: "ready"}
	g.Record(ready, []metav1.Condition{{Type: v1alpha1.ConditionReady, Status: metav1.ConditionTrue}})
	waiting := client.ObjectKey{Namespace: "team-a", Name: "waiting"}
	g.Record(waiting, []metav1.Condition{{Type: v1alpha1.ConditionReady, Status: metav1.ConditionUnknown}})
	fresh := client.ObjectKey{Namespace: "team-b", Name: "ready"}
	g.Record(fresh, nil)

	for key, want := range map[client.ObjectKey]float64{ready: 1, waiting: 0, fresh: 0} {
		if got := testutil.ToFloat64(g.WithLabelValues(key.Namespace, key.Name)); got != want {
			t.Errorf("%s: %v, want %v", key, got, want)
		}
	}

	g.Forget(ready)
	if n := testutil.CollectAndCount(g); n != 2 {
		t.Errorf("%d series after forgetting one of three, want 2", n)
	}
	// A second deletion event, or one of an object never recorded, changes nothing.
	g.Forget(ready)
	g.Forget(client.ObjectKey{Namespace: "team-c", Name: "never"})
	if n := testutil.CollectAndCount(g); n != 2 {
		t.Errorf("%d series, want 2", n)
	}

	problems, err := testutil.CollectAndLint(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}
