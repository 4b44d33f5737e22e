package hadoop

import (
	"maps"
	"slices"
	"strings"
)

// The connector's classes and the default file system URI. The URI has no authority:
// an authority would name monitors, and the monitors come from ceph.conf, which the
// kubelet keeps current when Rook moves them.
const (
	DefaultFS               = "ceph:///"
	FileSystemClass         = "io.hadoopceph.fs.CephFileSystem"
	AbstractFileSystemClass = "io.hadoopceph.fs.CephFs"
)

// Connector settings (cephfs-hadoop CephFsConfig) the operator writes.
const (
	keyCephConfFile    = "ceph.conf.file"
	keyCephConfOptions = "ceph.conf.options"
	keyCephAuthID      = "ceph.auth.id"
	keyCephAuthKeyring = "ceph.auth.keyring"
	keyCephRootDir     = "ceph.root.dir"
	// keyClientMetadata tags every MDS session, so the sessions of one cluster can be
	// listed or evicted together.
	keyClientMetadata = "fs.ceph.client.metadata"
	// cephOptionFS selects the file system (Ceph 16 Pacific and later).
	cephOptionFS = "client_fs"
)

// KeyLocalityHostsFile names the file from which the connector learns the YARN hosts
// of the NodeManagers on each node (TopologyDir). Unlike the keys of OwnedCoreSiteKeys
// a user may set it: to an empty value, which leaves block locations naming the OSDs'
// hosts alone, as a way to measure what it brings.
const KeyLocalityHostsFile = "fs.ceph.locality.hosts.file"

// KeyPrometheusEndpoint makes the web server of every Hadoop daemon serve the daemon's
// metrics in Prometheus' text format at MetricsPath. Hadoop leaves it off.
const KeyPrometheusEndpoint = "hadoop.prometheus.endpoint.enabled"

// OwnedCoreSiteKeys are the core-site.xml keys a user cannot override: the default file
// system and everything that says how to reach CephFS, which come from the
// StorageBackend. The CEL rule on spec.config.coreSite lists the same keys.
var OwnedCoreSiteKeys = []string{
	"fs.defaultFS",
	"fs.ceph.impl",
	"fs.AbstractFileSystem.ceph.impl",
	keyCephConfFile,
	keyCephConfOptions,
	"ceph.mon.address",
	keyCephAuthID,
	keyCephAuthKeyring,
	"ceph.auth.keyfile",
	keyCephRootDir,
}

// OwnedCephOptions are the libcephfs options spec.config.cephOptions cannot set: the
// operator or the connector sets them, and a second value would silently win or lose.
var OwnedCephOptions = []string{
	cephOptionFS,
	"client_mds_namespace",
	"client_mountpoint",
	"client_metadata",
	"mon_host",
	"keyring",
	"key",
	"keyfile",
}

// CoreSite is the content of core-site.xml: the connector as the default file system,
// or the HDFS of an HDFS backend, then the user's overrides.
func CoreSite(in Input) map[string]string {
	hc, st := in.Cluster, in.Storage
	if !st.cephFS() {
		generated := map[string]string{"fs.defaultFS": st.HDFS.DefaultFS}
		if in.metricsEnabled() {
			generated[KeyPrometheusEndpoint] = "true"
		}
		return merged(generated, hc.Spec.Config.CoreSite)
	}
	generated := map[string]string{
		"fs.defaultFS": DefaultFS,
		"fs.ceph.impl": FileSystemClass,
		// YARN reaches the default file system through FileContext, which needs the
		// AbstractFileSystem binding: without it NodeManagers fail with "No
		// AbstractFileSystem configured for scheme: ceph".
		"fs.AbstractFileSystem.ceph.impl": AbstractFileSystemClass,
		keyCephConfFile:                   CephConfPath,
		keyCephAuthID:                     st.ClientID,
		keyCephAuthKeyring:                CephKeyringPath,
		keyCephRootDir:                    st.RootPath,
		keyCephConfOptions:                cephConfOptions(st.Filesystem, hc.Spec.Config.CephOptions),
		keyClientMetadata:                 "hadoop_cluster=" + hc.Namespace + "/" + hc.Name,
		KeyLocalityHostsFile:              TopologyDir + "/" + FileTopologyHosts,
	}
	if in.metricsEnabled() {
		generated[KeyPrometheusEndpoint] = "true"
	}
	if in.rackMapping() {
		generated[keySwitchMapping] = RackMappingClass
		generated[KeyRacksFile] = TopologyDir + "/" + FileRacks
		generated[KeyRacksConfigMap] = hc.Namespace + "/" + TopologyConfigMapName(hc)
	}
	return merged(generated, hc.Spec.Config.CoreSite)
}

// nodeManagerCoreSite says whether the NodeManagers get a core-site.xml of their own:
// when spec.network.cephOptions gives them libcephfs options, on CephFS.
func (in Input) nodeManagerCoreSite() bool {
	return in.Storage.cephFS() && len(in.Cluster.Spec.Network.CephOptions) > 0
}

// nodeManagerOrigin heads the NodeManagers' core-site.xml.
const nodeManagerOrigin = `Rendered by hadoop-ceph-operator for the NodeManagers, with spec.network.cephOptions.
     Edit spec.config and spec.network of the HadoopCluster instead: changes to this file
     are overwritten.`

// NodeManagerCoreSiteXML is the NodeManagers' core-site.xml: CoreSite with
// spec.network.cephOptions merged over spec.config.cephOptions. ceph.conf.options is
// final in it. A YARN container reads the NodeManager's configuration directory, but a
// MapReduce task then adds its job's job.xml, which holds every property of the
// submitting client's core-site.xml, without these options; only a final property
// keeps the NodeManager's value.
func NodeManagerCoreSiteXML(in Input) string {
	options := maps.Clone(in.Cluster.Spec.Config.CephOptions)
	if options == nil {
		options = map[string]string{}
	}
	maps.Copy(options, in.Cluster.Spec.Network.CephOptions)
	site := CoreSite(in)
	site[keyCephConfOptions] = cephConfOptions(in.Storage.Filesystem, options)
	return configurationXML(nodeManagerOrigin, site, []string{keyCephConfOptions})
}

// cephConfOptions is the connector's comma-separated option=value list: the file
// system first, then the user's options sorted by name.
func cephConfOptions(filesystem string, extra map[string]string) string {
	opts := []string{cephOptionFS + "=" + filesystem}
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		opts = append(opts, k+"="+extra[k])
	}
	return strings.Join(opts, ",")
}
