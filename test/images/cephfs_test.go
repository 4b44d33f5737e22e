//go:build imagetest

package images

import (
	"path"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

func cephFSSpecs() {
	Describe("CephFS through the connector", func() {
		// Like a StorageBackend's root, the parent of the test roots is the
		// administrator's to make and hand over; the image's own hadoop command does it
		// as root. It may be there already.
		BeforeAll(func(ctx SpecContext) {
			parent := "/" + path.Dir(testRoot)
			asRoot := inImage.as(rootUser)
			for _, args := range [][]string{{"-mkdir", "-p", parent}, {"-chmod", "1777", parent}} {
				res := asRoot.run(ctx, append([]string{"hadoop", "fs", "-D", "ceph.root.dir=/"}, args...)...)
				if res.err != nil {
					GinkgoWriter.Printf("preparing %s: %s\n", parent, res)
				}
			}
		})

		It("hadoop fs -mkdir of the test root "+testRoot, func(ctx SpecContext) {
			succeeded(inImage.run(ctx, "hadoop", "fs", "-D", "ceph.root.dir=/", "-mkdir", "-p", "/"+testRoot))
		})
		It("hadoop fs -ls ceph:///", func(ctx SpecContext) {
			res := inImage.run(ctx, "hadoop", "fs", "-ls", "ceph:///")
			save("ls.out", res.stdout)
			save("ls.err", res.stderr)
			succeeded(res)
		})
		It("hadoop fs -put", func(ctx SpecContext) {
			res := inImage.run(ctx, "hadoop", "fs", "-put", "-f", "/tmp/hello.txt", "/hello.txt")
			save("put.err", res.stderr)
			succeeded(res)
		})
		It("hadoop fs -cat prints the file and nothing else (no JNI banner)", func(ctx SpecContext) {
			res := inImage.run(ctx, "hadoop", "fs", "-cat", "/hello.txt")
			save("cat.out", res.stdout)
			save("cat.err", res.stderr)
			Expect(string(res.stdout)).To(Equal(hello), "%s", res)
		})
	})
}
