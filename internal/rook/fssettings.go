package rook

import (
	"maps"
	"slices"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// RefuseStandbyForAnotherFS is the file system flag that keeps Ceph's monitors from
// handing the file system's standby MDS daemons to another file system. When a rank
// of a file system has no daemon of its own, the monitors take, as a last resort, a
// standby whose mds_join_fs names another file system. Rook's liveness probe of an
// MDS passes only while the daemon is a standby or holds a rank of its own file
// system, so Kubernetes restarts the borrowed daemon, its own file system loses its
// standby, and the restarts cascade. Rook never sets the flag.
const RefuseStandbyForAnotherFS = "refuse_standby_for_another_fs"

// FilesystemSettings are the variables of `ceph fs set` the operator sets on the file
// system of every Rook-mode StorageBackend, created or adopted, with their values.
// The operator's default is a file system per backend, and kept file systems
// outlive their backends, so one Rook cluster commonly serves several.
func FilesystemSettings() map[string]string {
	return map[string]string{RefuseStandbyForAnotherFS: "true"}
}

// SettingsCaps are the least privileges that set FilesystemSettings on filesystem and
// nothing else: each `fs set` command with exactly its variable and value, and write
// access to that file system's map, which the MDS monitor checks as well (without it
// Ceph answers "Permission denied: '<fs>'"). There is deliberately no "allow r": Ceph
// adds grants up, and "allow r" with a write grant on a file system lets a client
// create pools and fail file systems. The client can therefore read nothing, and it
// cannot set any other variable, any other value, or anything on another file
// system (tried on Ceph 18.2.7).
func SettingsCaps(filesystem string) map[string]string {
	settings := FilesystemSettings()
	grants := make([]string, 0, len(settings)+1)
	for _, name := range slices.Sorted(maps.Keys(settings)) {
		grants = append(grants, `allow command "fs set" with fs_name=`+filesystem+" var="+name+" val="+settings[name])
	}
	grants = append(grants, "allow w fsname="+filesystem)
	return map[string]string{"mon": strings.Join(grants, ", ")}
}

// SettingsClientName is the CephClient (and cephx id) that sets the flags of a
// backend's file system. It is a client of its own, not the evictor's, whose
// "allow r" would add up with its write grant.
func SettingsClientName(sb *v1alpha1.StorageBackend) string {
	return naming.ShortName(ClientName(sb)+"-fs-settings", naming.MaxLabelLength)
}

// SettingsClient is the CephClient that sets the flags of sb's file system.
func SettingsClient(sb *v1alpha1.StorageBackend, namespace string) *cephv1.CephClient {
	cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{
		Name:      SettingsClientName(sb),
		Namespace: namespace,
	}}
	MutateSettingsClient(cc, sb)
	return cc
}

// MutateSettingsClient sets the fields of the settings client's CephClient that sb
// decides.
func MutateSettingsClient(cc *cephv1.CephClient, sb *v1alpha1.StorageBackend) {
	setLabels(cc, sb)
	cc.Spec.Name = ""
	cc.Spec.Caps = SettingsCaps(sb.Spec.CephFS.Rook.FilesystemName)
}
