package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

const (
	backendName = "cephfs"
	clusterName = "bench"
	// filesystemName is the CephFilesystem the backend makes in Rook's namespace,
	// beside those of other users of the local Rook.
	filesystemName = "bench-network"
)

// newBackend is a replicated CephFS of the local Rook, size 2 across hosts, so that
// every byte written crosses the data network at least once, to its second copy.
// The benchmark's data is worth nothing after it: preserveOnDelete false lets the
// namespace's deletion take the file system and its pools with it.
func newBackend() *v1alpha1.StorageBackend {
	return &v1alpha1.StorageBackend{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: backendName},
		Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{Rook: &v1alpha1.RookCephFS{
			Namespace:      rookNamespace,
			FilesystemName: filesystemName,
			MetadataPool:   v1alpha1.ReplicatedPool{Size: 3},
			DataPool:       v1alpha1.DataPool{Replicated: &v1alpha1.ReplicatedPool{Size: 2}},
			FailureDomain:  "host",
			// One MDS: a standby would take memory and CPU from the nodes and serve
			// nothing here.
			MetadataServer:   v1alpha1.MetadataServer{ActiveCount: 1, ActiveStandby: ptr.To(false)},
			PreserveOnDelete: ptr.To(false),
		}}},
	}
}

// newCluster is a HadoopCluster with a NodeManager on every node, on the pod network.
// Its data interface is net1 and it has no attachments of its own, so net1 is the
// first Multus interface of its pods: Rook's public network, which the operator joins
// them to. Its runs record that network, and the rate its annotation gives, in
// status.setup.network.
//
// Ingest runs in the stage's client pods and not in YARN, so the NodeManagers only need
// to be there: the least the operator takes (1 GiB for the JVM and YARN's room for an
// ApplicationMaster and a task), the size of the e2e suite's clusters of three
// NodeManagers, which leaves a worker's 7.75 GiB room for the clients.
//
// The placement's spread constraint has no label selector, so it spreads the pods of
// each role by themselves: the NodeManagers one to a node, and the ingest clients,
// which are the role "client" (internal/hadoop ClientPodTemplateSpec), as evenly as the
// nodes go. The scheduler counts only pods that are not done, so the finished clients
// of earlier runs do not count.
func newCluster() *v1alpha1.HadoopCluster {
	resources := func(cpu, memory string) corev1.ResourceRequirements {
		return corev1.ResourceRequirements{
			Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory)},
			Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse(memory)},
		}
	}
	return &v1alpha1.HadoopCluster{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: clusterName},
		Spec: v1alpha1.HadoopClusterSpec{
			StorageBackendRef: v1alpha1.LocalObjectReference{Name: backendName},
			ImagePullPolicy:   corev1.PullIfNotPresent,
			ResourceManager:   v1alpha1.ResourceManagerSpec{Resources: resources("100m", "1Gi")},
			NodeManagers: v1alpha1.NodeManagerSpec{
				Replicas:  ptr.To[int32](clusterNodes),
				Resources: resources("250m", "3584Mi"),
				YARN:      &v1alpha1.YARNResources{VCores: ptr.To[int32](2)},
			},
			// Nothing here runs MapReduce jobs whose history would be read.
			JobHistory: v1alpha1.JobHistorySpec{Enabled: ptr.To(false)},
			Network:    v1alpha1.NetworkSpec{DataInterface: "net1"},
			Placement: v1alpha1.Placement{TopologySpreadConstraints: []v1alpha1.TopologySpreadConstraint{{
				MaxSkew:           1,
				TopologyKey:       corev1.LabelHostname,
				WhenUnsatisfiable: corev1.DoNotSchedule,
			}}},
		},
	}
}

