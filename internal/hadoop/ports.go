package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// namedPort is a port a daemon listens on, named for its Service.
type namedPort struct {
	name string
	port int32
}

var (
	resourceManagerPorts = []namedPort{
		{"rpc", PortRMClient},
		{"scheduler", PortRMScheduler},
		{"tracker", PortRMResourceTracker},
		{"admin", PortRMAdmin},
		{"http", PortRMWeb},
	}
	nodeManagerPorts = []namedPort{
		{"rpc", PortNMRPC},
		{"localizer", PortNMLocalizer},
		{"http", PortNMWeb},
		{"shuffle", PortShuffle},
	}
	jobHistoryPorts = []namedPort{
		{"rpc", PortJHRPC},
		{"admin", PortJHAdmin},
		{"http", PortJHWeb},
	}
)

func containerPorts(ports []namedPort) []corev1.ContainerPort {
	out := make([]corev1.ContainerPort, 0, len(ports))
	for _, p := range ports {
		out = append(out, corev1.ContainerPort{Name: p.name, ContainerPort: p.port, Protocol: corev1.ProtocolTCP})
	}
	return out
}

func servicePorts(ports []namedPort) []corev1.ServicePort {
	out := make([]corev1.ServicePort, 0, len(ports))
	for _, p := range ports {
		out = append(out, corev1.ServicePort{
			Name: p.name, Port: p.port, TargetPort: intstr.FromString(p.name), Protocol: corev1.ProtocolTCP,
		})
	}
	return out
}
