package images

import (
	"os"
	"path/filepath"
	"testing"
)

// imageRoot makes a small root file system: files (path in the image to mode) and
// links (path to target).
func imageRoot(t *testing.T, files map[string]os.FileMode, links map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, mode := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	for name, target := range links {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestInRoot(t *testing.T) {
	root := imageRoot(t, map[string]os.FileMode{
		"usr/share/java/libcephfs-16.2.15.jar": 0o644,
	}, map[string]string{
		"usr/share/java/libcephfs.jar":              "libcephfs-16.2.15.jar",
		"opt/hadoop/share/hadoop/lib/libcephfs.jar": "/usr/share/java/libcephfs.jar",
		"opt/hadoop/share/hadoop/lib/broken.jar":    "/usr/share/java/none.jar",
		"opt/up":                                    "../../../usr",
		"loop/a":                                    "b",
		"loop/b":                                    "a",
	})
	cases := []struct {
		name, want string
	}{
		{"/opt/hadoop/share/hadoop/lib/libcephfs.jar", "/usr/share/java/libcephfs-16.2.15.jar"},
		{"/usr/share/java/./libcephfs.jar", "/usr/share/java/libcephfs-16.2.15.jar"},
		// ".." stops at the image's root, as it does at a chroot's.
		{"/opt/up/share/java/libcephfs.jar", "/usr/share/java/libcephfs-16.2.15.jar"},
		{"/opt/hadoop/share/hadoop/lib/broken.jar", ""},
		{"/loop/a", ""},
	}
	for _, c := range cases {
		got, err := inRoot(root, c.name)
		if c.want == "" {
			if err == nil {
				t.Errorf("inRoot(%s) = %s, want an error", c.name, got)
			}
			continue
		}
		if err != nil {
			t.Errorf("inRoot(%s): %v", c.name, err)
		} else if want := filepath.Join(root, c.want); got != want {
			t.Errorf("inRoot(%s) = %s, want %s", c.name, got, want)
		}
	}
	if !existsIn(root, "/opt/hadoop/share/hadoop/lib/libcephfs.jar") || existsIn(root, "/opt/hadoop/share/hadoop/lib/broken.jar") {
		t.Error("existsIn does not follow the image's links in the image")
	}
}

func TestLookPath(t *testing.T) {
	root := imageRoot(t, map[string]os.FileMode{
		"opt/hadoop/bin/hadoop":   0o755,
		"usr/bin/bash":            0o755,
		"opt/hadoop/bin/hdfs.txt": 0o644,
		"bin/hdfs.txt":            0o755,
	}, map[string]string{
		"bin/bash": "/usr/bin/bash",
	})
	const pathList = "/opt/hadoop/bin:/opt/hadoop-ceph/bin::/bin:/usr/bin"
	cases := map[string]string{
		"hadoop":               "/opt/hadoop/bin/hadoop",
		"bash":                 "/bin/bash",
		"hdfs.txt":             "/bin/hdfs.txt",
		"/opt/hadoop-ceph/x/y": "/opt/hadoop-ceph/x/y",
		"run-benchmark":        "",
	}
	for command, want := range cases {
		got, err := lookPath(root, pathList, command)
		if want == "" {
			if err == nil {
				t.Errorf("lookPath(%s) = %s, want an error", command, got)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("lookPath(%s) = %q, %v, want %s", command, got, err, want)
		}
	}
}
