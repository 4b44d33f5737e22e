//go:build imagetest

package images

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// yarnDaemonSpecs start the ResourceManager, a NodeManager and the JobHistory server
// as the operator's pods do, with the image's entry points in the foreground.
func yarnDaemonSpecs() {
	Describe("daemons", func() {
		It("ResourceManager serves /ws/v1/cluster/info on 8088", func(ctx SpecContext) {
			inImage.start("resourcemanager", "/opt/hadoop-ceph/bin/start-resourcemanager")
			Expect(serves(ctx, "resourcemanager", 8088, "/ws/v1/cluster/info")).To(Succeed())
		})
		It("ResourceManager logs to standard output", logged("resourcemanager", "ResourceManager"))
		It("NodeManager serves /ws/v1/node/info on 8042", func(ctx SpecContext) {
			inImage.with("HADOOP_DATA_INTERFACE=lo").start("nodemanager", "/opt/hadoop-ceph/bin/start-nodemanager")
			Expect(serves(ctx, "nodemanager", 8042, "/ws/v1/node/info")).To(Succeed())
		})
		It("start-nodemanager advertises the data interface's address", logged("nodemanager", "advertising 127.0.0.1 of lo"))
		It("JobHistory server serves /ws/v1/history/info on 19888", func(ctx SpecContext) {
			inImage.start("jobhistory", "/opt/hadoop-ceph/bin/start-jobhistory")
			Expect(serves(ctx, "jobhistory", 19888, "/ws/v1/history/info")).To(Succeed())
		})
		It("yarn node -list shows the NodeManager RUNNING", func(ctx SpecContext) {
			var res result
			registered := tries(ctx, 60, time.Second, func() bool {
				res = inImage.limit(30*time.Second).run(ctx, "yarn", "node", "-list")
				return strings.Contains(string(res.stdout), "RUNNING")
			})
			Expect(registered).To(BeTrue(), "the last list: %s\n%s", res.stdout, res)
		})
	})
}

func stoppingSpecs() {
	Describe("stopping", func() {
		It("ResourceManager stops on SIGTERM", func(ctx SpecContext) {
			Expect(stopped(ctx, "resourcemanager", time.Minute)).To(Succeed())
		})
		It("JobHistory server stops on SIGTERM", func(ctx SpecContext) {
			Expect(stopped(ctx, "jobhistory", time.Minute)).To(Succeed())
		})
	})
}
