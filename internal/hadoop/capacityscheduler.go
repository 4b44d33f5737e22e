package hadoop

import (
	"slices"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// CapacityScheduler is the content of capacity-scheduler.xml: one queue, default, with
// the whole cluster, and the queue access control lists of spec.access.yarn.
//
// Queue ACLs are inherited: whoever a queue's list admits, every queue below it
// admits too, and Hadoop's default for an unset list is everyone. So root admits
// nobody to submit and only the admins to administer, and the default queue adds
// the submitters.
func CapacityScheduler(in Input) map[string]string {
	yarn := in.Cluster.Spec.Access.YARN
	submitters := "*"
	if yarn.Submitters != nil {
		submitters = aclValue(*yarn.Submitters)
	}
	return map[string]string{
		"yarn.scheduler.capacity.maximum-applications": "10000",
		// Hadoop's 0.1 lets a cluster of a few NodeManagers run one job at a time: a
		// MapReduce ApplicationMaster alone takes more than a tenth of it, so a second
		// job would wait for the first even with room for its tasks.
		"yarn.scheduler.capacity.maximum-am-resource-percent": "0.5",
		"yarn.scheduler.capacity.resource-calculator":         "org.apache.hadoop.yarn.util.resource.DefaultResourceCalculator",
		"yarn.scheduler.capacity.node-locality-delay":         "40",

		"yarn.scheduler.capacity.root.queues":                          "default",
		"yarn.scheduler.capacity.root.acl_submit_applications":         aclNobody,
		"yarn.scheduler.capacity.root.acl_administer_queue":            AdminACL(in.Cluster),
		"yarn.scheduler.capacity.root.default.capacity":                "100",
		"yarn.scheduler.capacity.root.default.maximum-capacity":        "100",
		"yarn.scheduler.capacity.root.default.user-limit-factor":       "1",
		"yarn.scheduler.capacity.root.default.state":                   "RUNNING",
		"yarn.scheduler.capacity.root.default.acl_submit_applications": submitters,
		"yarn.scheduler.capacity.root.default.acl_administer_queue":    aclNobody,
	}
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
