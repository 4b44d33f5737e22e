package deviceplugin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	pluginapi "k8s.io/kubelet/pkg/apis/deviceplugin/v1beta1"
)

// KubeletSocket is the kubelet's registration socket in the device-plugins directory.
const KubeletSocket = "kubelet.sock"

// registerTimeout bounds one Register call; the kubelet answers at once.
const registerTimeout = 10 * time.Second

// Options of Run.
type Options struct {
	// Dir is the kubelet's device-plugins directory, where kubelet.sock is and the
	// plugin's sockets go.
	Dir       string
	Resources []Resource
	// Poll is how often Run looks at kubelet.sock and the plugin's sockets.
	Poll time.Duration
	Log  *slog.Logger
}

// Run serves every resource on its socket in o.Dir and registers it with the kubelet
// there, once kubelet.sock exists. A kubelet that starts again creates kubelet.sock
// anew and removes the plugins' sockets: Run then serves on new sockets and registers
// again. When ctx ends, Run stops serving and removes its sockets.
func Run(ctx context.Context, o Options) error {
	if err := checkResources(o.Resources); err != nil {
		return err
	}
	kubelet := filepath.Join(o.Dir, KubeletSocket)
	var (
		servers    []*server
		servedFor  os.FileInfo
		registered bool
	)
	defer func() { stopServers(servers) }()
	tick := time.NewTicker(o.Poll)
	defer tick.Stop()
	for {
		now, err := os.Stat(kubelet)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("looking at %s: %w", kubelet, err)
		}
		switch plan(observed{kubelet: now, servedFor: servedFor, registered: registered, socketsGone: socketsGone(servers)}) {
		case restart:
			if servedFor != nil {
				o.Log.Info("the kubelet started again, or a socket is gone: serving anew", "kubelet", kubelet)
			}
			stopServers(servers)
			if servers, err = startServers(o.Resources, o.Dir); err != nil {
				return err
			}
			servedFor, registered = now, false
			fallthrough
		case register:
			if err := registerAll(ctx, kubelet, servers); err != nil {
				o.Log.Error("registering with the kubelet; trying again", "error", err)
			} else {
				registered = true
				for _, s := range servers {
					o.Log.Info("registered", "resource", s.resource.Name, "devices", s.resource.Count, "endpoint", s.socket)
				}
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// action is what Run does after a look.
type action int

const (
	// wait: no kubelet to register with, or registered with the one there.
	wait action = iota
	// register: serving for the kubelet there, which an earlier try failed to reach.
	register
	// restart: serve on new sockets, then register.
	restart
)

// observed is what one look found.
type observed struct {
	// kubelet is kubelet.sock now; nil when it is missing.
	kubelet os.FileInfo
	// servedFor is the kubelet.sock the servers started for; nil before they started.
	servedFor os.FileInfo
	// registered: every resource is registered with servedFor's kubelet.
	registered bool
	// socketsGone: a server's socket was removed.
	socketsGone bool
}

// plan decides what to do about what one look found. A socket file made anew is
// another file even where the file system gives it the inode just freed: its
// modification time differs.
func plan(o observed) action {
	switch {
	case o.kubelet == nil:
		return wait
	case o.servedFor == nil || !os.SameFile(o.kubelet, o.servedFor) || !o.kubelet.ModTime().Equal(o.servedFor.ModTime()) || o.socketsGone:
		return restart
	case !o.registered:
		return register
	}
	return wait
}

// checkResources refuses two resources that the kubelet or a container could not
// tell apart.
func checkResources(resources []Resource) error {
	if len(resources) == 0 {
		return errors.New("no resource to advertise")
	}
	seen := map[string]string{}
	for _, r := range resources {
		for _, key := range []string{r.Name, r.EnvName(), r.SocketName()} {
			if other, ok := seen[key]; ok {
				return fmt.Errorf("resources %s and %s would share %s", other, r.Name, key)
			}
			seen[key] = r.Name
		}
	}
	return nil
}

func startServers(resources []Resource, dir string) ([]*server, error) {
	servers := make([]*server, 0, len(resources))
	for _, r := range resources {
		s, err := startServer(r, dir)
		if err != nil {
			stopServers(servers)
			return nil, err
		}
		servers = append(servers, s)
	}
	return servers, nil
}

func stopServers(servers []*server) {
	for _, s := range servers {
		s.stop()
	}
}

func socketsGone(servers []*server) bool {
	for _, s := range servers {
		if !s.socketExists() {
			return true
		}
	}
	return false
}

// registerAll registers every server's resource with the kubelet at socket, giving
// the socket's file name as the endpoint: the kubelet looks for it in its own
// device-plugins directory.
func registerAll(ctx context.Context, socket string, servers []*server) error {
	conn, err := grpc.NewClient("unix://"+socket, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return fmt.Errorf("connecting to %s: %w", socket, err)
	}
	defer func() { _ = conn.Close() }()
	kubelet := pluginapi.NewRegistrationClient(conn)
	for _, s := range servers {
		c, cancel := context.WithTimeout(ctx, registerTimeout)
		_, err := kubelet.Register(c, &pluginapi.RegisterRequest{
			Version:      pluginapi.Version,
			Endpoint:     filepath.Base(s.socket),
			ResourceName: s.resource.Name,
			Options:      &pluginapi.DevicePluginOptions{},
		})
		cancel()
		if err != nil {
			return fmt.Errorf("registering %s: %w", s.resource.Name, err)
		}
	}
	return nil
}
