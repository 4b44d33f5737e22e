// Package repo finds the repository's root from a test or a tool run inside it.
package repo

import (
	"fmt"
	"os"
	"path/filepath"
)

// Root is the directory of the nearest go.mod at or above the working directory: the
// repository's root for `go test` and Ginkgo, which run a test in its package's
// directory, and for `go run` anywhere in the checkout. It starts from the working
// directory rather than from a source file's name because the Makefile builds with
// -trimpath, which leaves file names relative to the module.
func Root() (string, error) {
	start, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding the repository's root: %w", err)
	}
	for dir := start; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("finding the repository's root: no go.mod in %s or above it", start)
		}
	}
}
