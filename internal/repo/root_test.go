package repo

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRootFromAPackageDirectory(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	// go test runs here, internal/repo: the root is two levels up and holds the module.
	if want, _ := filepath.Abs(filepath.Join("..", "..")); root != want {
		t.Fatalf("Root() = %s, want %s", root, want)
	}
	if _, err := os.Stat(filepath.Join(root, "charts", "hadoop-ceph-operator")); err != nil {
		t.Fatalf("the root has no chart: %v", err)
	}
}

func TestRootOutsideAModule(t *testing.T) {
	t.Chdir(t.TempDir())
	if root, err := Root(); err == nil {
		t.Fatalf("Root() outside any module = %s, want an error", root)
	}
}
