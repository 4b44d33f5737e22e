package main

import (
	"reflect"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/benchmark"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// rookStorage is what the operator resolves from the local Rook on Multus.
func rookStorage() *hadoop.Storage {
	return &hadoop.Storage{
		Filesystem:    filesystemName,
		RookNamespace: rookNamespace,
		PublicNetwork: &v1alpha1.NetworkAttachment{Namespace: publicNAD.Namespace, Name: publicNAD.Name},
	}
}

// The cluster's net1 is Rook's public network, and a run records it with the rate the
// cluster's status lists for it.
func TestClusterRecordsRookPublicNetwork(t *testing.T) {
	hc := newCluster()
	data, ok := hadoop.DataNetwork(hadoop.Input{Cluster: hc, Storage: *rookStorage()})
	if !ok || data.Namespace != publicNAD.Namespace || data.Name != publicNAD.Name {
		t.Fatalf("the data network of net1 is %+v (%v), want %s", data, ok, publicNAD)
	}

	hc.Status.ReadyNodeManagers = clusterNodes
	hc.Status.Network.LinkRates = []v1alpha1.AttachmentLinkRate{{Namespace: publicNAD.Namespace, Name: publicNAD.Name, Rate: linkRate("1gbit")}}
	run := newRun(options{clients: 3, parallelPuts: 2}, slot{rate: "1gbit", repetition: 1})
	got := benchmark.Setup(&run.Spec, hc, nil, rookStorage()).Network
	public := &v1alpha1.NetworkAttachmentReference{Namespace: publicNAD.Namespace, Name: publicNAD.Name}
	want := &v1alpha1.NetworkSetup{DataInterface: "net1", Attachment: public, CephPublicNetwork: public, Rate: "1Gbit"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("status.setup.network = %+v, want %+v", got, want)
	}
}

// The ingest clients' pods are spread over the nodes by themselves.
func TestClientsSpreadOverNodes(t *testing.T) {
	hc := newCluster()
	pod := hadoop.ClientPodTemplateSpec(hadoop.Input{Cluster: hc, Storage: *rookStorage()}, "hash", hadoop.ClientContainer{Command: "true"})
	got := pod.Spec.TopologySpreadConstraints
	if len(got) != 1 || got[0].MaxSkew != 1 || got[0].TopologyKey != corev1.LabelHostname || got[0].WhenUnsatisfiable != corev1.DoNotSchedule {
		t.Fatalf("client pods' spread constraints: %+v", got)
	}
	if sel := got[0].LabelSelector; sel == nil || !reflect.DeepEqual(sel.MatchLabels, hadoop.SelectorLabels(hc, hadoop.Client)) {
		t.Errorf("client pods are spread by %+v, want the clients' own labels %v", sel, hadoop.SelectorLabels(hc, hadoop.Client))
	}
	if pod.Annotations[hadoop.NetworksAnnotation] == "" {
		t.Errorf("client pods join no Multus network, want Rook's public network")
	}
}
