package plugin

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/yarn"
)

// fakeResourceManager answers the ResourceManager's REST paths with internal/yarn's
// fixtures and records the queries it was sent.
type fakeResourceManager struct {
	mu      sync.Mutex
	queries map[string]string
}

func (f *fakeResourceManager) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	fixtures := map[string]string{
		"/ws/v1/cluster/nodes":     "nodes-decommissioned.json",
		"/ws/v1/cluster/scheduler": "scheduler-queues.json",
		"/ws/v1/cluster/apps":      "terasort-running.json",
	}
	name, ok := fixtures[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	f.queries[r.URL.Path] = r.URL.RawQuery
	f.mu.Unlock()
	data, err := os.ReadFile("../yarn/testdata/" + name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(data)
}

// hostAddress is an address of this host that the API server will proxy to: it
// refuses loopback and link-local addresses.
func hostAddress(t *testing.T) string {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if ok && ipn.IP.To4() != nil && !ipn.IP.IsLoopback() && !ipn.IP.IsLinkLocalUnicast() {
			return ipn.IP.String()
		}
	}
	t.Fatal("this host has no IPv4 address other than loopback and link-local, which the API server's proxy refuses")
	return ""
}

func TestStatusReadsYARNThroughTheServiceProxy(t *testing.T) {
	ctx := context.Background()
	ns := namespace(t, "status")
	rm := &fakeResourceManager{queries: map[string]string{}}
	addr := hostAddress(t)
	ln, err := net.Listen("tcp", net.JoinHostPort(addr, "0"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(rm)
	srv.Listener = ln
	srv.Start()
	defer srv.Close()
	port := int32(ln.Addr().(*net.TCPAddr).Port)

	hc := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "analytics"},
		Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "ceph"}, Image: "hadoop:test"},
	}
	if err := k8s.Create(ctx, hc); err != nil {
		t.Fatal(err)
	}
	meta.SetStatusCondition(&hc.Status.Conditions, metav1.Condition{Type: v1alpha1.ConditionReady, Status: metav1.ConditionTrue, Reason: "Ready", Message: "ready"})
	hc.Status.NodeManagers = "2/2"
	if err := k8s.Status().Update(ctx, hc); err != nil {
		t.Fatal(err)
	}
	// The cluster's ResourceManager Service, as the operator names it, with its http
	// port, but endpoints that lead to the fake instead of a selector.
	svc := hadoop.ResourceManagerService(hc)
	svc.Spec.Selector = nil
	svc.OwnerReferences = nil
	if err := k8s.Create(ctx, svc); err != nil {
		t.Fatal(err)
	}
	servicePort(t, svc, "http")
	// The API server proxies only to an endpoint that names a pod with that address,
	// so a pod stands for the ResourceManager's, with the fake's address as its IP.
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "analytics-resourcemanager-0"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "resourcemanager", Image: "hadoop:test"}}},
	}
	if err := k8s.Create(ctx, pod); err != nil {
		t.Fatal(err)
	}
	pod.Status.PodIP = addr
	pod.Status.PodIPs = []corev1.PodIP{{IP: addr}}
	if err := k8s.Status().Update(ctx, pod); err != nil {
		t.Fatal(err)
	}
	target := &corev1.ObjectReference{Kind: "Pod", Namespace: ns, Name: pod.Name, UID: pod.UID}
	endpoints := &corev1.Endpoints{ //nolint:staticcheck // the API server's service proxy reads Endpoints
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: svc.Name},
		Subsets: []corev1.EndpointSubset{{ //nolint:staticcheck
			Addresses: []corev1.EndpointAddress{{IP: addr, TargetRef: target}},
			Ports:     []corev1.EndpointPort{{Name: "http", Port: port}},
		}},
	}
	if err := k8s.Create(ctx, endpoints); err != nil {
		t.Fatal(err)
	}
	slice := &discoveryv1.EndpointSlice{
		ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: svc.Name + "-fake", Labels: map[string]string{discoveryv1.LabelServiceName: svc.Name}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{addr}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}, TargetRef: target}},
		Ports:       []discoveryv1.EndpointPort{{Name: ptr.To("http"), Port: &port}},
	}
	if err := k8s.Create(ctx, slice); err != nil {
		t.Fatal(err)
	}

	// The API server's proxy finds endpoints through its informers, which see the
	// slice a moment after it is written.
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, _, err := kubectl(t, "-n", ns, "status", "analytics")
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the API server never proxied to the fake ResourceManager: %v", err)
		}
		time.Sleep(200 * time.Millisecond)
	}

	out, errOut, err := kubectl(t, "-n", ns, "status", "analytics", "--yarn-user", "hadoop")
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	for _, want := range []string{
		"HadoopCluster " + ns + "/analytics: Ready=True, NodeManagers 2/2",
		"DECOMMISSIONING", "DECOMMISSIONED",
		"root.teams.etl", "STOPPED", "70.0%",
		"application_1795318800000_0002", "TeraSort", "RUNNING", "43%", "14336 MiB", "61.4s",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	rm.mu.Lock()
	apps, nodes := rm.queries["/ws/v1/cluster/apps"], rm.queries["/ws/v1/cluster/nodes"]
	rm.mu.Unlock()
	if !strings.Contains(apps, "states=NEW%2CNEW_SAVING%2CSUBMITTED%2CACCEPTED%2CRUNNING") || !strings.Contains(apps, "user.name=hadoop") {
		t.Errorf("the applications were asked with %q, want the unfinished states and the YARN user", apps)
	}
	if !strings.Contains(nodes, "DECOMMISSIONED") {
		t.Errorf("the nodes were asked with %q, want every state, the inactive ones too", nodes)
	}

	out, _, err = kubectl(t, "-n", ns, "status", "analytics", "--all", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	var st ClusterStatus
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Ready != "True" || len(st.Nodes) != 2 || len(st.Queues) != 4 || len(st.Applications) != 1 {
		t.Errorf("-o json = %+v, want Ready, 2 nodes, 4 queues, 1 application", st)
	}
	rm.mu.Lock()
	apps = rm.queries["/ws/v1/cluster/apps"]
	rm.mu.Unlock()
	if strings.Contains(apps, "states=") {
		t.Errorf("--all asked for the applications with %q, want no state filter", apps)
	}
}

func TestStatusNamesTheWayWhenYARNDoesNotAnswer(t *testing.T) {
	ctx := context.Background()
	ns := namespace(t, "status-down")
	hc := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "analytics"},
		Spec:       v1alpha1.HadoopClusterSpec{StorageBackendRef: v1alpha1.LocalObjectReference{Name: "ceph"}, Image: "hadoop:test"},
	}
	if err := k8s.Create(ctx, hc); err != nil {
		t.Fatal(err)
	}
	_, _, err := kubectl(t, "-n", ns, "status", "analytics")
	if err == nil || !strings.Contains(err.Error(), "through the API server's service proxy") || !strings.Contains(err.Error(), "spec.access.clients.web") {
		t.Fatalf("err = %v, want the service proxy and the NetworkPolicy hint named", err)
	}
	_, _, err = kubectl(t, "-n", ns, "status", "nowhere")
	if err == nil || err.Error() != "HadoopCluster "+ns+"/nowhere not found" {
		t.Fatalf("err = %v, want the missing cluster named", err)
	}
}

func servicePort(t *testing.T, svc *corev1.Service, name string) int32 {
	t.Helper()
	for _, p := range svc.Spec.Ports {
		if p.Name == name {
			return p.Port
		}
	}
	t.Fatalf("Service %s has no port %s", svc.Name, name)
	return 0
}

func TestElapsedTextHidesTimesYARNWithholds(t *testing.T) {
	now := time.UnixMilli(1795319830000)
	for _, tt := range []struct {
		app  yarn.Application
		want string
	}{
		{yarn.Application{ElapsedTime: 61388, State: "RUNNING"}, "61.4s"},
		// An older ResourceManager that leaves elapsedTime out of a running application.
		{yarn.Application{StartedTime: 1795319765000, State: "RUNNING"}, "65.0s"},
		// Under ACLs, another user's finished application: every time is 0.
		{yarn.Application{State: "FINISHED"}, "<unknown>"},
	} {
		if got := elapsedText(tt.app, now); got != tt.want {
			t.Errorf("elapsedText(%+v) = %q, want %q", tt.app, got, tt.want)
		}
	}
}
