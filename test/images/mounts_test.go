//go:build imagetest

package images

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// mountVolumes makes the image's root file system root what a container of the
// operator's sees, with the volumes in WORK/volumes: the root file system read-only;
// the volumes writable by the hadoop user as the kubelet makes them (fsGroup); the
// client config readable by the group only; the rendered configuration of WORK/conf over
// the image's; and the node's name resolution, which the kubelet mounts over files it
// creates. Only in this process's private mount namespace.
func mountVolumes(root, work string) error {
	for _, f := range []string{"etc/hosts", "etc/resolv.conf"} {
		created, err := os.OpenFile(filepath.Join(root, f), os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			return err
		}
		created.Close()
	}
	if err := bind(root, root); err != nil {
		return err
	}
	if err := remountReadOnly(root); err != nil {
		return err
	}
	if err := mount("proc", filepath.Join(root, "proc"), "proc", 0); err != nil {
		return err
	}
	if err := mount("/dev", filepath.Join(root, "dev"), "", syscall.MS_BIND|syscall.MS_REC); err != nil {
		return err
	}

	volumes := filepath.Join(work, "volumes")
	for _, v := range []string{"tmp", "log", "yarn", "ceph"} {
		if err := os.MkdirAll(filepath.Join(volumes, v), 0o755); err != nil {
			return err
		}
	}
	for _, v := range []string{"tmp", "log", "yarn"} {
		if err := os.Chown(filepath.Join(volumes, v), hadoopUID, hadoopGID); err != nil {
			return err
		}
	}
	if err := os.Chmod(filepath.Join(volumes, "tmp"), os.ModeSticky|0o777); err != nil {
		return err
	}
	for volume, target := range map[string]string{
		"tmp": "tmp", "log": "var/log/hadoop", "yarn": "var/lib/hadoop-yarn", "ceph": "etc/ceph",
	} {
		if err := bind(filepath.Join(volumes, volume), filepath.Join(root, target)); err != nil {
			return err
		}
	}
	for _, f := range confFiles {
		if err := bindReadOnly(filepath.Join(work, "conf", f), filepath.Join(root, "opt/hadoop/etc/hadoop", f)); err != nil {
			return err
		}
	}
	for _, f := range []string{"etc/hosts", "etc/resolv.conf"} {
		if err := bindReadOnly(filepath.Join("/", f), filepath.Join(root, f)); err != nil {
			return err
		}
	}
	return nil
}

func mount(source, target, fstype string, flags uintptr) error {
	if err := syscall.Mount(source, target, fstype, flags, ""); err != nil {
		return fmt.Errorf("mounting %s on %s: %w", source, target, err)
	}
	return nil
}

func bind(source, target string) error {
	return mount(source, target, "", syscall.MS_BIND)
}

// remountReadOnly makes the bind mount target read-only; a bind mount takes its
// flags only from a remount.
func remountReadOnly(target string) error {
	return mount("", target, "", syscall.MS_REMOUNT|syscall.MS_BIND|syscall.MS_RDONLY)
}

func bindReadOnly(source, target string) error {
	if err := bind(source, target); err != nil {
		return err
	}
	return remountReadOnly(target)
}
