package hadoop

import (
	"slices"
	"strconv"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// CapacityScheduler is the content of capacity-scheduler.xml: the queues of
// spec.yarn.queues under root (one queue, default, with the whole cluster when there
// are none), and the queue access control lists of spec.access.yarn.
//
// Queue ACLs are inherited: whoever a queue's list admits, every queue below it
// admits too, and Hadoop's default for an unset list is everyone. So root admits
// nobody to submit and only the admins to administer, and each queue adds its
// submitters.
func CapacityScheduler(in Input) map[string]string {
	hc := in.Cluster
	out := map[string]string{
		"yarn.scheduler.capacity.maximum-applications": "10000",
		// Hadoop's 0.1 lets a cluster of a few NodeManagers run one job at a time: a
		// MapReduce ApplicationMaster alone takes more than a tenth of it, so a second
		// job would wait for the first even with room for its tasks.
		"yarn.scheduler.capacity.maximum-am-resource-percent": "0.5",
		"yarn.scheduler.capacity.resource-calculator":         "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator",
		"yarn.scheduler.capacity.node-locality-delay":         "40",

		"yarn.scheduler.capacity.root.acl_submit_applications": aclNobody,
		"yarn.scheduler.capacity.root.acl_administer_queue":    AdminACL(hc),
	}
	queues := Queues(hc)
	names := make([]string, 0, len(queues))
	for _, q := range queues {
		names = append(names, q.Name)
		prefix := "yarn.scheduler.capacity.root." + q.Name + "."
		out[prefix+"capacity"] = strconv.Itoa(int(q.Capacity))
		maxCapacity := int32(100)
		if q.MaximumCapacity != nil {
			maxCapacity = *q.MaximumCapacity
		}
		out[prefix+"maximum-capacity"] = strconv.Itoa(int(maxCapacity))
		out[prefix+"user-limit-factor"] = strconv.Itoa(int(userLimitFactor(q.Capacity, maxCapacity)))
		out[prefix+"state"] = "RUNNING"
		if q.State == v1alpha1.QueueStopped {
			out[prefix+"state"] = "STOPPED"
		}
		out[prefix+"acl_submit_applications"] = submitACL(hc, q)
		out[prefix+"acl_administer_queue"] = aclNobody
	}
	out["yarn.scheduler.capacity.root.queues"] = strings.Join(names, ",")
	return out
}

// Queues are the cluster's queues: spec.yarn.queues, or default with the whole
// cluster.
func Queues(hc *v1alpha1.HadoopCluster) []v1alpha1.Queue {
	if len(hc.Spec.YARN.Queues) > 0 {
		return hc.Spec.YARN.Queues
	}
	return []v1alpha1.Queue{{Name: DefaultQueue, Capacity: 100}}
}

// DefaultQueue is where applications that name no queue go.
const DefaultQueue = "default"

// submitACL is queue q's acl_submit_applications: its own submitters, else
// spec.access.yarn's, else everyone.
func submitACL(hc *v1alpha1.HadoopCluster, q v1alpha1.Queue) string {
	switch {
	case q.Submitters != nil:
		return aclValue(*q.Submitters)
	case hc.Spec.Access.YARN.Submitters != nil:
		return aclValue(*hc.Spec.Access.YARN.Submitters)
	}
	return "*"
}

// aclNobody is Hadoop's access control list that admits no one: a single space, no
// users before it and no groups after it.
const aclNobody = " "

// AdminACL is yarn.admin.acl and root's acl_administer_queue: the admins of
// spec.access.yarn and HadoopUser, which the benchmark stages submit as.
func AdminACL(hc *v1alpha1.HadoopCluster) string {
	admins := hc.Spec.Access.YARN.Admins
	if !slices.Contains(admins.Users, HadoopUser) {
		admins.Users = append([]string{HadoopUser}, admins.Users...)
	}
	return aclValue(admins)
}

// aclValue writes entries as Hadoop reads an access control list: users separated by
// commas, a space, groups separated by commas.
func aclValue(e v1alpha1.ACLEntries) string {
	return strings.Join(e.Users, ",") + " " + strings.Join(e.Groups, ",")
}

// userLimitFactor lets one user grow to the queue's maximum capacity. Hadoop's 1
// holds a user to the queue's capacity, and on a small cluster a queue of 20% then
// has room for a MapReduce ApplicationMaster and not one task: the job waits forever
// on an idle cluster.
func userLimitFactor(capacity, maxCapacity int32) int32 {
	return max(1, (maxCapacity+capacity-1)/capacity)
}
