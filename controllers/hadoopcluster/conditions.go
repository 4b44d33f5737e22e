package hadoopcluster

import (
	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// componentConditions pairs each Hadoop component with the condition that reports it:
// the one place that maps between the two.
var componentConditions = []struct {
	component hadoop.Component
	condition string
}{
	{hadoop.ResourceManager, v1alpha1.ConditionResourceManagerReady},
	{hadoop.NodeManager, v1alpha1.ConditionNodeManagersReady},
	{hadoop.JobHistory, v1alpha1.ConditionJobHistoryReady},
}

// conditionFor is the condition that reports component c, and false for none.
func conditionFor(c hadoop.Component) (string, bool) {
	for _, cc := range componentConditions {
		if cc.component == c {
			return cc.condition, true
		}
	}
	return "", false
}

// componentFor is the component that conditionType reports, and false for a condition
// of the whole cluster.
func componentFor(conditionType string) (hadoop.Component, bool) {
	for _, cc := range componentConditions {
		if cc.condition == conditionType {
			return cc.component, true
		}
	}
	return "", false
}
