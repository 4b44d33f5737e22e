// Package images tests the Hadoop image the way the operator runs it, on the local
// Ceph of hack/ceph (`make test-image`, as root): the image's root file system, unpacked
// from the archive hack/images/build.sh wrote, read-only; the commands run as uid 1000
// with the image's environment; /etc/ceph, /tmp, /var/log/hadoop and
// /var/lib/hadoop-yarn mounted; and the configuration files the operator renders
// (internal/hadoop/testdata/external-hostnetwork, pointed at this Ceph and at
// 127.0.0.1) mounted over the image's. It checks that assemble.sh run the Dockerfile's
// way gives the same files, the image contract, CephFS through the connector, an HDFS of
// one NameNode and one DataNode, the ResourceManager, a NodeManager and the JobHistory
// server in the foreground, TeraGen, TeraSort and TeraValidate through the benchmark
// runner on that YARN, and stop-nodemanager with a task running.
//
// The checks build only with the imagetest tag, so that `go test ./...` stays fast and
// needs neither root nor Ceph; what they compute (the rendered configuration, the class
// path's artifacts, paths in the image, file trees) is in this package's untagged files,
// whose unit tests `go test ./...` runs.
//
// TestHadoopImage builds the image if needed, starts the local Ceph if it is not
// running and stops it again afterwards (HCO_KEEP_CEPH=1 leaves it running), and
// prepares a work directory (removed at the end unless HCO_KEEP_TEST_WORK=1) with the
// unpacked image, Ceph's client files and the rendered configuration. It then runs its
// own binary again in a private mount namespace, where the Ginkgo specs mount the
// volumes and run the daemons: a mount namespace is a process's, and the Go runtime's
// threads make unsharing one inside the test process unreliable. Ginkgo's flags given in
// their -ginkgo.name=value form pass on to that run. The test uses the contract's ports
// (8030-8033, 8088, 8040-8042, 13562, 10020, 10033, 19888) and HDFS's (8020, 9870, 9864,
// 9866, 9867) on this machine, and fails at once when one is taken.
package images
