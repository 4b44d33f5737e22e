package hadoop

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// DeleteData is what the Job that empties Hadoop's root needs: the backend's client
// and where Ceph's daemons can be reached.
type DeleteData struct {
	// Name and Namespace of the Job: the StorageBackend's namespace, where its client
	// config Secret is.
	Name, Namespace string
	Labels          map[string]string
	Image           string
	Storage         Storage
	// HostNetwork puts the pod on its node's network, where Ceph's daemons listen when
	// Rook runs them on the host network.
	HostNetwork bool
	// PublicNetwork is Rook's Multus network for Ceph's public traffic, if it has one.
	PublicNetwork *v1alpha1.NetworkAttachment
}

// DeleteDataJob removes everything below Hadoop's root, which Rook must find empty
// before it deletes the subvolume group: `ceph fs subvolumegroup rm` refuses a group
// that holds anything. It runs the image's Hadoop client with the backend's key and no
// configuration of a cluster, every connector setting on the command line, acting as
// uid 0 on CephFS (client_mount_uid) so that files of any owner go, while the container
// runs as the Hadoop user. A retried pod deletes what is left: the command succeeds on
// an empty root.
func DeleteDataJob(d DeleteData) *batchv1.Job {
	options := cephConfOptions(d.Storage.Filesystem, map[string]string{"client_mount_uid": "0", "client_mount_gid": "0"})
	define := func(key, value string) []string { return []string{"-D", key + "=" + value} }
	args := []string{"fs"}
	for _, kv := range [][2]string{
		{"fs.defaultFS", DefaultFS},
		{"fs.ceph.impl", FileSystemClass},
		{"fs.AbstractFileSystem.ceph.impl", AbstractFileSystemClass},
		{keyCephConfFile, CephConfPath},
		{keyCephAuthID, d.Storage.ClientID},
		{keyCephAuthKeyring, CephKeyringPath},
		{keyCephRootDir, d.Storage.RootPath},
		{keyCephConfOptions, options},
	} {
		args = append(args, define(kv[0], kv[1])...)
	}
	// Hadoop expands the glob itself; -f makes an empty root a success.
	args = append(args, "-rm", "-r", "-f", "-skipTrash", "/*")

	pod := corev1.PodSpec{
		RestartPolicy:                corev1.RestartPolicyNever,
		AutomountServiceAccountToken: ptr.To(false),
		EnableServiceLinks:           ptr.To(false),
		SecurityContext:              jobPodSecurityContext(),
		Containers: []corev1.Container{{
			Name:    "delete-data",
			Image:   d.Image,
			Command: []string{HadoopCommand},
			Args:    args,
			Env: []corev1.EnvVar{
				{Name: EnvLogDir, Value: LogDir},
				{Name: EnvHeapSize, Value: "256m"},
			},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse("100m"),
					corev1.ResourceMemory: resource.MustParse("512Mi"),
				},
				Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi")},
			},
			VolumeMounts: []corev1.VolumeMount{
				{Name: volumeCephClient, MountPath: CephConfDir, ReadOnly: true},
				{Name: volumeTmp, MountPath: TmpDir},
				{Name: volumeLogs, MountPath: LogDir},
			},
			SecurityContext: restrictedSecurityContext(nil),
		}},
		Volumes: []corev1.Volume{
			cephClientVolume(d.Storage.ClientConfigSecret, 0o440),
			{Name: volumeTmp, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
			{Name: volumeLogs, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		},
	}
	annotations := reachCeph(&pod, d.HostNetwork, d.PublicNetwork)
	return &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      d.Name,
			Namespace: d.Namespace,
			Labels:    d.Labels,
		},
		Spec: batchv1.JobSpec{
			BackoffLimit: ptr.To[int32](2),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: d.Labels, Annotations: annotations},
				Spec:       pod,
			},
		},
	}
}
