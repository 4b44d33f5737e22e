package hadoop

import (
	"maps"
	"slices"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/cephconf"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// FilesystemSettingsComponent labels the Jobs that set a StorageBackend's file system
// flags, so that the operator finds those of earlier settings.
const FilesystemSettingsComponent Component = "fs-settings"

// FilesystemSettings is what the Job that sets a file system's flags needs: the
// settings client and where Ceph's daemons can be reached.
type FilesystemSettings struct {
	// Backend names the StorageBackend the Job is named after; Namespace is its
	// namespace, where the settings client's config Secret is.
	Backend, Namespace string
	// Labels are the StorageBackend's; the component label is added.
	Labels map[string]string
	Image  string
	// Filesystem is the Ceph file system, FilesystemID the identity of the
	// CephFilesystem it came from: a file system made anew has none of the old one's
	// flags, so it gets a Job of its own.
	Filesystem, FilesystemID string
	// Settings are the variables of `ceph fs set` and their values.
	Settings map[string]string
	// ClientID is the cephx id of the settings client, without "client.", and
	// ConfigSecret the Secret with its ceph.conf and keyring.
	ClientID, ConfigSecret string
	// HostNetwork puts the pod on its node's network, where Ceph's daemons listen when
	// Rook runs them on the host network.
	HostNetwork bool
	// PublicNetwork is Rook's Multus network for Ceph's public traffic, if it has one.
	PublicNetwork *v1alpha1.NetworkAttachment
}

// FilesystemSettingsJobName is <backend>-fs-settings-<hash>. The hash covers the file
// system, its identity and the settings, so that a change of any of them runs a new
// Job, while a finished Job of the same settings says they are applied.
func FilesystemSettingsJobName(s FilesystemSettings) string {
	data := map[string][]byte{"filesystem": []byte(s.Filesystem), "filesystemID": []byte(s.FilesystemID)}
	for k, v := range s.Settings {
		data["set."+k] = []byte(v)
	}
	hash := cephconf.Hash(data)[:8]
	return naming.ShortName(s.Backend+"-fs-settings", naming.MaxLabelLength-len(hash)-1) + "-" + hash
}

// fsSettingsScript runs `ceph fs set` for each variable and value pair of its
// arguments, in order, and says what it sets. The pairs are arguments rather than
// text of the script, so nothing in them is read by the shell.
const fsSettingsScript = `set -eu
ceph=(ceph --conf /etc/ceph/ceph.conf --id "$CEPH_ID" --keyring /etc/ceph/keyring --connect-timeout 30)
while [ "$#" -ge 2 ]; do
  echo "ceph fs set $CEPH_FS $1 $2"
  "${ceph[@]}" fs set "$CEPH_FS" "$1" "$2"
  shift 2
done
`

// FilesystemSettingsJob sets the flags of a StorageBackend's file system with the
// settings client's key alone, whose caps allow exactly these commands. Setting a flag
// to the value it has succeeds, so a retried pod does no harm. The Ceph command line
// is the Hadoop image's, the one the session eviction Jobs use.
func FilesystemSettingsJob(s FilesystemSettings) *batchv1.Job {
	labels := maps.Clone(s.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[LabelComponent] = string(FilesystemSettingsComponent)
	var args []string
	for _, k := range slices.Sorted(maps.Keys(s.Settings)) {
		args = append(args, k, s.Settings[k])
	}
	pod := corev1.PodSpec{
		RestartPolicy:                corev1.RestartPolicyNever,
		AutomountServiceAccountToken: ptr.To(false),
		EnableServiceLinks:           ptr.To(false),
		SecurityContext:              jobPodSecurityContext(),
		Containers: []corev1.Container{{
			Name:    string(FilesystemSettingsComponent),
			Image:   s.Image,
			Command: []string{"/bin/bash", "-c", fsSettingsScript, string(FilesystemSettingsComponent)},
			Args:    args,
			Env: []corev1.EnvVar{
				{Name: "CEPH_ID", Value: s.ClientID},
				{Name: "CEPH_FS", Value: s.Filesystem},
				// The ceph command's client writes nothing but its admin socket, which it
				// may do without.
				{Name: "HOME", Value: TmpDir},
			},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse("10m"),
					corev1.ResourceMemory: resource.MustParse("128Mi"),
				},
				Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")},
			},
			// Ceph's refusal (an unknown variable on a Ceph before Reef, a missing cap)
			// ends the log, which then shows in the pod's status.
			TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError,
			VolumeMounts: []corev1.VolumeMount{
				{Name: volumeCephClient, MountPath: CephConfDir, ReadOnly: true},
				{Name: volumeTmp, MountPath: TmpDir},
			},
			SecurityContext: restrictedSecurityContext(nil),
		}},
		Volumes: []corev1.Volume{
			cephClientVolume(s.ConfigSecret, 0o440),
			{Name: volumeTmp, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		},
	}
	annotations := reachCeph(&pod, s.HostNetwork, s.PublicNetwork)
	return &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      FilesystemSettingsJobName(s),
			Namespace: s.Namespace,
			Labels:    labels,
		},
		Spec: batchv1.JobSpec{
			// A few tries for monitors that are briefly away; the flag either takes or
			// Ceph refuses it, which another try does not change.
			BackoffLimit: ptr.To[int32](2),
			// Each try waits at most --connect-timeout for the monitors, and the
			// command itself is one change of the FSMap.
			ActiveDeadlineSeconds: ptr.To[int64](300),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(labels), Annotations: annotations},
				Spec:       pod,
			},
		},
	}
}