// setUp makes the namespace again with the backend and the cluster, and waits until
// both are Ready with every NodeManager.
func setUp(ctx context.Context, c client.Client, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := deleteNamespace(ctx, c); err != nil {
		return err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
	for _, obj := range []client.Object{ns, newBackend(), newCluster()} {
		if err := c.Create(ctx, obj); err != nil {
			return fmt.Errorf("creating %s %s: %w", obj.GetObjectKind().GroupVersionKind().Kind, obj.GetName(), err)
		}
	}
	err := waitFor(ctx, "StorageBackend "+backendName, func(ctx context.Context) (bool, string, error) {
		sb := &v1alpha1.StorageBackend{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: backendName}, sb); err != nil {
			return false, "", err
		}
		return readyState(sb.Status.Conditions)
	})
	if err != nil {
		return err
	}
	return waitFor(ctx, "HadoopCluster "+clusterName, func(ctx context.Context) (bool, string, error) {
		hc := &v1alpha1.HadoopCluster{}
		if err := c.Get(ctx, client.ObjectKey{Namespace: namespace, Name: clusterName}, hc); err != nil {
			return false, "", err
		}
		ready, state, err := readyState(hc.Status.Conditions)
		return ready && hc.Status.ReadyNodeManagers == clusterNodes, fmt.Sprintf("%s, %d of %d NodeManagers ready", state, hc.Status.ReadyNodeManagers, clusterNodes), err
	})
}

// readyState is whether the Ready condition is True, and the condition as a line.
func readyState(conditions []metav1.Condition) (bool, string, error) {
	cond := meta.FindStatusCondition(conditions, v1alpha1.ConditionReady)
	if cond == nil {
		return false, "no Ready condition yet", nil
	}
	return cond.Status == metav1.ConditionTrue, fmt.Sprintf("Ready %s, %s: %s", cond.Status, cond.Reason, cond.Message), nil
}

// deleteNamespace deletes the benchmark's namespace and waits until it is gone: the
// StorageBackend's finalizer removes the CephFilesystem first.
func deleteNamespace(ctx context.Context, c client.Client) error {
	// The StorageBackend goes first, while its namespace takes new objects: with
	// preserveOnDelete false it empties Hadoop's root with a Job in that namespace before
	// Rook may remove the file system, which a terminating namespace refuses, and the
	// HadoopCluster before it, which holds it.
	for _, obj := range []client.Object{
		&v1alpha1.HadoopCluster{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: clusterName}},
		&v1alpha1.StorageBackend{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: backendName}},
	} {
		if err := deleteAndWait(ctx, c, obj); err != nil {
			return err
		}
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
	if err := c.Delete(ctx, ns); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return err
	}
	return waitFor(ctx, "namespace "+namespace+" to be deleted", func(ctx context.Context) (bool, string, error) {
		err := c.Get(ctx, client.ObjectKey{Name: namespace}, ns)
		if apierrors.IsNotFound(err) {
			return true, "", nil
		}
		return false, string(ns.Status.Phase), err
	})
}

// waitFor polls done every two seconds until it is true, printing its state whenever
// that changes.
func waitFor(ctx context.Context, what string, done func(context.Context) (bool, string, error)) error {
	var last string
	for {
		ok, state, err := done(ctx)
		if err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("waiting for %s: %w", what, err)
		}
		if ok {
			return nil
		}
		if state != last && state != "" {
			fmt.Printf("    %s: %s\n", what, state)
			last = state
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s (last: %s): %w", what, last, ctx.Err())
		case <-time.After(2 * time.Second):
		}
	}
}

// deleteAndWait deletes obj and waits until it is gone.
func deleteAndWait(ctx context.Context, c client.Client, obj client.Object) error {
	what := fmt.Sprintf("%T %s to be deleted", obj, obj.GetName())
	if err := c.Delete(ctx, obj); err != nil {
		return client.IgnoreNotFound(err)
	}
	return waitFor(ctx, what, func(ctx context.Context) (bool, string, error) {
		err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj)
		if apierrors.IsNotFound(err) {
			return true, "", nil
		}
		return false, "deleting", err
	})
}
