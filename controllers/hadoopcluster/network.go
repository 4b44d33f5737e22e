package hadoopcluster

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/indexes"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/lifecycle"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/storage"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// reconcileNetwork checks that the pods can get the networks and devices they ask
// for: every NetworkAttachmentDefinition they join exists, and some node offers each
// extended resource. Missing ones do not stop the cluster from being applied (its pods
// start once they appear), but NetworkReady names them. Rook's public network on
// Multus, which every Hadoop pod joins, is among them.
func (r *Reconciler) reconcileNetwork(ctx context.Context, p *clusterPass, res storage.Resolved) error {
	hc := p.hc
	spec := hc.Spec.Network
	var problems []lifecycle.Unmet

	keys := make([]string, 0, len(spec.Attachments)+1)
	for _, a := range spec.Attachments {
		keys = append(keys, indexes.AttachmentKey(a, hc.Namespace))
	}
	if res.NetworkUnmet != nil {
		problems = append(problems, *res.NetworkUnmet)
	}
	if res.Storage != nil && res.Storage.PublicNetwork != nil {
		if key := indexes.AttachmentKey(*res.Storage.PublicNetwork, hc.Namespace); !slices.Contains(keys, key) {
			keys = append(keys, key)
		}
	}

	missing, err := r.missingAttachments(ctx, keys)
	if err != nil {
		return p.Failed(v1alpha1.ConditionNetworkReady, err)
	}
	if len(missing) > 0 {
		message := "no NetworkAttachmentDefinition " + strings.Join(missing, ", ") + ": the pods cannot join these networks until they are created (or removed from spec.network.attachments)"
		if !r.APIs.NetworkAttachments {
			message = "the API server does not serve NetworkAttachmentDefinitions (k8s.cni.cncf.io/v1), so Multus cannot attach " +
				strings.Join(missing, ", ") + ": install Multus (the operator notices within 30 seconds and restarts to watch it), or remove spec.network.attachments"
		}
		problems = append(problems, lifecycle.Unmet{Reason: v1alpha1.ReasonNetworkAttachmentNotFound, Message: message})
	}

	unavailable, err := r.unavailableResources(ctx, spec.ExtendedResources)
	if err != nil {
		return p.Failed(v1alpha1.ConditionNetworkReady, err)
	}
	if len(unavailable) > 0 {
		problems = append(problems, lifecycle.Unmet{Reason: v1alpha1.ReasonExtendedResourceUnavailable, Message: "no node offers " + strings.Join(unavailable, ", ") + ", so NodeManagers cannot be scheduled: install the device plugin, or remove it from spec.network.extendedResources"})
	}

	if len(problems) > 0 {
		messages := make([]string, 0, len(problems))
		for _, u := range problems {
			messages = append(messages, u.Message)
		}
		p.False(v1alpha1.ConditionNetworkReady, problems[0].Reason, strings.Join(messages, "; "))
		return nil
	}
	summary := networkSummary(spec, keys)
	if hadoop.NetworkPoliciesIneffective(hc) {
		// A note, not a fault: Ready does not depend on it.
		summary += "; " + networkPoliciesIneffective
	}
	p.True(v1alpha1.ConditionNetworkReady, v1alpha1.ReasonReconciled, summary)
	return nil
}

// networkPoliciesIneffective tells a cluster on the host's network that its
// NetworkPolicies protect nothing.
const networkPoliciesIneffective = "the NetworkPolicies of spec.access do not protect the daemons, because NetworkPolicies do not apply to pods on the host's network: anything that reaches the nodes reaches YARN; restrict it with the nodes' firewall, or set spec.access.networkPolicies to false to say so (docs/security.md)"

// missingAttachments returns the keys of the NetworkAttachmentDefinitions that do not
// exist; all of them when the API is not served.
func (r *Reconciler) missingAttachments(ctx context.Context, keys []string) ([]string, error) {
	if !r.APIs.NetworkAttachments {
		return keys, nil
	}
	var missing []string
	for _, key := range keys {
		ns, name, _ := strings.Cut(key, "/")
		nad := &metav1.PartialObjectMetadata{}
		nad.SetGroupVersionKind(lifecycle.NetworkAttachmentGVK)
		err := r.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, nad)
		switch {
		case apierrors.IsNotFound(err):
			missing = append(missing, key)
		case err != nil:
			return nil, fmt.Errorf("reading NetworkAttachmentDefinition %s: %w", key, err)
		}
	}
	return missing, nil
}

// unavailableResources names the extended resources no node offers in the count asked
// for.
func (r *Reconciler) unavailableResources(ctx context.Context, wanted []v1alpha1.ExtendedResource) ([]string, error) {
	if len(wanted) == 0 {
		return nil, nil
	}
	nodes := &corev1.NodeList{}
	if err := r.workloads.List(ctx, nodes); err != nil {
		return nil, fmt.Errorf("listing nodes: %w", err)
	}
	var out []string
	for _, d := range wanted {
		count := resource.NewQuantity(int64(max(d.Count, 1)), resource.DecimalSI)
		offered := slices.ContainsFunc(nodes.Items, func(n corev1.Node) bool {
			q, ok := n.Status.Allocatable[corev1.ResourceName(d.Name)]
			return ok && q.Cmp(*count) >= 0
		})
		if !offered {
			out = append(out, fmt.Sprintf("%s (%s per NodeManager)", d.Name, count))
		}
	}
	return out, nil
}

func networkSummary(spec v1alpha1.NetworkSpec, attachments []string) string {
	var parts []string
	if spec.HostNetwork {
		parts = append(parts, "NodeManagers use the node's network")
	}
	if len(attachments) > 0 {
		parts = append(parts, "NetworkAttachmentDefinitions exist: "+strings.Join(attachments, ", "))
	}
	if len(spec.ExtendedResources) > 0 {
		names := make([]string, 0, len(spec.ExtendedResources))
		for _, d := range spec.ExtendedResources {
			names = append(names, d.Name)
		}
		parts = append(parts, "nodes offer "+strings.Join(names, ", "))
	}
	if len(parts) == 0 {
		return "no extra networks or devices requested"
	}
	return strings.Join(parts, "; ")
}
