package hdfs

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/restget"
)

// A reconcile pass waits for the answers, so a NameNode that does not answer holds a
// pass this long at most; a healthy one answers in milliseconds.
const requestTimeout = 3 * time.Second

// maxResponseBytes bounds what is read of an answer: a NameNode's whole configuration
// is about 100 KiB.
const maxResponseBytes = 4 << 20

// NameNode is what a NameNode's web server says of it.
type NameNode struct {
	// State is HA's state of the NameNode: active, standby or observer. A NameNode
	// outside a nameservice calls itself active.
	State string
	// Replication and BlockSize are its dfs.replication and dfs.blocksize; 0 when its
	// configuration could not be read.
	Replication int32
	BlockSize   int64
}

// NameNodeClient asks NameNodes' web servers. It is safe for concurrent use.
type NameNodeClient struct {
	http *http.Client
}

// NewNameNodeClient returns a client whose requests time out after requestTimeout.
func NewNameNodeClient() *NameNodeClient {
	return &NameNodeClient{http: &http.Client{Timeout: requestTimeout}}
}

// Ask reads the state of the NameNode whose web server is httpAddress (host:port)
// from its NameNodeStatus bean, then its replication and block size from /conf. The
// state is what makes a NameNode usable; a configuration that cannot be read (a
// secured /conf, say) leaves Replication and BlockSize 0 rather than failing.
func (c *NameNodeClient) Ask(ctx context.Context, httpAddress string) (NameNode, error) {
	base := "http://" + httpAddress
	body, err := c.get(ctx, base+"/jmx?qry=Hadoop:service=NameNode,name=NameNodeStatus")
	if err != nil {
		return NameNode{}, err
	}
	state, err := DecodeState(body)
	if err != nil {
		return NameNode{}, fmt.Errorf("NameNode %s: %w", httpAddress, err)
	}
	nn := NameNode{State: state}
	if v, ok := c.property(ctx, base, KeyReplication); ok {
		if n, err := strconv.ParseInt(v, 10, 32); err == nil && n > 0 {
			nn.Replication = int32(n)
		}
	}
	if v, ok := c.property(ctx, base, KeyBlockSize); ok {
		if n, err := ParseSize(v); err == nil {
			nn.BlockSize = n
		}
	}
	return nn, nil
}

// property asks /conf for one key: the whole configuration is a quarter of a megabyte.
func (c *NameNodeClient) property(ctx context.Context, base, key string) (string, bool) {
	body, err := c.get(ctx, base+"/conf?"+url.Values{"name": {key}}.Encode())
	if err != nil {
		return "", false
	}
	return DecodeProperty(body, key)
}

func (c *NameNodeClient) get(ctx context.Context, u string) ([]byte, error) {
	return restget.Get(ctx, c.http, u, maxResponseBytes)
}

// DecodeState reads State from the answer of /jmx?qry=...NameNodeStatus. A NameNode
// that has just started may answer before it registers the bean.
func DecodeState(body []byte) (string, error) {
	var jmx struct {
		Beans []struct {
			State string `json:"State"`
		} `json:"beans"`
	}
	if err := json.Unmarshal(body, &jmx); err != nil {
		return "", fmt.Errorf("its NameNodeStatus bean is not JSON: %w", err)
	}
	if len(jmx.Beans) == 0 || jmx.Beans[0].State == "" {
		return "", fmt.Errorf("it serves no NameNodeStatus bean with a State: a NameNode that is starting has none yet, another web server none at all")
	}
	return strings.ToLower(jmx.Beans[0].State), nil
}

// DecodeProperty reads key's value from the JSON a Hadoop daemon's /conf?name=key
// serves, {"property":{"key":...,"value":...}}, trimmed as Hadoop trims it.
func DecodeProperty(body []byte, key string) (string, bool) {
	var conf struct {
		Property struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"property"`
	}
	if json.Unmarshal(body, &conf) != nil || conf.Property.Key != key {
		return "", false
	}
	return strings.TrimSpace(conf.Property.Value), true
}
