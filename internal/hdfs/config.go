// Package hdfs turns an HDFS StorageBackend into the client configuration of the
// HadoopClusters on it, and asks NameNodes over their web servers what state they are
// in and which replication and block size they use. The operator never deploys or
// changes an HDFS: it is the baseline CephFS is measured against.
package hdfs

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
	"github.com/hadoopceph/hadoop-ceph-operator/internal/hadoop"
)

// Files of a discovery ConfigMap, and of the client ConfigMap the operator renders.
const (
	FileCoreSite = "core-site.xml"
	FileHDFSSite = "hdfs-site.xml"
)

// Keys of Hadoop's client configuration the operator reads or writes.
const (
	KeyDefaultFS   = "fs.defaultFS"
	KeyReplication = "dfs.replication"
	KeyBlockSize   = "dfs.blocksize"
	keyNameservice = "dfs.nameservices"
	keyHANameNodes = "dfs.ha.namenodes."
	keyRPCAddress  = "dfs.namenode.rpc-address"
	keyHTTPAddress = "dfs.namenode.http-address"
	keyFailover    = "dfs.client.failover.proxy.provider."
	// failoverProvider is the client's stock way of finding the active NameNode of a
	// nameservice among those configured.
	failoverProvider = "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider"
)

// Hadoop's defaults for a NameNode's ports and for what a client writes.
const (
	DefaultRPCPort     = 8020
	DefaultHTTPPort    = 9870
	DefaultReplication = 3
	DefaultBlockSize   = 128 << 20
)

// ClientConfig is what a Hadoop client needs to use an HDFS.
type ClientConfig struct {
	// DefaultFS is fs.defaultFS, such as hdfs://namenode:8020 or hdfs://nameservice.
	DefaultFS string
	// HDFSSite are the hdfs-site.xml keys: a nameservice's NameNodes, and whatever
	// else a discovery ConfigMap carried.
	HDFSSite map[string]string
	// HTTPAddresses are the NameNodes' web servers, host:port, to ask their state.
	HTTPAddresses []string
}

// FromNameNodes is the client configuration of spec.hdfs.nameNodes: one NameNode is
// fs.defaultFS itself; several make a nameservice named after the StorageBackend.
func FromNameNodes(nameservice string, nameNodes []v1alpha1.HDFSNameNode) ClientConfig {
	cfg := ClientConfig{HDFSSite: map[string]string{}}
	var ids []string
	for i, nn := range nameNodes {
		rpc := net.JoinHostPort(nn.Host, strconv.Itoa(int(orDefault(nn.RPCPort, DefaultRPCPort))))
		http := net.JoinHostPort(nn.Host, strconv.Itoa(int(orDefault(nn.HTTPPort, DefaultHTTPPort))))
		cfg.HTTPAddresses = append(cfg.HTTPAddresses, http)
		if len(nameNodes) == 1 {
			cfg.DefaultFS = "hdfs://" + rpc
			cfg.HDFSSite[keyHTTPAddress] = http
			break
		}
		id := fmt.Sprintf("nn%d", i)
		ids = append(ids, id)
		cfg.HDFSSite[keyRPCAddress+"."+nameservice+"."+id] = rpc
		cfg.HDFSSite[keyHTTPAddress+"."+nameservice+"."+id] = http
	}
	if len(ids) > 0 {
		cfg.DefaultFS = "hdfs://" + nameservice
		cfg.HDFSSite[keyNameservice] = nameservice
		cfg.HDFSSite[keyHANameNodes+nameservice] = strings.Join(ids, ",")
		cfg.HDFSSite[keyFailover+nameservice] = failoverProvider
	}
	return cfg
}

func orDefault(v, d int32) int32 {
	if v == 0 {
		return d
	}
	return v
}

