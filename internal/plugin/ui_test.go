package plugin

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func TestCheckUIFlags(t *testing.T) {
	for _, tc := range []struct {
		address        string
		rmPort, jhPort int
		err            string
	}{
		{address: "127.0.0.1", rmPort: 8088, jhPort: 19888},
		{address: "localhost", rmPort: 0, jhPort: 0},
		{address: "::1", rmPort: 18088, jhPort: 0},
		{address: "0.0.0.0", rmPort: 8088, jhPort: 19888},
		{address: "my-laptop", rmPort: 8088, jhPort: 19888, err: `--address "my-laptop": must be an IP address or localhost`},
		{address: "127.0.0.1", rmPort: 70000, jhPort: 19888, err: "--resourcemanager-port 70000: must be 0 to 65535; 0 picks a free port"},
		{address: "127.0.0.1", rmPort: 8088, jhPort: -1, err: "--jobhistory-port -1: must be 0 to 65535; 0 picks a free port"},
		{address: "127.0.0.1", rmPort: 9000, jhPort: 9000, err: "--resourcemanager-port and --jobhistory-port are both 9000: they must differ, or be 0"},
	} {
		err := checkUIFlags(tc.address, tc.rmPort, tc.jhPort)
		if (tc.err == "" && err != nil) || (tc.err != "" && (err == nil || err.Error() != tc.err)) {
			t.Errorf("checkUIFlags(%q, %d, %d) = %v, want %q", tc.address, tc.rmPort, tc.jhPort, err, tc.err)
		}
	}
}

func TestWebUIsLeaveOutADisabledJobHistory(t *testing.T) {
	hc := &v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Name: "analytics"}}
	rm := WebUI{Name: "ResourceManager", Pod: "analytics-resourcemanager-0", Port: 8088, LocalPort: 0}
	jh := WebUI{Name: "JobHistory", Pod: "analytics-jobhistory-0", Port: 19888, LocalPort: 29888}
	if got := WebUIs(hc, 0, 29888); !reflect.DeepEqual(got, []WebUI{rm, jh}) {
		t.Fatalf("WebUIs = %+v, want the ResourceManager's and the JobHistory server's", got)
	}
	hc.Spec.JobHistory.Enabled = ptr.To(false)
	if got := WebUIs(hc, 0, 29888); !reflect.DeepEqual(got, []WebUI{rm}) {
		t.Fatalf("WebUIs = %+v, want the ResourceManager's alone", got)
	}
}

func TestUINeedsTheResourceManagerPod(t *testing.T) {
	ns := namespace(t, "ui")
	hc := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "analytics"},
		Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "ceph"}, Image: "hadoop:test"},
	}
	if err := k8s.Create(context.Background(), hc); err != nil {
		t.Fatal(err)
	}
	_, _, err := kubectl(t, "-n", ns, "ui", "analytics", "--resourcemanager-port", "0")
	want := "the ResourceManager's web UI: pod " + ns + "/analytics-resourcemanager-0 not found; is HadoopCluster " + ns + "/analytics Ready?"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	_, _, err = kubectl(t, "-n", ns, "ui", "analytics", "--address", "my-laptop")
	if err == nil || !strings.HasPrefix(err.Error(), "--address") {
		t.Fatalf("err = %v, want the address refused", err)
	}
}

func TestForwardWebUIsReturnsTheAPIServersRefusal(t *testing.T) {
	ns := namespace(t, "forward")
	unscheduledPod(t, ns, "analytics-resourcemanager-0")
	cfg, cs := testREST(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out, errOut bytes.Buffer
	uis := []WebUI{{Name: "ResourceManager", Pod: "analytics-resourcemanager-0", Port: 8088}}
	err := forwardWebUIs(ctx, cfg, cs, ns, "127.0.0.1", uis, &out, &errOut)
	want := "forwarding to the ResourceManager's web UI, pod " + ns + "/analytics-resourcemanager-0 port 8088: "
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "does not have a host assigned") {
		t.Fatalf("err = %v, want %q and the API server's reason", err, want)
	}
	if out.Len() != 0 {
		t.Fatalf("out = %q, want no URL for a forward that failed", out.String())
	}
}
