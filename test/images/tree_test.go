package images

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestListTree(t *testing.T) {
	root := imageRoot(t, map[string]os.FileMode{
		"opt/hadoop/bin/hadoop": 0o755,
		"opt/hadoop/etc/a.xml":  0o644,
		"etc/passwd":            0o644,
	}, map[string]string{
		"opt/hadoop/lib.jar": "/usr/share/java/lib.jar",
	})
	// Whatever the umask.
	for dir, mode := range map[string]os.FileMode{
		"opt": 0o755, "opt/hadoop": 0o755, "opt/hadoop/bin": 0o755, "opt/hadoop/etc": os.ModeSticky | 0o777,
	} {
		if err := os.Chmod(filepath.Join(root, dir), mode); err != nil {
			t.Fatal(err)
		}
	}
	got, err := listTree(root, []string{"opt"})
	if err != nil {
		t.Fatal(err)
	}
	ids := fmt.Sprintf("%d %d", os.Getuid(), os.Getgid())
	want := []string{
		"opt 755 " + ids + " d ",
		"opt/hadoop 755 " + ids + " d ",
		"opt/hadoop/bin 755 " + ids + " d ",
		"opt/hadoop/bin/hadoop 755 " + ids + " f ",
		"opt/hadoop/etc 1777 " + ids + " d ",
		"opt/hadoop/etc/a.xml 644 " + ids + " f ",
		"opt/hadoop/lib.jar 777 " + ids + " l /usr/share/java/lib.jar",
	}
	if !slices.Equal(got, want) {
		t.Errorf("listTree =\n%q\nwant\n%q", got, want)
	}
	if _, err := listTree(root, []string{"var/log/hadoop"}); err == nil {
		t.Error("listTree of a missing directory: no error")
	}
}

func TestMissingFrom(t *testing.T) {
	got := missingFrom([]string{"a", "c", "d"}, []string{"a", "b", "d", "e"})
	if want := []string{"b", "e"}; !slices.Equal(got, want) {
		t.Errorf("missingFrom = %v, want %v", got, want)
	}
}

func TestDifferingFiles(t *testing.T) {
	files := map[string]os.FileMode{"opt/same": 0o644, "opt/d/changed": 0o644, "opt/onlyhere": 0o644, "etc/other": 0o644}
	a := imageRoot(t, files, map[string]string{"opt/link": "same"})
	delete(files, "opt/onlyhere")
	files["opt/d/onlythere"] = 0o644
	b := imageRoot(t, files, map[string]string{"opt/link": "onlyhere"})
	if err := os.WriteFile(filepath.Join(b, "opt/d/changed"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b, "etc/other"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := differingFiles(a, b, "opt")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"opt/d/changed", "opt/d/onlythere", "opt/onlyhere"}; !slices.Equal(got, want) {
		t.Errorf("differingFiles(opt) = %v, want %v", got, want)
	}
	got, err = differingFiles(a, b, "etc")
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"etc/other"}; !slices.Equal(got, want) {
		t.Errorf("differingFiles(etc) = %v, want %v", got, want)
	}
}
