package deviceplugin

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseResource(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    Resource
		wantErr string
	}{
		{in: "hadoopceph.io/rdma=4", want: Resource{Name: "hadoopceph.io/rdma", Count: 4}},
		{in: "hadoopceph.io/sriov_vf=2", want: Resource{Name: "hadoopceph.io/sriov_vf", Count: 2}},
		{in: "hadoopceph.io/rdma", wantErr: "want <domain>/<name>=<count>"},
		{in: "hadoopceph.io/rdma=0", wantErr: "from 1 to 1024"},
		{in: "hadoopceph.io/rdma=1025", wantErr: "from 1 to 1024"},
		{in: "hadoopceph.io/rdma=four", wantErr: "from 1 to 1024"},
		{in: "rdma=1", wantErr: "<domain>/<name>"},
		{in: "/rdma=1", wantErr: "<domain>/<name>"},
		{in: "hadoopceph.io/rdma device=1", wantErr: "not a qualified name"},
		{in: "kubernetes.io/rdma=1", wantErr: "must not be kubernetes.io"},
		{in: "node.kubernetes.io/rdma=1", wantErr: "must not be kubernetes.io"},
	} {
		got, err := ParseResource(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("ParseResource(%q) = %+v, %v; want an error with %q", tc.in, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseResource(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestNames(t *testing.T) {
	r := Resource{Name: "hadoopceph.io/sriov-vf.a", Count: 3}
	if got, want := r.EnvName(), "HCO_TEST_DEVICES_SRIOV_VF_A"; got != want {
		t.Errorf("EnvName() = %q, want %q", got, want)
	}
	if got, want := r.SocketName(), "hco-test-hadoopceph.io_sriov-vf.a.sock"; got != want {
		t.Errorf("SocketName() = %q, want %q", got, want)
	}
	if diff := cmp.Diff([]string{"sriov-vf.a-0", "sriov-vf.a-1", "sriov-vf.a-2"}, r.DeviceIDs()); diff != "" {
		t.Errorf("DeviceIDs() (-want +got):\n%s", diff)
	}
}

func TestCheckResources(t *testing.T) {
	rdma := Resource{Name: "hadoopceph.io/rdma", Count: 1}
	for _, tc := range []struct {
		name      string
		resources []Resource
		wantErr   string
	}{
		{name: "two resources", resources: []Resource{rdma, {Name: "hadoopceph.io/sriov_vf", Count: 2}}},
		{name: "none", wantErr: "no resource"},
		{name: "one twice", resources: []Resource{rdma, rdma}, wantErr: "would share hadoopceph.io/rdma"},
		{name: "one variable", resources: []Resource{rdma, {Name: "example.com/rdma", Count: 1}}, wantErr: "would share HCO_TEST_DEVICES_RDMA"},
	} {
		err := checkResources(tc.resources)
		if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
			t.Errorf("%s: checkResources = %v, want an error with %q", tc.name, err, tc.wantErr)
		}
	}
}
