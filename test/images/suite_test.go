//go:build imagetest

package images

import (
	"os"
	"path/filepath"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/repo"
)

// What the outside prepared, for the specs.
var (
	repoRoot string
	// work is the work directory: the unpacked image in bundle/, the volumes in
	// volumes/, the rendered configuration in conf/, and the daemons' logs.
	work string
	// testRoot is the run's directory on CephFS, without its leading slash.
	testRoot string
	// imagesOut is the images' cache of hack/images, with the Debian base, the jars and
	// the connector of the Hadoop image.
	imagesOut string
	img       *image
	// inImage runs commands in the image as the hadoop user.
	inImage runner
)

// hello is the file the clients put on CephFS and HDFS and read back.
const hello = "line one\nline two\n"

func TestHadoopImage(t *testing.T) {
	if work = os.Getenv(workEnv); work == "" {
		runOutside(t)
		return
	}
	testRoot, imagesOut = os.Getenv(testRootEnv), os.Getenv(imagesEnv)
	var err error
	if repoRoot, err = repo.Root(); err != nil {
		t.Fatal(err)
	}
	if img, err = loadImage(filepath.Join(work, "bundle")); err != nil {
		t.Fatal(err)
	}
	inImage = newRunner(img)
	RegisterFailHandler(Fail)
	RunSpecs(t, "Hadoop image", Label("image"))
}

// Each check is a spec. They run in this order, since later ones use the daemons
// earlier ones start (HDFS's, then YARN's, MapReduce on YARN, stopping them), and one
// that fails does not stop the others.
var _ = Describe("The Hadoop image", Ordered, ContinueOnFailure, func() {
	assembleSpecs()

	Describe("as the operator runs it", func() {
		BeforeAll(func() {
			Expect(mountVolumes(img.root, work)).To(Succeed())
			Expect(os.WriteFile(filepath.Join(work, "volumes", "tmp", "hello.txt"), []byte(hello), 0o644)).To(Succeed())
			DeferCleanup(stopDaemons)
		})
		AfterAll(func(ctx SpecContext) {
			res := inImage.run(ctx, "hadoop", "fs", "-D", "ceph.root.dir=/", "-rm", "-r", "-f", "-skipTrash", "/"+testRoot)
			if res.err != nil {
				GinkgoWriter.Printf("removing the test root: %s\n", res)
			}
		})

		contractSpecs()
		cephFSSpecs()
		hdfsSpecs()
		yarnDaemonSpecs()
		mapReduceSpecs()
		sparkSpecs()
		stopNodeManagerSpecs()
		stoppingSpecs()
	})
})
