// Package deviceplugin is a kubelet device plugin of fake devices, for tests of
// extended-resource scheduling where no real device exists: for each resource it
// serves the kubelet's device-plugin API (k8s.io/kubelet's deviceplugin/v1beta1) on a
// socket of its own, registers it with the kubelet, advertises a fixed number of
// healthy devices, and answers an allocation with an environment variable that names
// the devices a container got, so a test can see them.
package deviceplugin

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	pluginapi "k8s.io/kubelet/pkg/apis/deviceplugin/v1beta1"
)

// EnvPrefix starts the name of the variable Allocate sets in a container.
const EnvPrefix = "HCO_TEST_DEVICES_"

// maxDevices bounds a resource's count: every device is a line of each ListAndWatch.
const maxDevices = 1024

// Resource is an extended resource the plugin advertises, with how many devices.
type Resource struct {
	// Name is <domain>/<name>, as pods request it.
	Name  string
	Count int
}

// ParseResource reads <domain>/<name>=<count>, such as hadoopceph.io/rdma=4.
func ParseResource(s string) (Resource, error) {
	name, count, ok := strings.Cut(s, "=")
	if !ok {
		return Resource{}, fmt.Errorf("resource %q: want <domain>/<name>=<count>, such as hadoopceph.io/rdma=4", s)
	}
	n, err := strconv.Atoi(count)
	if err != nil || n < 1 || n > maxDevices {
		return Resource{}, fmt.Errorf("resource %q: the count must be a number from 1 to %d", s, maxDevices)
	}
	if err := validateName(name); err != nil {
		return Resource{}, fmt.Errorf("resource %q: %w", s, err)
	}
	return Resource{Name: name, Count: n}, nil
}

// validateName accepts what the kubelet registers as a device plugin's resource: a
// qualified name with a domain outside kubernetes.io, as pods request extended
// resources.
func validateName(name string) error {
	domain, _, ok := strings.Cut(name, "/")
	if !ok || domain == "" {
		return fmt.Errorf("the name must be <domain>/<name>")
	}
	if errs := validation.IsQualifiedName(name); len(errs) > 0 {
		return fmt.Errorf("the name is not a qualified name: %s", strings.Join(errs, "; "))
	}
	if domain == "kubernetes.io" || strings.HasSuffix(domain, ".kubernetes.io") {
		return fmt.Errorf("the domain must not be kubernetes.io: those are Kubernetes' own resources")
	}
	return nil
}

// shortName is the part of the name after the domain.
func (r Resource) shortName() string {
	_, short, _ := strings.Cut(r.Name, "/")
	return short
}

// EnvName is the variable Allocate sets in each container that gets devices of r:
// EnvPrefix and the name after the domain in upper case, other characters than
// letters and digits as '_' (hadoopceph.io/sriov_vf: HCO_TEST_DEVICES_SRIOV_VF).
func (r Resource) EnvName() string {
	return EnvPrefix + strings.Map(func(c rune) rune {
		switch {
		case c >= 'a' && c <= 'z':
			return c - 'a' + 'A'
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			return c
		}
		return '_'
	}, r.shortName())
}

// SocketName is the file name of r's socket in the device-plugins directory, which
// the registration gives the kubelet as the plugin's endpoint.
func (r Resource) SocketName() string {
	return "hco-test-" + strings.ReplaceAll(r.Name, "/", "_") + ".sock"
}

// DeviceIDs are the IDs of r's devices: the name after the domain, a dash and a
// number from 0.
func (r Resource) DeviceIDs() []string {
	ids := make([]string, r.Count)
	for i := range ids {
		ids[i] = r.shortName() + "-" + strconv.Itoa(i)
	}
	return ids
}

// devices is r's devices as ListAndWatch sends them, all healthy.
func (r Resource) devices() []*pluginapi.Device {
	ids := r.DeviceIDs()
	out := make([]*pluginapi.Device, len(ids))
	for i, id := range ids {
		out[i] = &pluginapi.Device{ID: id, Health: pluginapi.Healthy}
	}
	return out
}
