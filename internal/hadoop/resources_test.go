package hadoop

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

func resources(limits, requests map[corev1.ResourceName]string) corev1.ResourceRequirements {
	r := corev1.ResourceRequirements{}
	for name, q := range limits {
		if r.Limits == nil {
			r.Limits = corev1.ResourceList{}
		}
		r.Limits[name] = resource.MustParse(q)
	}
	for name, q := range requests {
		if r.Requests == nil {
			r.Requests = corev1.ResourceList{}
		}
		r.Requests[name] = resource.MustParse(q)
	}
	return r
}

func TestNodeManagerResources(t *testing.T) {
	mem, cpu := corev1.ResourceMemory, corev1.ResourceCPU
	for _, tc := range []struct {
		name    string
		spec    v1alpha1.NodeManagerSpec
		want    NodeResources
		wantErr string
	}{
		{
			name: "the API's default: 4Gi, 2 CPUs requested",
			spec: v1alpha1.NodeManagerSpec{Resources: resources(
				map[corev1.ResourceName]string{mem: "4Gi"}, map[corev1.ResourceName]string{cpu: "2", mem: "4Gi"})},
			// 4096 - 512 heap - 512 reserve
			want: NodeResources{MemoryMiB: 3072, VCores: 2},
		},
		{
			name: "the smallest pod",
			spec: v1alpha1.NodeManagerSpec{Resources: resources(map[corev1.ResourceName]string{mem: "3584Mi"}, nil)},
			want: NodeResources{MemoryMiB: 2560, VCores: 1},
		},
		{
			name:    "one MiB less",
			spec:    v1alpha1.NodeManagerSpec{Resources: resources(map[corev1.ResourceName]string{mem: "3583Mi"}, nil)},
			wantErr: "spec.nodeManagers.resources: Invalid value: \"3583Mi\": memory must be at least 3584Mi",
		},
		{
			name: "a large pod reserves 10% and rounds down to 512 MiB",
			spec: v1alpha1.NodeManagerSpec{Resources: resources(map[corev1.ResourceName]string{mem: "64Gi", cpu: "16"}, nil)},
			// 65536 - 512 - 6553 = 58471, rounded down
			want: NodeResources{MemoryMiB: 58368, VCores: 16},
		},
		{
			name: "the limit wins over the request",
			spec: v1alpha1.NodeManagerSpec{Resources: resources(
				map[corev1.ResourceName]string{mem: "8Gi", cpu: "4"}, map[corev1.ResourceName]string{mem: "6Gi", cpu: "2"})},
			// 8192 - 512 - 819 = 6861 -> 6656
			want: NodeResources{MemoryMiB: 6656, VCores: 4},
		},
		{
			name: "the request when there is no limit",
			spec: v1alpha1.NodeManagerSpec{Resources: resources(nil, map[corev1.ResourceName]string{mem: "6Gi", cpu: "2500m"})},
			// 6144 - 512 - 614 = 5018 -> 4608; whole CPUs only
			want: NodeResources{MemoryMiB: 4608, VCores: 2},
		},
		{
			name: "less than a CPU still offers one vcore",
			spec: v1alpha1.NodeManagerSpec{Resources: resources(nil, map[corev1.ResourceName]string{mem: "4Gi", cpu: "500m"})},
			want: NodeResources{MemoryMiB: 3072, VCores: 1},
		},
		{
			name:    "no memory",
			spec:    v1alpha1.NodeManagerSpec{Resources: resources(nil, map[corev1.ResourceName]string{cpu: "2"})},
			wantErr: "spec.nodeManagers.resources: Required value: a memory limit or request is needed",
		},
		{
			name: "explicit YARN sizes",
			spec: v1alpha1.NodeManagerSpec{
				Resources: resources(map[corev1.ResourceName]string{mem: "16Gi"}, map[corev1.ResourceName]string{cpu: "4"}),
				YARN:      &v1alpha1.YARNResources{Memory: ptr.To(resource.MustParse("15Gi")), VCores: ptr.To[int32](8)},
			},
			want: NodeResources{MemoryMiB: 15360, VCores: 8},
		},
		{
			name: "explicit YARN memory without room for the NodeManager",
			spec: v1alpha1.NodeManagerSpec{
				Resources: resources(map[corev1.ResourceName]string{mem: "16Gi"}, nil),
				YARN:      &v1alpha1.YARNResources{Memory: ptr.To(resource.MustParse("15361Mi"))},
			},
			wantErr: "spec.nodeManagers.yarn.memory: Invalid value: \"15361Mi\": does not fit in the pod's 16Gi of memory: the NodeManager needs 1024Mi",
		},
		{
			name: "explicit YARN memory below the minimum",
			spec: v1alpha1.NodeManagerSpec{
				Resources: resources(map[corev1.ResourceName]string{mem: "16Gi"}, nil),
				YARN:      &v1alpha1.YARNResources{Memory: ptr.To(resource.MustParse("2Gi"))},
			},
			wantErr: "spec.nodeManagers.yarn.memory: Invalid value: \"2Gi\": must be at least 2560Mi",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := NodeManagerResources(tc.spec)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one starting with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestDaemonHeap(t *testing.T) {
	for _, tc := range []struct {
		r    corev1.ResourceRequirements
		want string
	}{
		{resources(map[corev1.ResourceName]string{corev1.ResourceMemory: "1Gi"}, nil), "768m"},
		{resources(nil, map[corev1.ResourceName]string{corev1.ResourceMemory: "2G"}), "1430m"},
		{resources(nil, map[corev1.ResourceName]string{corev1.ResourceCPU: "1"}), ""},
	} {
		if got := daemonHeap(tc.r); got != tc.want {
			t.Errorf("daemonHeap(%v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
