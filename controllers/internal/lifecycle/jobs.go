package lifecycle

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// JobCondition is the Job's condition of type t when it is True, else nil.
func JobCondition(job *batchv1.Job, t batchv1.JobConditionType) *batchv1.JobCondition {
	for i, c := range job.Status.Conditions {
		if c.Type == t && c.Status == corev1.ConditionTrue {
			return &job.Status.Conditions[i]
		}
	}
	return nil
}

// JobFinished reports whether the Job completed or failed.
func JobFinished(job *batchv1.Job) bool {
	return JobCondition(job, batchv1.JobComplete) != nil || JobCondition(job, batchv1.JobFailed) != nil
}
