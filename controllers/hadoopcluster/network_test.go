package hadoopcluster

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/storage"
)

func TestNetworkWithoutMultus(t *testing.T) {
	hc := &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: "analytics", Name: "ib", Generation: 1},
		Spec: v1alpha1.HadoopClusterSpec{Network: v1alpha1.NetworkSpec{
			Attachments: []v1alpha1.NetworkAttachment{{Name: "ib-hadoop"}, {Name: "tengig", Namespace: "network"}},
		}},
	}
	r := &Reconciler{APIs: optionalapi.Served{NetworkAttachments: false}}
	p := newClusterPass(hc)
	if err := r.reconcileNetwork(context.Background(), p, storage.Resolved{}); err != nil {
		t.Fatal(err)
	}
	c := meta.FindStatusCondition(hc.Status.Conditions, v1alpha1.ConditionNetworkReady)
	if c == nil || c.Status != metav1.ConditionFalse || c.Reason != v1alpha1.ReasonNetworkAttachmentNotFound {
		t.Fatalf("NetworkReady = %+v, want False/NetworkAttachmentNotFound", c)
	}
	for _, want := range []string{"does not serve NetworkAttachmentDefinitions", "analytics/ib-hadoop, network/tengig", "install Multus"} {
		if !strings.Contains(c.Message, want) {
			t.Errorf("message %q does not contain %q", c.Message, want)
		}
	}
	if got := hc.Status.Network.AttachmentResources; got != nil {
		t.Errorf("status.network.attachmentResources = %v without NetworkAttachmentDefinitions to read", got)
	}
}
