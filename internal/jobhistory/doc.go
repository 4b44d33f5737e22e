// Package jobhistory reads MapReduce's job history files (.jhist), which the
// ApplicationMaster writes into the cluster's intermediate done directory whether a
// JobHistory server runs or not: where each map task's split was (the hosts the file
// system reported), where its attempts ran, and how local YARN says each was.
package jobhistory
