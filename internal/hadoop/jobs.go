package hadoop

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// What the operator's own Jobs share: the session eviction Job, the Job that empties
// Hadoop's root and the one that sets a file system's flags.

// reachCeph puts the pod of one of the operator's Jobs that only talk to Ceph where
// Rook's daemons listen: on its node's network when Rook runs them there, else on
// Rook's public Multus network when it has one. It returns the pod's annotations.
func reachCeph(pod *corev1.PodSpec, hostNetwork bool, public *v1alpha1.NetworkAttachment) map[string]string {
	switch {
	case hostNetwork:
		pod.HostNetwork = true
		pod.DNSPolicy = corev1.DNSClusterFirstWithHostNet
	case public != nil:
		return map[string]string{NetworksAnnotation: MultusNetworks([]v1alpha1.NetworkAttachment{*public})}
	}
	return nil
}

// jobPodSecurityContext is the pod security context of the operator's Jobs: the
// Hadoop user, whose group may read the client config files (0440).
func jobPodSecurityContext() *corev1.PodSecurityContext {
	return &corev1.PodSecurityContext{
		RunAsNonRoot:   ptr.To(true),
		RunAsUser:      ptr.To(HadoopUID),
		RunAsGroup:     ptr.To(HadoopGID),
		FSGroup:        ptr.To(HadoopGID),
		SeccompProfile: &corev1.SeccompProfile{Type: corev1.SeccompProfileTypeRuntimeDefault},
	}
}
