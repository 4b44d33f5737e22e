// Package rook turns a StorageBackend into the Rook objects that give Hadoop a CephFS:
// a CephFilesystem, a CephFilesystemSubVolumeGroup for Hadoop's root and a CephClient.
// Everything here is pure: names, labels, desired specs and the pool report.
package rook

import (
	"path"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// Objects Rook writes that the operator reads.
const (
	// MonEndpointsConfigMap holds the monitors of a Rook cluster in its key
	// MonEndpointsKey, as name=address pairs separated by commas.
	MonEndpointsConfigMap = "rook-ceph-mon-endpoints"
	MonEndpointsKey       = "data"

	// Rook writes the key of a CephClient into Secret ClientSecretPrefix+<client name>
	// with the id in ClientSecretIDKey and the key in ClientSecretKeyKey.
	ClientSecretPrefix = "rook-ceph-client-"
	ClientSecretIDKey  = "userID"
	ClientSecretKeyKey = "userKey"
)

// Namespace is the Rook namespace a StorageBackend's objects live in.
func Namespace(sb *v1alpha1.StorageBackend, defaultNamespace string) string {
	if r := sb.Spec.CephFS.Rook; r != nil && r.Namespace != "" {
		return r.Namespace
	}
	return defaultNamespace
}

// ClientName is the CephClient name and cephx id (client.<name>) of a Rook-mode
// StorageBackend: spec.cephFS.rook.clientName, else one derived from the backend.
func ClientName(sb *v1alpha1.StorageBackend) string {
	if r := sb.Spec.CephFS.Rook; r != nil && r.ClientName != "" {
		return r.ClientName
	}
	return DefaultClientName(sb.Namespace, sb.Name)
}

// DefaultClientName is hadoop-<namespace>-<name>, shortened to a label so that the
// CephClient, its Secret and the cephx id stay valid.
func DefaultClientName(namespace, name string) string {
	return naming.ShortName("hadoop-"+namespace+"-"+name, naming.MaxLabelLength)
}

// SubVolumeGroup is the CephFS subvolume group of a root path /volumes/<group>, the
// only form the API admits for Rook mode.
func SubVolumeGroup(rootPath string) string {
	return strings.TrimPrefix(path.Clean(rootPath), "/volumes/")
}

// SubVolumeGroupName is the name of the CephFilesystemSubVolumeGroup object; the
// file system prefix keeps groups of different file systems apart.
func SubVolumeGroupName(filesystem, group string) string {
	return naming.ShortName(filesystem+"-"+group, naming.MaxLabelLength)
}

// ClientSecretName is the Secret Rook writes a CephClient's key into.
func ClientSecretName(clientName string) string {
	return ClientSecretPrefix + clientName
}

// PreserveOnDelete reports whether deleting sb must leave its Rook objects and data in
// place. An unset field keeps data: deleting it is only ever an explicit choice.
func PreserveOnDelete(sb *v1alpha1.StorageBackend) bool {
	r := sb.Spec.CephFS.Rook
	return r == nil || r.PreserveOnDelete == nil || *r.PreserveOnDelete
}

// OwnedBy reports whether obj carries the labels of sb.
func OwnedBy(obj metav1.Object, sb *v1alpha1.StorageBackend) bool {
	labels := obj.GetLabels()
	for k, v := range naming.StorageBackendLabels(sb) {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// Owner describes which StorageBackend, if any, obj's labels name, for messages.
func Owner(obj metav1.Object) string {
	labels := obj.GetLabels()
	ns, name := labels[naming.LabelStorageBackendNamespace], labels[naming.LabelStorageBackendName]
	if ns == "" || name == "" {
		return "not created by a StorageBackend"
	}
	return "created for StorageBackend " + ns + "/" + name
}

func setLabels(obj metav1.Object, sb *v1alpha1.StorageBackend) {
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	for k, v := range naming.StorageBackendLabels(sb) {
		labels[k] = v
	}
	obj.SetLabels(labels)
}
