package deviceplugin

import (
	"context"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/testing/protocmp"
	pluginapi "k8s.io/kubelet/pkg/apis/deviceplugin/v1beta1"
)

// The plugin's side of the protocol against a fake kubelet: the kubelet's registration
// server on kubelet.sock in a directory of the test's, which records each request and
// refuses as many as it is told to first.

type fakeKubelet struct {
	pluginapi.UnimplementedRegistrationServer
	grpc     *grpc.Server
	requests chan *pluginapi.RegisterRequest
	refuse   int
}

func startKubelet(t *testing.T, dir string, refuse int) *fakeKubelet {
	t.Helper()
	l, err := net.Listen("unix", filepath.Join(dir, KubeletSocket))
	if err != nil {
		t.Fatal(err)
	}
	k := &fakeKubelet{grpc: grpc.NewServer(), requests: make(chan *pluginapi.RegisterRequest, 16), refuse: refuse}
	pluginapi.RegisterRegistrationServer(k.grpc, k)
	go func() { _ = k.grpc.Serve(l) }()
	t.Cleanup(k.grpc.Stop)
	return k
}

func (k *fakeKubelet) Register(_ context.Context, req *pluginapi.RegisterRequest) (*pluginapi.Empty, error) {
	if k.refuse > 0 {
		k.refuse--
		return nil, status.Error(codes.Unavailable, "not yet")
	}
	k.requests <- req
	return &pluginapi.Empty{}, nil
}

// restart does what a kubelet that starts again does to the directory: its old
// kubelet.sock goes, every other file in the directory too, and a new kubelet.sock
// appears.
func (k *fakeKubelet) restart(t *testing.T, dir string) *fakeKubelet {
	t.Helper()
	k.grpc.Stop()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	return startKubelet(t, dir, 0)
}

// registrations waits for n registrations.
func (k *fakeKubelet) registrations(t *testing.T, n int) []*pluginapi.RegisterRequest {
	t.Helper()
	var out []*pluginapi.RegisterRequest
	for range n {
		select {
		case r := <-k.requests:
			out = append(out, r)
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d registrations after 10s", len(out), n)
		}
	}
	return out
}

// socketDir is a directory for the sockets whose path stays well within the 108
// bytes a unix socket's path may have, which a test's temporary directory need not.
func socketDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "dp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}

// startRun runs the plugin until the test ends or stop is called, which returns Run's
// error.
func startRun(t *testing.T, dir string, resources ...Resource) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Dir: dir, Resources: resources, Poll: 20 * time.Millisecond, Log: slog.New(slog.DiscardHandler)})
	}()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Error("Run did not return 10s after its context ended")
			}
		})
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