// FromDiscovery reads a discovery ConfigMap's data: fs.defaultFS from core-site.xml,
// and from hdfs-site.xml every key, among them the NameNodes of fs.defaultFS's
// nameservice. An error says what is missing or wrong, naming the file and key.
func FromDiscovery(data map[string]string) (ClientConfig, error) {
	core, err := parseFile(data, FileCoreSite)
	if err != nil {
		return ClientConfig{}, err
	}
	site := map[string]string{}
	if _, ok := data[FileHDFSSite]; ok {
		if site, err = parseFile(data, FileHDFSSite); err != nil {
			return ClientConfig{}, err
		}
	}
	defaultFS := core[KeyDefaultFS]
	u, err := url.Parse(defaultFS)
	switch {
	case defaultFS == "":
		return ClientConfig{}, fmt.Errorf("%s has no %s", FileCoreSite, KeyDefaultFS)
	case err != nil || u.Scheme != "hdfs" || u.Host == "":
		return ClientConfig{}, fmt.Errorf("%s: %s is %q, not an hdfs://<namenode or nameservice> URI", FileCoreSite, KeyDefaultFS, defaultFS)
	}
	cfg := ClientConfig{DefaultFS: strings.TrimSuffix(defaultFS, "/"), HDFSSite: site}
	authority := u.Host
	if !slices.Contains(splitList(site[keyNameservice]), authority) {
		// A NameNode's own address: its web server is dfs.namenode.http-address, or
		// Hadoop's port on the same host.
		http := site[keyHTTPAddress]
		if http == "" || strings.HasPrefix(http, "0.0.0.0:") {
			http = net.JoinHostPort(u.Hostname(), strconv.Itoa(DefaultHTTPPort))
		}
		cfg.HTTPAddresses = []string{http}
		return cfg, nil
	}
	ids := splitList(site[keyHANameNodes+authority])
	if len(ids) == 0 {
		return ClientConfig{}, fmt.Errorf("%s: nameservice %s of %s lists no NameNodes in %s%s", FileHDFSSite, authority, KeyDefaultFS, keyHANameNodes, authority)
	}
	for _, id := range ids {
		suffix := "." + authority + "." + id
		http := site[keyHTTPAddress+suffix]
		if http == "" {
			rpc := site[keyRPCAddress+suffix]
			host, _, err := net.SplitHostPort(rpc)
			if err != nil {
				return ClientConfig{}, fmt.Errorf("%s: NameNode %s of nameservice %s has neither %s nor a host:port in %s", FileHDFSSite, id, authority, keyHTTPAddress+suffix, keyRPCAddress+suffix)
			}
			http = net.JoinHostPort(host, strconv.Itoa(DefaultHTTPPort))
		}
		cfg.HTTPAddresses = append(cfg.HTTPAddresses, http)
	}
	return cfg, nil
}

func parseFile(data map[string]string, file string) (map[string]string, error) {
	text, ok := data[file]
	if !ok {
		return nil, fmt.Errorf("has no %s key", file)
	}
	props, err := hadoop.ParseConfigurationXML(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return props, nil
}

func splitList(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// WithNameNodeDefaults fills in, when the client configuration does not set them, the
// replication and block size the active NameNode is configured with, so that the
// HadoopClusters write files as that HDFS's own clients would. A value the NameNode did
// not tell (0) leaves Hadoop's default.
func (c ClientConfig) WithNameNodeDefaults(replication int32, blockSize int64) ClientConfig {
	site := make(map[string]string, len(c.HDFSSite)+2)
	for k, v := range c.HDFSSite {
		site[k] = v
	}
	if _, ok := site[KeyReplication]; !ok && replication > 0 {
		site[KeyReplication] = strconv.Itoa(int(replication))
	}
	if _, ok := site[KeyBlockSize]; !ok && blockSize > 0 {
		site[KeyBlockSize] = strconv.FormatInt(blockSize, 10)
	}
	c.HDFSSite = site
	return c
}

// Replication is the replication the clients use: dfs.replication, or Hadoop's default.
func (c ClientConfig) Replication() (int32, error) {
	v, ok := c.HDFSSite[KeyReplication]
	if !ok {
		return DefaultReplication, nil
	}
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 32)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%s is %q, not a positive number", KeyReplication, v)
	}
	return int32(n), nil
}

// BlockSize is the block size the clients use: dfs.blocksize, or Hadoop's default.
func (c ClientConfig) BlockSize() (int64, error) {
	v, ok := c.HDFSSite[KeyBlockSize]
	if !ok {
		return DefaultBlockSize, nil
	}
	n, err := ParseSize(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", KeyBlockSize, err)
	}
	return n, nil
}

// ParseSize reads a size as Hadoop's Configuration.getLongBytes does: a number with an
// optional binary prefix k, m, g, t, p or e, in either case.
func ParseSize(v string) (int64, error) {
	s := strings.ToLower(strings.TrimSpace(v))
	shift := 0
	if s != "" {
		if i := strings.IndexByte("kmgtpe", s[len(s)-1]); i >= 0 {
			shift = 10 * (i + 1)
			s = s[:len(s)-1]
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("%q is not a size such as 134217728 or 128m", v)
	}
	return n << shift, nil
}
