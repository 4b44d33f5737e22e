// Package naming holds the labels and names the whole operator shares: which objects
// it manages, which it must leave alone, which StorageBackend an object was made for,
// and names shortened to fit where Kubernetes limits them. Rook's objects, Hadoop's and
// the client config Secrets all carry them, so none of those packages owns them.
package naming

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Labels on the objects the operator makes.
const (
	LabelManagedBy = "app.kubernetes.io/managed-by"
	ManagedBy      = "hadoop-ceph-operator"

	// LabelDoNotReconcile set to "true" on an object makes the operator leave it alone:
	// no updates and no deletion. Readiness is still read from it.
	LabelDoNotReconcile = "hadoopceph.io/do-not-reconcile"

	// Owner references cannot cross namespaces, so these labels are what ties an object
	// in another namespace (Rook's) to its StorageBackend; the backend's own objects carry
	// them too.
	LabelStorageBackendNamespace = "hadoopceph.io/storagebackend-namespace"
	LabelStorageBackendName      = "hadoopceph.io/storagebackend-name"
)

// MaxLabelLength bounds names that also appear in label values or in names another
// controller derives further names from (a CephClient's Secret, for example).
const MaxLabelLength = 63

const hashLength = 8

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

// StorageBackendLabels mark an object as made for sb.
func StorageBackendLabels(sb *v1alpha1.StorageBackend) map[string]string {
	return map[string]string{
		LabelStorageBackendNamespace: sb.Namespace,
		LabelStorageBackendName:      ShortName(sb.Name, MaxLabelLength),
		LabelManagedBy:               ManagedBy,
	}
}

// DoNotReconcile reports whether obj opted out of reconciliation.
func DoNotReconcile(obj metav1.Object) bool {
	return obj.GetLabels()[LabelDoNotReconcile] == "true"
}