// dialPlugin connects to a registered endpoint as the kubelet does.
func dialPlugin(t *testing.T, dir, endpoint string) pluginapi.DevicePluginClient {
	t.Helper()
	conn, err := grpc.NewClient("unix://"+filepath.Join(dir, endpoint), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return pluginapi.NewDevicePluginClient(conn)
}

// listDevices opens ListAndWatch and returns its first list and the open stream.
func listDevices(t *testing.T, c pluginapi.DevicePluginClient) ([]*pluginapi.Device, pluginapi.DevicePlugin_ListAndWatchClient) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	stream, err := c.ListAndWatch(ctx, &pluginapi.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	first, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	return first.Devices, stream
}

func healthy(ids ...string) []*pluginapi.Device {
	out := make([]*pluginapi.Device, len(ids))
	for i, id := range ids {
		out[i] = &pluginapi.Device{ID: id, Health: pluginapi.Healthy}
	}
	return out
}

func TestRunRegistersServesAndRegistersAgainWhenTheKubeletRestarts(t *testing.T) {
	dir := socketDir(t)
	rdma := Resource{Name: "hadoopceph.io/rdma", Count: 4}
	vf := Resource{Name: "hadoopceph.io/sriov_vf", Count: 2}
	// The plugin starts before the kubelet, as a DaemonSet's pod may.
	stop := startRun(t, dir, rdma, vf)
	time.Sleep(100 * time.Millisecond)
	kubelet := startKubelet(t, dir, 0)

	want := []*pluginapi.RegisterRequest{
		{Version: "v1beta1", Endpoint: "hco-test-hadoopceph.io_rdma.sock", ResourceName: "hadoopceph.io/rdma", Options: &pluginapi.DevicePluginOptions{}},
		{Version: "v1beta1", Endpoint: "hco-test-hadoopceph.io_sriov_vf.sock", ResourceName: "hadoopceph.io/sriov_vf", Options: &pluginapi.DevicePluginOptions{}},
	}
	if diff := cmp.Diff(want, kubelet.registrations(t, 2), protocmp.Transform()); diff != "" {
		t.Fatalf("registrations (-want +got):\n%s", diff)
	}

	plugin := dialPlugin(t, dir, want[0].Endpoint)
	opts, err := plugin.GetDevicePluginOptions(context.Background(), &pluginapi.Empty{})
	if err != nil || opts.PreStartRequired || opts.GetPreferredAllocationAvailable {
		t.Errorf("GetDevicePluginOptions = %v, %v; want neither PreStartContainer nor GetPreferredAllocation asked for", opts, err)
	}
	devices, stream := listDevices(t, plugin)
	if diff := cmp.Diff(healthy("rdma-0", "rdma-1", "rdma-2", "rdma-3"), devices, protocmp.Transform()); diff != "" {
		t.Errorf("ListAndWatch of %s (-want +got):\n%s", rdma.Name, diff)
	}
	vfDevices, _ := listDevices(t, dialPlugin(t, dir, want[1].Endpoint))
	if diff := cmp.Diff(healthy("sriov_vf-0", "sriov_vf-1"), vfDevices, protocmp.Transform()); diff != "" {
		t.Errorf("ListAndWatch of %s (-want +got):\n%s", vf.Name, diff)
	}

	alloc, err := plugin.Allocate(context.Background(), &pluginapi.AllocateRequest{ContainerRequests: []*pluginapi.ContainerAllocateRequest{
		{DevicesIds: []string{"rdma-1", "rdma-3"}}, {DevicesIds: []string{"rdma-0"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	wantAlloc := &pluginapi.AllocateResponse{ContainerResponses: []*pluginapi.ContainerAllocateResponse{
		{Envs: map[string]string{"HCO_TEST_DEVICES_RDMA": "rdma-1,rdma-3"}},
		{Envs: map[string]string{"HCO_TEST_DEVICES_RDMA": "rdma-0"}},
	}}
	if diff := cmp.Diff(wantAlloc, alloc, protocmp.Transform()); diff != "" {
		t.Errorf("Allocate (-want +got):\n%s", diff)
	}
	_, err = plugin.Allocate(context.Background(), &pluginapi.AllocateRequest{ContainerRequests: []*pluginapi.ContainerAllocateRequest{{DevicesIds: []string{"rdma-4"}}}})
	if status.Code(err) != codes.InvalidArgument {
		t.Errorf("Allocate of a device never advertised = %v, want InvalidArgument", err)
	}
	pre, err := plugin.PreStartContainer(context.Background(), &pluginapi.PreStartContainerRequest{DevicesIds: []string{"rdma-0"}})
	if err != nil || pre == nil {
		t.Errorf("PreStartContainer = %v, %v", pre, err)
	}

	// The kubelet starts again: it removed the plugin's sockets, so the plugin serves
	// on new ones and registers again.
	kubelet = kubelet.restart(t, dir)
	if diff := cmp.Diff(want, kubelet.registrations(t, 2), protocmp.Transform()); diff != "" {
		t.Fatalf("registrations after the kubelet's restart (-want +got):\n%s", diff)
	}
	if _, err := stream.Recv(); err == nil {
		t.Error("the old server's ListAndWatch stream is still open")
	}
	devices, _ = listDevices(t, dialPlugin(t, dir, want[0].Endpoint))
	if len(devices) != rdma.Count {
		t.Errorf("ListAndWatch after the restart lists %d devices, want %d", len(devices), rdma.Count)
	}
	select {
	case r := <-kubelet.requests:
		t.Errorf("registered once more, with nothing changed: %v", r)
	case <-time.After(200 * time.Millisecond):
	}

	// As on SIGTERM: Run returns and leaves only the kubelet's socket.
	if err := stop(); err != nil {
		t.Fatalf("Run returned %v", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if !slices.Equal(left, []string{KubeletSocket}) {
		t.Errorf("the directory holds %v after Run returned, want only %s", left, KubeletSocket)
	}
}

func TestRunRegistersAgainAfterARefusal(t *testing.T) {
	dir := socketDir(t)
	kubelet := startKubelet(t, dir, 1)
	startRun(t, dir, Resource{Name: "hadoopceph.io/rdma", Count: 1})
	if got := kubelet.registrations(t, 1); got[0].ResourceName != "hadoopceph.io/rdma" {
		t.Errorf("registered %v", got[0])
	}
}

// A socket the kubelet did not remove, such as one left by a killed plugin, is
// replaced; a resource the kubelet could not tell apart stops Run before it serves.
func TestRunReplacesAnOldSocketAndRefusesDuplicates(t *testing.T) {
	dir := socketDir(t)
	r := Resource{Name: "hadoopceph.io/rdma", Count: 1}
	if err := os.WriteFile(filepath.Join(dir, r.SocketName()), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	kubelet := startKubelet(t, dir, 0)
	startRun(t, dir, r)
	kubelet.registrations(t, 1)
	if devices, _ := listDevices(t, dialPlugin(t, dir, r.SocketName())); len(devices) != 1 {
		t.Errorf("ListAndWatch lists %v", devices)
	}

	err := Run(context.Background(), Options{Dir: dir, Resources: []Resource{r, r}, Poll: time.Second, Log: slog.New(slog.DiscardHandler)})
	if err == nil {
		t.Error("Run served one resource twice")
	}
}

func TestPlan(t *testing.T) {
	dir := t.TempDir()
	socket := filepath.Join(dir, KubeletSocket)
	stat := func() os.FileInfo {
		t.Helper()
		if err := os.WriteFile(socket, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(socket)
		if err != nil {
			t.Fatal(err)
		}
		return fi
	}
	first := stat()
	if err := os.Remove(socket); err != nil {
		t.Fatal(err)
	}
	// The file system may give the new file the inode just freed.
	time.Sleep(10 * time.Millisecond)
	second := stat()
	for _, tc := range []struct {
		name string
		in   observed
		want action
	}{
		{name: "no kubelet yet", in: observed{}, want: wait},
		{name: "no kubelet any more", in: observed{servedFor: first, registered: true}, want: wait},
		{name: "a kubelet, not served yet", in: observed{kubelet: first}, want: restart},
		{name: "registered with it", in: observed{kubelet: first, servedFor: first, registered: true}, want: wait},
		{name: "serving, registration failed", in: observed{kubelet: first, servedFor: first}, want: register},
		{name: "the kubelet started again", in: observed{kubelet: second, servedFor: first, registered: true}, want: restart},
		{name: "a socket removed", in: observed{kubelet: first, servedFor: first, registered: true, socketsGone: true}, want: restart},
	} {
		if got := plan(tc.in); got != tc.want {
			t.Errorf("%s: plan = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// The stream of ListAndWatch ends when the plugin stops, which the kubelet reads as
// the plugin gone.
func TestListAndWatchEndsWhenThePluginStops(t *testing.T) {
	dir := socketDir(t)
	r := Resource{Name: "hadoopceph.io/rdma", Count: 2}
	kubelet := startKubelet(t, dir, 0)
	stop := startRun(t, dir, r)
	kubelet.registrations(t, 1)
	_, stream := listDevices(t, dialPlugin(t, dir, r.SocketName()))
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := stream.Recv(); err == nil {
		t.Error("ListAndWatch's stream is still open after the plugin stopped")
	}
}
