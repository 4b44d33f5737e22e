package controllers

import (
	"context"
	"fmt"
	"slices"
	"strings"

	cephv1 "github.com/rook/rook/pkg/apis/ceph.rook.io/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// attachmentKey is <namespace>/<name> of an attachment, in the cluster's namespace
// when it names none.
func attachmentKey(a v1alpha1.NetworkAttachment, clusterNamespace string) string {
	ns := a.Namespace
	if ns == "" {
		ns = clusterNamespace
	}
	return ns + "/" + a.Name
}

// reconcileNetwork checks that the pods can get the networks and devices they ask
// for: every NetworkAttachmentDefinition they join exists, and some node offers each
// extended resource. Missing ones do not stop the cluster from being applied (its pods
// start once they appear), but NetworkReady names them. With Rook's public network on
// Multus it also sets storage.PublicNetwork, which every Hadoop pod must join.
func (r *HadoopClusterReconciler) reconcileNetwork(ctx context.Context, p *clusterPass, storage *hadoop.Storage) error {
	hc := p.hc
	spec := hc.Spec.Network
	var problems []unmet

	keys := make([]string, 0, len(spec.Attachments)+1)
	for _, a := range spec.Attachments {
		keys = append(keys, attachmentKey(a, hc.Namespace))
	}
	if storage != nil && storage.RookNamespace != "" && r.rookServed {
		public, problem, err := r.publicNetwork(ctx, storage.RookNamespace)
		if err != nil {
			return p.failed(v1alpha1.ConditionNetworkReady, err)
		}
		if problem != nil {
			problems = append(problems, *problem)
		}
		if public != nil {
			storage.PublicNetwork = public
			if key := attachmentKey(*public, hc.Namespace); !slices.Contains(keys, key) {
				keys = append(keys, key)
			}
		}
	}

	missing, err := r.missingAttachments(ctx, keys)
	if err != nil {
		return p.failed(v1alpha1.ConditionNetworkReady, err)
	}
	if len(missing) > 0 {
		message := "no NetworkAttachmentDefinition " + strings.Join(missing, ", ") + ": the pods cannot join these networks until they are created (or removed from spec.network.attachments)"
		if !r.attachmentsServed {
			message = "the API server does not serve NetworkAttachmentDefinitions (k8s.cni.cncf.io/v1), so Multus cannot attach " +
				strings.Join(missing, ", ") + ": install Multus (the operator notices within 30 seconds and restarts to watch it), or remove spec.network.attachments"
		}
		problems = append(problems, unmet{v1alpha1.ReasonNetworkAttachmentNotFound, message})
	}

	unavailable, err := r.unavailableResources(ctx, spec.ExtendedResources)
	if err != nil {
		return p.failed(v1alpha1.ConditionNetworkReady, err)
	}
	if len(unavailable) > 0 {
		problems = append(problems, unmet{v1alpha1.ReasonExtendedResourceUnavailable,
			"no node offers " + strings.Join(unavailable, ", ") + ", so NodeManagers cannot be scheduled: install the device plugin, or remove it from spec.network.extendedResources"})
	}

	if len(problems) > 0 {
		messages := make([]string, 0, len(problems))
		for _, u := range problems {
			messages = append(messages, u.message)
		}
		p.notReady(v1alpha1.ConditionNetworkReady, problems[0].reason, strings.Join(messages, "; "))
		return nil
	}
	p.ready(v1alpha1.ConditionNetworkReady, networkSummary(spec, keys))
	return nil
}

// publicNetwork is the Multus network of Ceph's public traffic, from the CephCluster
// of the Rook namespace, or nil when Rook does not put it on Multus. A selector Rook
// itself could not use is a problem to report.
func (r *HadoopClusterReconciler) publicNetwork(ctx context.Context, rookNamespace string) (*v1alpha1.NetworkAttachment, *unmet, error) {
	clusters := &cephv1.CephClusterList{}
	if err := r.List(ctx, clusters, client.InNamespace(rookNamespace)); err != nil {
		return nil, nil, fmt.Errorf("listing CephClusters in namespace %s: %w", rookNamespace, err)
	}
	if len(clusters.Items) == 0 {
		return nil, nil, nil
	}
	// Rook runs one CephCluster per namespace; the first by name is deterministic
	// should there be more.
	cc := slices.MinFunc(clusters.Items, func(a, b cephv1.CephCluster) int { return strings.Compare(a.Name, b.Name) })
	if !cc.Spec.Network.IsMultus() {
		return nil, nil, nil
	}
	selection, err := cc.Spec.Network.GetNetworkSelection(rookNamespace, cephv1.CephNetworkPublic)
	if err != nil {
		return nil, &unmet{v1alpha1.ReasonNetworkAttachmentNotFound,
			fmt.Sprintf("the public network of CephCluster %s/%s cannot be read: %v", rookNamespace, cc.Name, err)}, nil
	}
	if selection == nil {
		return nil, nil, nil
	}
	return &v1alpha1.NetworkAttachment{Name: selection.Name, Namespace: selection.Namespace}, nil, nil
}

// missingAttachments returns the keys of the NetworkAttachmentDefinitions that do not
// exist; all of them when the API is not served.
func (r *HadoopClusterReconciler) missingAttachments(ctx context.Context, keys []string) ([]string, error) {
	if !r.attachmentsServed {
		return keys, nil
	}
	var missing []string
	for _, key := range keys {
		ns, name, _ := strings.Cut(key, "/")
		nad := &metav1.PartialObjectMetadata{}
		nad.SetGroupVersionKind(networkAttachmentGVK)
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
func (r *HadoopClusterReconciler) unavailableResources(ctx context.Context, wanted []v1alpha1.ExtendedResource) ([]string, error) {
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
