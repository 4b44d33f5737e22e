package hadoop

import (
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
)

// HandOverRootContainer is the name of the ResourceManager's init container that makes
// the Hadoop user the owner of Hadoop's root.
const HandOverRootContainer = "hand-over-root"

// HadoopCommand is Hadoop's own command in the image.
const HadoopCommand = HadoopHome + "/bin/hadoop"

// handOverRootContainer makes the Hadoop user own Hadoop's root, which Ceph created
// owned by root with mode 0755 when Rook made the subvolume group, so that Hadoop's
// daemons and jobs (uid HadoopUID) can write in it. Only the CephFS-level identity
// changes: libcephfs acts as uid 0 for this one command (client_mount_uid), which the
// backend's client may do below the root its caps confine it to, while the container
// runs as the Hadoop user like every other. Changing the owner to the one it has is
// harmless, so it runs on every start of the ResourceManager.
func handOverRootContainer(in Input) corev1.Container {
	asRoot := maps.Clone(in.Cluster.Spec.Config.CephOptions)
	if asRoot == nil {
		asRoot = map[string]string{}
	}
	asRoot["client_mount_uid"] = "0"
	asRoot["client_mount_gid"] = "0"
	return corev1.Container{
		Name:            HandOverRootContainer,
		Image:           in.image(),
		ImagePullPolicy: in.Cluster.Spec.ImagePullPolicy,
		Command: []string{HadoopCommand, "fs",
			"-D", keyCephConfOptions + "=" + cephConfOptions(in.Storage.Filesystem, asRoot),
			"-chown", fmt.Sprintf("%d:%d", HadoopUID, HadoopGID), "/"},
		Env:             env(role{}),
		Resources:       in.Cluster.Spec.ResourceManager.Resources,
		VolumeMounts:    hadoopMounts(in, ResourceManager),
		SecurityContext: restrictedSecurityContext(nil),
	}
}
