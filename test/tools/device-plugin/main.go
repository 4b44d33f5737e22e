// Command device-plugin is a kubelet device plugin of fake devices, a test tool for
// extended-resource scheduling (package deviceplugin): the e2e suite runs it as a
// DaemonSet on a labelled node of the local cluster (test/e2e/devices_test.go), from
// the image hack/images/build.sh test-devices makes.
//
//	device-plugin --resource hadoopceph.io/rdma=1 --resource hadoopceph.io/sriov_vf=2 \
//	    [--device-plugins-dir /var/lib/kubelet/device-plugins]
//
// It runs until SIGTERM or SIGINT, then removes its sockets.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	pluginapi "k8s.io/kubelet/pkg/apis/deviceplugin/v1beta1"

	"github.com/hadoopceph/hadoop-ceph-operator/test/tools/device-plugin/deviceplugin"
)

func main() {
	os.Exit(run())
}

func run() int {
	var resources []deviceplugin.Resource
	flag.Func("resource", "an extended resource and its number of devices, <domain>/<name>=<count>; repeat for more", func(s string) error {
		r, err := deviceplugin.ParseResource(s)
		if err == nil {
			resources = append(resources, r)
		}
		return err
	})
	dir := flag.String("device-plugins-dir", strings.TrimSuffix(pluginapi.DevicePluginPath, "/"), "the kubelet's device-plugins directory, where kubelet.sock is")
	flag.Parse()
	if len(resources) == 0 || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: device-plugin --resource <domain>/<name>=<count>... [--device-plugins-dir DIR]")
		return 2
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	if err := deviceplugin.Run(ctx, deviceplugin.Options{Dir: *dir, Resources: resources, Poll: time.Second, Log: log}); err != nil {
		log.Error("stopped", "error", err)
		return 1
	}
	log.Info("stopped; sockets removed")
	return 0
}
