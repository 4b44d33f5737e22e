//go:build imagetest

package images

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// assembledPaths are what assemble.sh makes in a root file system.
var assembledPaths = []string{"opt", "var/log/hadoop", "var/lib/hadoop-yarn", "etc/ceph", "home/hadoop"}

func assembleSpecs() {
	// In the Debian base, on its whole root file system, rather than into a layer of
	// its own as build.sh runs it: both must give the same files.
	Describe("assemble.sh as images/hadoop/Dockerfile runs it", func() {
		It("gives the same files, owners, modes and links as the image", func(ctx SpecContext) {
			bundle := filepath.Join(work, "dockerfile-bundle")
			DeferCleanup(os.RemoveAll, bundle)
			layouts, err := filepath.Glob(filepath.Join(imagesOut, "hadoop", "base-*", "layout"))
			Expect(err).NotTo(HaveOccurred())
			Expect(layouts).To(HaveLen(1), "the Debian bases hack/images/build.sh keeps in %s/hadoop", imagesOut)
			onHost(ctx, "umoci", "unpack", "--image", layouts[0]+":base", bundle)

			dockerfile := filepath.Join(bundle, "rootfs")
			stage := filepath.Join(dockerfile, "tmp", "stage")
			Expect(os.MkdirAll(stage, 0o755)).To(Succeed())
			onHost(ctx, "cp", "-R", filepath.Join(repoRoot, "images/hadoop/root"), filepath.Join(stage, "root"))
			onHost(ctx, "cp", "-al", filepath.Join(imagesOut, "hadoop/jars"), filepath.Join(stage, "jars"))
			onHost(ctx, "cp", "-al", filepath.Join(imagesOut, "hadoop/connector"), filepath.Join(stage, "connector"))
			onHost(ctx, "cp", "-al", filepath.Join(imagesOut, "hadoop/spark-jars"), filepath.Join(stage, "spark-jars"))
			onHost(ctx, "cp", filepath.Join(repoRoot, "internal/benchmark/runner/run-benchmark"),
				filepath.Join(repoRoot, "images/hadoop/assemble.sh"), stage)
			assemble := exec.CommandContext(ctx, "/tmp/stage/assemble.sh", "/tmp/stage", "/")
			assemble.Dir = "/"
			assemble.SysProcAttr = &syscall.SysProcAttr{Chroot: dockerfile}
			out, err := assemble.CombinedOutput()
			Expect(err).NotTo(HaveOccurred(), "assemble.sh in the Debian base:\n%s", out)
			Expect(os.RemoveAll(stage)).To(Succeed())

			assembled, err := listTree(dockerfile, assembledPaths)
			Expect(err).NotTo(HaveOccurred())
			built, err := listTree(img.root, assembledPaths)
			Expect(err).NotTo(HaveOccurred())
			Expect(missingFrom(built, assembled)).To(BeEmpty(), "the Dockerfile's way has these (path, mode, owner, group, type, link), the image not")
			Expect(missingFrom(assembled, built)).To(BeEmpty(), "the image has these (path, mode, owner, group, type, link), the Dockerfile's way not")
			differing, err := differingFiles(dockerfile, img.root, "opt")
			Expect(err).NotTo(HaveOccurred())
			Expect(differing).To(BeEmpty(), "files whose contents differ")
			for _, f := range []string{"etc/passwd", "etc/group"} {
				same, err := sameContents(filepath.Join(dockerfile, f), filepath.Join(img.root, f))
				Expect(err).NotTo(HaveOccurred())
				Expect(same).To(BeTrue(), "/%s differs", f)
			}
		})
	})
}

// onHost runs a command on this machine, which must succeed.
func onHost(ctx context.Context, name string, args ...string) {
	GinkgoHelper()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	Expect(err).NotTo(HaveOccurred(), "%s %s:\n%s", name, strings.Join(args, " "), out)
}
