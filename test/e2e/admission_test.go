//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// admissionSpecs apply each manifest of testdata/invalid with kubectl, as a user
// would, and expect the API server to refuse it with the message its header names:
// "# field:" the field path and "# expect:" the text. The server-side dry run
// changes nothing when a manifest is wrongly accepted.
func admissionSpecs() {
	files, err := filepath.Glob(filepath.Join("testdata", "invalid", "*.yaml"))
	if err != nil || len(files) == 0 {
		panic("no manifests in testdata/invalid")
	}
	for _, file := range files {
		It("refuses "+filepath.Base(file), func() {
			file, err := filepath.Abs(file)
			Expect(err).NotTo(HaveOccurred())
			body, err := os.ReadFile(file)
			Expect(err).NotTo(HaveOccurred())
			field, message := header(string(body), "# field: "), header(string(body), "# expect: ")
			Expect(field).NotTo(BeEmpty(), "%s has no '# field:' header", file)
			Expect(message).NotTo(BeEmpty(), "%s has no '# expect:' header", file)

			out, err := kubectl("apply", "--dry-run=server", "--namespace", namespace, "-f", file).CombinedOutput()
			Expect(err).To(HaveOccurred(), "the API server accepted %s:\n%s", file, out)
			Expect(string(out)).To(ContainSubstring(field + ": "))
			Expect(string(out)).To(ContainSubstring(message))
		})
	}
}

func header(body, prefix string) string {
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, prefix) {
			return strings.TrimPrefix(line, prefix)
		}
	}
	return ""
}
