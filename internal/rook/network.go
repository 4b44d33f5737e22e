package rook

import (
	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// Network is where a pod must be to reach a Rook cluster's Ceph daemons.
type Network struct {
	// Host: the daemons listen on their nodes' addresses (Rook's host network).
	Host bool
	// Public is Rook's Multus network for Ceph's public traffic, if it has one.
	Public *v1alpha1.NetworkAttachment
}

// DaemonNetwork reads the network of a CephCluster. Without host networking or Multus
// the daemons are on the pod network, which every pod reaches.
func DaemonNetwork(cc *cephv1.CephCluster) (Network, error) {
	net := cc.Spec.Network
	if net.IsHost() {
		return Network{Host: true}, nil
	}
	if !net.IsMultus() {
		return Network{}, nil
	}
	selection, err := net.GetNetworkSelection(cc.Namespace, cephv1.CephNetworkPublic)
	if err != nil || selection == nil {
		return Network{}, err
	}
	return Network{Public: &v1alpha1.NetworkAttachment{Name: selection.Name, Namespace: selection.Namespace}}, nil
}
