package images

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// maxLinks is how many symbolic links inRoot follows, as Linux's path walk does.
const maxLinks = 40

// inRoot returns the path on this machine of name (a path in the image) in the image's
// root file system root, its symbolic links followed as a process whose root is root
// would: the image's absolute links (common/lib/libcephfs.jar to
// /usr/share/java/libcephfs.jar) lead into the image, not to this machine's files.
func inRoot(root, name string) (string, error) {
	resolved := "/"
	rest := strings.Split(name, "/")
	for links := 0; len(rest) > 0; {
		part := rest[0]
		rest = rest[1:]
		switch part {
		case "", ".":
			continue
		case "..":
			resolved = path.Dir(resolved)
			continue
		}
		next := path.Join(resolved, part)
		host := filepath.Join(root, next)
		fi, err := os.Lstat(host)
		if err != nil {
			return "", fmt.Errorf("%s in the image: %w", name, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			resolved = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("%s in the image: too many levels of symbolic links", name)
		}
		target, err := os.Readlink(host)
		if err != nil {
			return "", err
		}
		if path.IsAbs(target) {
			resolved = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return filepath.Join(root, resolved), nil
}

// existsIn reports whether name exists in the image, as test -e in it would.
func existsIn(root, name string) bool {
	p, err := inRoot(root, name)
	if err != nil {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

// lookPath finds command on pathList (the image's PATH) in the image, as a shell in it
// would, and returns its path in the image.
func lookPath(root, pathList, command string) (string, error) {
	if strings.Contains(command, "/") {
		return command, nil
	}
	for dir := range strings.SplitSeq(pathList, ":") {
		if dir == "" {
			continue
		}
		p := path.Join(dir, command)
		host, err := inRoot(root, p)
		if err != nil {
			continue
		}
		if fi, err := os.Stat(host); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s is on none of the image's PATH %s", command, pathList)
}
