// Package rook turns a StorageBackend into the Rook objects that give Hadoop a CephFS:
// a CephFilesystem, a CephFilesystemSubVolumeGroup for Hadoop's root and a CephClient.
// Everything here is pure: names, labels, desired specs and the pool report.
package rook

import (
	"crypto/sha256"
	"encoding/hex"
	"path"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Labels on every Rook object the operator creates. Owner references cannot cross
// namespaces, so these labels are what ties a Rook object to its StorageBackend.
const (
	LabelStorageBackendNamespace = "hadoopceph.io/storagebackend-namespace"
	LabelStorageBackendName      = "hadoopceph.io/storagebackend-name"
	LabelManagedBy               = "app.kubernetes.io/managed-by"
	ManagedBy                    = "hadoop-ceph-operator"

	// LabelDoNotReconcile set to "true" on a Rook object makes the operator leave it
	// alone: no updates and no deletion. Readiness is still read from it.
	LabelDoNotReconcile = "hadoopceph.io/do-not-reconcile"
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

const (
	// maxLabelLength bounds names that also appear in label values or in names Rook
	// derives further names from (a CephClient's Secret, for example).
	maxLabelLength = 63
	hashLength     = 8
)

// ShortName returns name unchanged when it fits in max characters, and otherwise a
// prefix of it followed by a hash of the whole name, so that distinct long names stay
// distinct and the result is always the same for the same input.
func ShortName(name string, max int) string {
	if len(name) <= max {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	prefix := strings.TrimRight(name[:max-hashLength-1], "-.")
	return prefix + "-" + hex.EncodeToString(sum[:])[:hashLength]
}

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
	return ShortName("hadoop-"+namespace+"-"+name, maxLabelLength)
}

// SubVolumeGroup is the CephFS subvolume group of a root path /volumes/<group>, the
// only form the API admits for Rook mode.
func SubVolumeGroup(rootPath string) string {
	return strings.TrimPrefix(path.Clean(rootPath), "/volumes/")
}

// SubVolumeGroupName is the name of the CephFilesystemSubVolumeGroup object; the
// file system prefix keeps groups of different file systems apart.
func SubVolumeGroupName(filesystem, group string) string {
	return ShortName(filesystem+"-"+group, maxLabelLength)
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

// Labels are the labels that mark a Rook object as created for sb.
func Labels(sb *v1alpha1.StorageBackend) map[string]string {
	return map[string]string{
		LabelStorageBackendNamespace: sb.Namespace,
		LabelStorageBackendName:      ShortName(sb.Name, maxLabelLength),
		LabelManagedBy:               ManagedBy,
	}
}

// OwnedBy reports whether obj carries the labels of sb.
func OwnedBy(obj metav1.Object, sb *v1alpha1.StorageBackend) bool {
	labels := obj.GetLabels()
	for k, v := range Labels(sb) {
		if labels[k] != v {
			return false
		}
	}
	return true
}

// Owner describes which StorageBackend, if any, obj's labels name, for messages.
func Owner(obj metav1.Object) string {
	labels := obj.GetLabels()
	ns, name := labels[LabelStorageBackendNamespace], labels[LabelStorageBackendName]
	if ns == "" || name == "" {
		return "not created by a StorageBackend"
	}
	return "created for StorageBackend " + ns + "/" + name
}

// DoNotReconcile reports whether obj opted out of reconciliation.
func DoNotReconcile(obj metav1.Object) bool {
	return obj.GetLabels()[LabelDoNotReconcile] == "true"
}

func setLabels(obj metav1.Object, sb *v1alpha1.StorageBackend) {
	labels := obj.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	for k, v := range Labels(sb) {
		labels[k] = v
	}
	obj.SetLabels(labels)
}
