// Package jobhistory reads MapReduce's job history files (.jhist), which the
// ApplicationMaster writes into the cluster's intermediate done directory whether a
// JobHistory server runs or not, in Avro's binary encoding (Hadoop 3's default) or its
// JSON one: where each map task's split was (the hosts the job client kept of those
// the file system reported), where its attempts ran, and how local YARN says each
// was.
package jobhistory
