package deviceplugin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	pluginapi "k8s.io/kubelet/pkg/apis/deviceplugin/v1beta1"
)

// server serves the device-plugin API of one resource on its socket.
type server struct {
	pluginapi.UnimplementedDevicePluginServer
	resource Resource
	socket   string
	grpc     *grpc.Server
	// served is closed when the gRPC server has stopped serving.
	served chan struct{}
}

// startServer listens on r's socket in dir, replacing a socket left there, and serves.
func startServer(r Resource, dir string) (*server, error) {
	socket := filepath.Join(dir, r.SocketName())
	if err := os.Remove(socket); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("removing the old socket of %s: %w", r.Name, err)
	}
	l, err := net.Listen("unix", socket)
	if err != nil {
		return nil, fmt.Errorf("serving %s: %w", r.Name, err)
	}
	s := &server{resource: r, socket: socket, grpc: grpc.NewServer(), served: make(chan struct{})}
	pluginapi.RegisterDevicePluginServer(s.grpc, s)
	go func() {
		defer close(s.served)
		_ = s.grpc.Serve(l)
	}()
	return s, nil
}

// stop ends every call, ListAndWatch's streams included, and removes the socket. The
// listener unlinks its path when it closes, whatever file is there by then, so a
// resource's next server starts only after this one stopped.
func (s *server) stop() {
	s.grpc.Stop()
	<-s.served
	_ = os.Remove(s.socket)
}

// socketExists tells whether the socket is still there: a kubelet that starts removes
// every socket in the directory.
func (s *server) socketExists() bool {
	_, err := os.Stat(s.socket)
	return err == nil
}

func (s *server) GetDevicePluginOptions(context.Context, *pluginapi.Empty) (*pluginapi.DevicePluginOptions, error) {
	return &pluginapi.DevicePluginOptions{}, nil
}

// ListAndWatch sends the devices once: fake devices never change. The stream stays
// open until the kubelet or stop ends it, as the kubelet expects.
func (s *server) ListAndWatch(_ *pluginapi.Empty, stream pluginapi.DevicePlugin_ListAndWatchServer) error {
	if err := stream.Send(&pluginapi.ListAndWatchResponse{Devices: s.resource.devices()}); err != nil {
		return err
	}
	<-stream.Context().Done()
	return nil
}

// GetPreferredAllocation prefers the devices that must be included, then the
// available ones in the order given. The options do not offer it, so a kubelet does
// not call it.
func (s *server) GetPreferredAllocation(_ context.Context, req *pluginapi.PreferredAllocationRequest) (*pluginapi.PreferredAllocationResponse, error) {
	out := &pluginapi.PreferredAllocationResponse{}
	for _, c := range req.ContainerRequests {
		ids := slices.Clone(c.MustIncludeDeviceIDs)
		for _, id := range c.AvailableDeviceIDs {
			if len(ids) >= int(c.AllocationSize) {
				break
			}
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		out.ContainerResponses = append(out.ContainerResponses, &pluginapi.ContainerPreferredAllocationResponse{DeviceIDs: ids})
	}
	return out, nil
}

// Allocate gives each container one variable, EnvName, that lists its devices'
// IDs, comma-separated. An ID the plugin never advertised is refused.
func (s *server) Allocate(_ context.Context, req *pluginapi.AllocateRequest) (*pluginapi.AllocateResponse, error) {
	known := s.resource.DeviceIDs()
	out := &pluginapi.AllocateResponse{}
	for _, c := range req.ContainerRequests {
		for _, id := range c.DevicesIds {
			if !slices.Contains(known, id) {
				return nil, status.Errorf(codes.InvalidArgument, "%s has no device %q", s.resource.Name, id)
			}
		}
		out.ContainerResponses = append(out.ContainerResponses, &pluginapi.ContainerAllocateResponse{
			Envs: map[string]string{s.resource.EnvName(): strings.Join(c.DevicesIds, ",")},
		})
	}
	return out, nil
}

func (s *server) PreStartContainer(context.Context, *pluginapi.PreStartContainerRequest) (*pluginapi.PreStartContainerResponse, error) {
	return &pluginapi.PreStartContainerResponse{}, nil
}
