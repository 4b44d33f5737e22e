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
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/optionalapi"
	"github.com/hadoopceph/hadoop-ceph-operator/controllers/internal/storage"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// reconcileNetwork checks that the pods can get the networks and devices they ask
// for: every NetworkAttachmentDefinition they join exists, and some node offers each
// extended resource a NodeManager requests. Missing ones do not stop the cluster from
// being applied (its pods start once they appear), but NetworkReady names them. Rook's
// public network on Multus, which every Hadoop pod joins, is among them.
//
// It also records in status.network.attachmentResources the devices those
// NetworkAttachmentDefinitions name, which the pods that join them request
// (reconcileChildren), and in status.network.linkRates the link rates their
// annotations give. The BenchmarkRun controller builds its stage pods, and records the
// network a run measured, from that record rather than reading the
// NetworkAttachmentDefinitions itself: one reader, so the stages request what the
// NodeManagers beside them request, and the BenchmarkRun controller needs neither
// access to Multus's API nor to know whether it is served.
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

	found, err := r.readAttachments(ctx, keys)
	if err != nil {
		return p.Failed(v1alpha1.ConditionNetworkReady, err)
	}
	hc.Status.Network.AttachmentResources = found.resources
	hc.Status.Network.LinkRates = found.linkRates
	if len(found.missing) > 0 {
		message := "no NetworkAttachmentDefinition " + strings.Join(found.missing, ", ") + ": the pods cannot join these networks until they are created (or removed from spec.network.attachments)"
		if !r.APIs.NetworkAttachments {
			message = "the API server does not serve NetworkAttachmentDefinitions (k8s.cni.cncf.io/v1), so Multus cannot attach " +
				strings.Join(found.missing, ", ") + ": install Multus (the operator notices within 30 seconds and restarts to watch it), or remove spec.network.attachments"
		}
		problems = append(problems, lifecycle.Unmet{Reason: v1alpha1.ReasonNetworkAttachmentNotFound, Message: message})
	}
	if len(found.invalid) > 0 {
		problems = append(problems, lifecycle.Unmet{Reason: v1alpha1.ReasonInvalidAttachmentResource, Message: strings.Join(found.invalid, "; ") +
			": no pod can request such a device, so the pods that join these networks request none, and their CNI may refuse them; correct the annotation"})
	}

	in := hadoop.Input{Cluster: hc, AttachmentResources: found.resources}
	if res.Storage != nil {
		in.Storage = *res.Storage
	}
	devices := hadoop.NodeManagerDevices(in)
	unavailable, err := r.unavailableResources(ctx, devices, found.resources)
	if err != nil {
		return p.Failed(v1alpha1.ConditionNetworkReady, err)
	}
	if len(unavailable) > 0 {
		problems = append(problems, lifecycle.Unmet{Reason: v1alpha1.ReasonExtendedResourceUnavailable, Message: "no node offers " + strings.Join(unavailable, ", ") +
			", so NodeManagers cannot be scheduled: install the device plugin, or remove it from spec.network.extendedResources (or the attachment whose NetworkAttachmentDefinition names it)"})
	}

	if len(problems) > 0 {
		messages := make([]string, 0, len(problems))
		for _, u := range problems {
			messages = append(messages, u.Message)
		}
		p.False(v1alpha1.ConditionNetworkReady, problems[0].Reason, strings.Join(messages, "; "))
		return nil
	}
	summary := networkSummary(spec.HostNetwork, keys, found.resources, devices)
	if hadoop.NetworkPoliciesIneffective(hc) {
		// A note, not a fault: Ready does not depend on it.
		summary += "; " + networkPoliciesIneffective
	}
	if len(found.invalidRates) > 0 {
		// A note too: a rate is only recorded, and the pods do not need it.
		summary += "; " + strings.Join(found.invalidRates, "; ") + "; until it is corrected, BenchmarkRuns on these networks record no link rate (status.setup.network.rate)"
	}
	p.True(v1alpha1.ConditionNetworkReady, v1alpha1.ReasonReconciled, summary)
	return nil
}

// networkPoliciesIneffective tells a cluster on the host's network that its
// NetworkPolicies protect nothing.
const networkPoliciesIneffective = "the NetworkPolicies of spec.access do not protect the daemons, because NetworkPolicies do not apply to pods on the host's network: anything that reaches the nodes reaches YARN; restrict it with the nodes' firewall, or set spec.access.networkPolicies to false to say so (docs/security.md)"

