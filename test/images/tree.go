package images

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
)

// listTree returns a line for each file under the directories dirs of root, as
// `find DIRS -printf '%p %m %u %g %y %l'` in root prints them (with numeric owners):
// the path, the permission bits in octal, the owner's and the group's ids, the type and
// a link's target. The lines are sorted byte-wise.
func listTree(root string, dirs []string) ([]string, error) {
	var lines []string
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			st, ok := info.Sys().(*syscall.Stat_t)
			if !ok {
				return fmt.Errorf("%s: no owner in %T", p, info.Sys())
			}
			target := ""
			if d.Type()&fs.ModeSymlink != 0 {
				if target, err = os.Readlink(p); err != nil {
					return err
				}
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			lines = append(lines, fmt.Sprintf("%s %o %d %d %c %s", rel, st.Mode&0o7777, st.Uid, st.Gid, fileType(st.Mode), target))
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	slices.Sort(lines)
	return lines, nil
}

// fileType is find's %y letter for a stat mode.
func fileType(mode uint32) rune {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 'f'
	case syscall.S_IFDIR:
		return 'd'
	case syscall.S_IFLNK:
		return 'l'
	case syscall.S_IFCHR:
		return 'c'
	case syscall.S_IFBLK:
		return 'b'
	case syscall.S_IFIFO:
		return 'p'
	case syscall.S_IFSOCK:
		return 's'
	}
	return 'U'
}

// missingFrom returns the lines of want (sorted) that got (sorted) lacks.
func missingFrom(got, want []string) []string {
	var missing []string
	for _, line := range want {
		if _, found := slices.BinarySearch(got, line); !found {
			missing = append(missing, line)
		}
	}
	return missing
}

// differingFiles returns the regular files under dir, a directory of both the roots a
// and b, whose contents differ or that one of them lacks, as `diff -r` names them. Links
// are left to listTree, which compares their targets.
func differingFiles(a, b, dir string) ([]string, error) {
	regular := func(root string) (map[string]bool, error) {
		files := map[string]bool{}
		err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.Type().IsRegular() {
				rel, err := filepath.Rel(root, p)
				files[rel] = true
				return err
			}
			return nil
		})
		return files, err
	}
	inA, err := regular(a)
	if err != nil {
		return nil, err
	}
	inB, err := regular(b)
	if err != nil {
		return nil, err
	}
	var differing []string
	for rel := range inA {
		if !inB[rel] {
			differing = append(differing, rel)
			continue
		}
		same, err := sameContents(filepath.Join(a, rel), filepath.Join(b, rel))
		if err != nil {
			return nil, err
		}
		if !same {
			differing = append(differing, rel)
		}
	}
	for rel := range inB {
		if !inA[rel] {
			differing = append(differing, rel)
		}
	}
	slices.Sort(differing)
	return differing, nil
}

func sameContents(a, b string) (bool, error) {
	ca, err := os.ReadFile(a)
	if err != nil {
		return false, err
	}
	cb, err := os.ReadFile(b)
	if err != nil {
		return false, err
	}
	return bytes.Equal(ca, cb), nil
}
