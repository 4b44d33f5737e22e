package hadoop

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// How a NodeManager pod's memory is split. YARN containers are child processes of the
// NodeManager, so they share the pod's memory limit with the NodeManager's JVM and
// whatever else runs in the pod; exceeding it OOM-kills the whole pod.
const (
	mib = 1 << 20

	// nodeManagerHeapMiB is the NodeManager's own heap (HADOOP_HEAPSIZE_MAX).
	nodeManagerHeapMiB = 512
	// The system reserve covers the NodeManager JVM's memory outside its heap, its own
	// libcephfs mount (log aggregation), the page cache the shuffle relies on and
	// short-lived helper processes: 10% of the pod, at least 512 MiB.
	minSystemReserveMiB     = 512
	systemReservePercentage = 10

	// MinYARNMemoryMiB is the least a NodeManager must offer YARN: a MapReduce
	// ApplicationMaster (yarn.app.mapreduce.am.resource.mb, 1536) next to one task
	// (mapreduce.map.memory.mb, 1024), so that one NodeManager can run a job.
	MinYARNMemoryMiB = 1536 + 1024
	// MinNodeManagerMemoryMiB is the smallest pod that leaves MinYARNMemoryMiB after
	// the heap and the reserve.
	MinNodeManagerMemoryMiB = MinYARNMemoryMiB + nodeManagerHeapMiB + minSystemReserveMiB

	// Daemons other than the NodeManager get this share of their memory as heap.
	daemonHeapPercentage = 75
	// MinDaemonMemoryMiB is the least memory of a ResourceManager or JobHistory pod.
	MinDaemonMemoryMiB = 512
)

// NodeResources is what one NodeManager offers YARN.
type NodeResources struct {
	MemoryMiB int64
	VCores    int64
}

// NodeManagerResources derives what each NodeManager offers YARN from its pod's
// resources, or takes spec.yarn where set. Memory is the pod's memory minus the
// NodeManager heap and the system reserve, rounded down to YARN's allocation
// increment; vcores are the pod's whole CPUs, at least one. Both use the limit where
// one is set (what the pod may use), else the request.
func NodeManagerResources(spec v1alpha1.NodeManagerSpec) (NodeResources, *field.Error) {
	path := field.NewPath("spec", "nodeManagers")
	podMemory, ok := limitOrRequest(spec.Resources, corev1.ResourceMemory)
	if !ok {
		return NodeResources{}, field.Required(path.Child("resources"),
			fmt.Sprintf("a memory limit or request is needed: YARN's memory is derived from it, and the pod needs at least %dMi", MinNodeManagerMemoryMiB))
	}
	podMiB := podMemory.Value() / mib

	var nr NodeResources
	if spec.YARN != nil && spec.YARN.Memory != nil {
		nr.MemoryMiB = spec.YARN.Memory.Value() / mib
		if nr.MemoryMiB < MinYARNMemoryMiB {
			return NodeResources{}, field.Invalid(path.Child("yarn", "memory"), spec.YARN.Memory.String(),
				fmt.Sprintf("must be at least %dMi: a MapReduce ApplicationMaster (1536Mi) and one 1024Mi task", MinYARNMemoryMiB))
		}
		if headroom := podMiB - nr.MemoryMiB; headroom < nodeManagerHeapMiB+minSystemReserveMiB {
			return NodeResources{}, field.Invalid(path.Child("yarn", "memory"), spec.YARN.Memory.String(),
				fmt.Sprintf("does not fit in the pod's %s of memory: the NodeManager needs %dMi besides YARN's containers", podMemory.String(), nodeManagerHeapMiB+minSystemReserveMiB))
		}
	} else {
		reserve := max(minSystemReserveMiB, podMiB*systemReservePercentage/100)
		nr.MemoryMiB = (podMiB - nodeManagerHeapMiB - reserve) / allocationIncrementMiB * allocationIncrementMiB
		if nr.MemoryMiB < MinYARNMemoryMiB {
			return NodeResources{}, field.Invalid(path.Child("resources"), podMemory.String(),
				fmt.Sprintf("memory must be at least %dMi: the NodeManager keeps %dMi for its JVM and the system, and YARN needs %dMi to run a MapReduce ApplicationMaster (1536Mi) next to one 1024Mi task", MinNodeManagerMemoryMiB, nodeManagerHeapMiB+minSystemReserveMiB, MinYARNMemoryMiB))
		}
	}

	if spec.YARN != nil && spec.YARN.VCores != nil {
		nr.VCores = int64(*spec.YARN.VCores)
	} else if cpu, ok := limitOrRequest(spec.Resources, corev1.ResourceCPU); ok {
		nr.VCores = cpu.MilliValue() / 1000
	}
	nr.VCores = max(nr.VCores, 1)
	return nr, nil
}

// daemonHeap is HADOOP_HEAPSIZE_MAX for a ResourceManager or JobHistory server, or ""
// when its pod sets no memory and the JVM's own default applies.
func daemonHeap(r corev1.ResourceRequirements) string {
	m, ok := limitOrRequest(r, corev1.ResourceMemory)
	if !ok {
		return ""
	}
	return fmt.Sprintf("%dm", m.Value()/mib*daemonHeapPercentage/100)
}

// validateDaemonMemory refuses a ResourceManager or JobHistory pod too small for its
// JVM.
func validateDaemonMemory(path *field.Path, r corev1.ResourceRequirements) *field.Error {
	m, ok := limitOrRequest(r, corev1.ResourceMemory)
	if ok && m.Value() < MinDaemonMemoryMiB*mib {
		return field.Invalid(path, m.String(), fmt.Sprintf("memory must be at least %dMi for the daemon's JVM", MinDaemonMemoryMiB))
	}
	return nil
}

// limitOrRequest is the limit of name if set, else its request.
func limitOrRequest(r corev1.ResourceRequirements, name corev1.ResourceName) (resource.Quantity, bool) {
	if q, ok := r.Limits[name]; ok {
		return q, true
	}
	q, ok := r.Requests[name]
	return q, ok
}