// attachments is what the NetworkAttachmentDefinitions the pods join say.
type attachments struct {
	// missing are the keys of those that do not exist; all of them when the API is
	// not served.
	missing []string
	// resources are the devices those that exist name, in the order of the keys.
	resources []v1alpha1.AttachmentResource
	// invalid says which name something no pod can request, and why.
	invalid []string
	// linkRates are the rates the link-rate annotations of those that exist give,
	// in the order of the keys.
	linkRates []v1alpha1.AttachmentLinkRate
	// invalidRates says which have a link-rate annotation that is not a rate, and why.
	invalidRates []string
}

// readAttachments reads the NetworkAttachmentDefinitions of keys, as metadata: their
// annotations are all the operator needs of them. This is the one reader of them: the
// BenchmarkRun controller takes the devices and rates they name from the status this
// controller records.
func (r *Reconciler) readAttachments(ctx context.Context, keys []string) (attachments, error) {
	if !r.APIs.NetworkAttachments {
		return attachments{missing: keys}, nil
	}
	var out attachments
	for _, key := range keys {
		ns, name, _ := strings.Cut(key, "/")
		nad := &metav1.PartialObjectMetadata{}
		nad.SetGroupVersionKind(optionalapi.NetworkAttachmentGVK)
		err := r.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, nad)
		switch {
		case apierrors.IsNotFound(err):
			out.missing = append(out.missing, key)
			continue
		case err != nil:
			return attachments{}, fmt.Errorf("reading NetworkAttachmentDefinition %s: %w", key, err)
		}
		resource, err := hadoop.AttachmentResourceName(nad.Annotations)
		switch {
		case err != nil:
			out.invalid = append(out.invalid, "NetworkAttachmentDefinition "+key+": "+err.Error())
		case resource != "":
			out.resources = append(out.resources, v1alpha1.AttachmentResource{Namespace: ns, Name: name, ResourceName: resource})
		}
		rate, err := hadoop.LinkRate(nad.Annotations)
		switch {
		case err != nil:
			out.invalidRates = append(out.invalidRates, "NetworkAttachmentDefinition "+key+": "+err.Error())
		case rate != "":
			out.linkRates = append(out.linkRates, v1alpha1.AttachmentLinkRate{Namespace: ns, Name: name, Rate: rate})
		}
	}
	return out, nil
}

// unavailableResources names the extended resources no node offers in the count asked
// for, with the NetworkAttachmentDefinitions of fromAttachments that name each.
func (r *Reconciler) unavailableResources(ctx context.Context, wanted []v1alpha1.ExtendedResource, fromAttachments []v1alpha1.AttachmentResource) ([]string, error) {
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
		if offered {
			continue
		}
		if named := attachmentsNaming(fromAttachments, d.Name); len(named) > 0 {
			out = append(out, fmt.Sprintf("%s (%s per NodeManager, named by NetworkAttachmentDefinition %s)", d.Name, count, strings.Join(named, ", ")))
		} else {
			out = append(out, fmt.Sprintf("%s (%s per NodeManager)", d.Name, count))
		}
	}
	return out, nil
}

// attachmentsNaming are the keys of the NetworkAttachmentDefinitions that name resource.
func attachmentsNaming(found []v1alpha1.AttachmentResource, resource string) []string {
	var out []string
	for _, a := range found {
		if a.ResourceName == resource {
			out = append(out, a.Namespace+"/"+a.Name)
		}
	}
	return out
}

// networkSummary is NetworkReady's message when nothing is missing: the networks the
// pods join, the devices those bring, and the devices nodes offer.
func networkSummary(hostNetwork bool, attachments []string, resources []v1alpha1.AttachmentResource, devices []v1alpha1.ExtendedResource) string {
	var parts []string
	if hostNetwork {
		parts = append(parts, "NodeManagers use the node's network")
	}
	if len(attachments) > 0 {
		parts = append(parts, "NetworkAttachmentDefinitions exist: "+strings.Join(attachments, ", "))
	}
	if len(resources) > 0 {
		var names, brought []string
		for _, a := range resources {
			if !slices.Contains(names, a.ResourceName) {
				names = append(names, a.ResourceName)
				brought = append(brought, a.ResourceName+" ("+strings.Join(attachmentsNaming(resources, a.ResourceName), ", ")+")")
			}
		}
		parts = append(parts, "attachments bring devices, one per attachment to each pod that joins it: "+strings.Join(brought, ", "))
	}
	if len(devices) > 0 {
		names := make([]string, 0, len(devices))
		for _, d := range devices {
			names = append(names, d.Name)
		}
		parts = append(parts, "nodes offer "+strings.Join(names, ", "))
	}
	if len(parts) == 0 {
		return "no extra networks or devices requested"
	}
	return strings.Join(parts, "; ")
}
