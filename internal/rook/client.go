package rook

import (
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/naming"
)

// Caps are the least privileges Hadoop needs on one file system: read the maps, read
// and write below its root (p lets the connector set file layouts, such as the data
// pool of a directory), and read and write the objects of that file system's data
// pools only.
func Caps(filesystem, rootPath string) map[string]string {
	return map[string]string{
		"mon": "allow r",
		"mds": "allow rwp path=" + rootPath,
		"osd": "allow rw tag cephfs data=" + filesystem,
	}
}

// Client is the CephClient Hadoop authenticates as.
func Client(sb *v1alpha1.StorageBackend, namespace string) *cephv1.CephClient {
	cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{
		Name:      ClientName(sb),
		Namespace: namespace,
	}}
	MutateClient(cc, sb)
	return cc
}

// MutateClient sets the fields of cc that sb decides. spec.name is cleared because it
// would change the cephx id away from the object's name, which the client config uses.
func MutateClient(cc *cephv1.CephClient, sb *v1alpha1.StorageBackend) {
	r := sb.Spec.CephFS.Rook
	setLabels(cc, sb)
	cc.Spec.Name = ""
	cc.Spec.Caps = Caps(r.FilesystemName, r.RootPath)
}

// EvictorCaps are the least privileges that evict a client's CephFS sessions: the MDS
// accepts commands only from a client whose MDS caps are "allow *" without a path,
// and the monitor's maps say which daemon holds each rank. No osd caps: the evictor
// never reads or writes file data (the MDS blocklists the evicted client itself).
func EvictorCaps() map[string]string {
	return map[string]string{
		"mon": "allow r",
		"mds": "allow *",
	}
}

// EvictorName is the CephClient (and cephx id) that evicts the sessions of dead
// Hadoop pods.
func EvictorName(sb *v1alpha1.StorageBackend) string {
	return naming.ShortName(ClientName(sb)+"-evictor", 63)
}

// EvictDeadClients reports whether a Rook-mode sb has an evictor: on unless turned off.
func EvictDeadClients(sb *v1alpha1.StorageBackend) bool {
	r := sb.Spec.CephFS.Rook
	return r != nil && (r.EvictDeadClients == nil || *r.EvictDeadClients)
}

// EvictorClient is the evictor's CephClient.
func EvictorClient(sb *v1alpha1.StorageBackend, namespace string) *cephv1.CephClient {
	cc := &cephv1.CephClient{ObjectMeta: metav1.ObjectMeta{
		Name:      EvictorName(sb),
		Namespace: namespace,
	}}
	MutateEvictorClient(cc, sb)
	return cc
}

// MutateEvictorClient sets the fields of the evictor's CephClient that sb decides.
func MutateEvictorClient(cc *cephv1.CephClient, sb *v1alpha1.StorageBackend) {
	setLabels(cc, sb)
	cc.Spec.Name = ""
	cc.Spec.Caps = EvictorCaps()
}
