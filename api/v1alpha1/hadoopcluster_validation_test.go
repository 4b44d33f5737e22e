package v1alpha1_test

import (
	"fmt"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The smallest valid HadoopCluster spec, as a user would write it.
const clusterBase = `{storageBackendRef: {name: hadoop}}`

// cluster is the minimal spec with patch merged in.
func cluster(patch string) spec { return spec{base: clusterBase, patch: patch} }

// placement, overrides, network, metrics and access patch one part of the minimal spec.
func placement(patch string) spec { return cluster(`{placement: ` + patch + `}`) }
func overrides(patch string) spec {
	return cluster(`{nodeManagers: {podOverrides: ` + patch + `}}`)
}
func network(patch string) spec { return cluster(`{network: ` + patch + `}`) }
func metrics(patch string) spec { return cluster(`{metrics: ` + patch + `}`) }
func access(patch string) spec  { return cluster(`{access: ` + patch + `}`) }

// hadoopCluster is what a user would apply, untyped like storageBackend.
func hadoopCluster(s spec) *unstructured.Unstructured { return object("HadoopCluster", "hc-", s) }

// Every rule of the HadoopCluster schema is sent to the API server here at least once;
// rules shared by the three roles through one Go type are sent for one role.
var _ = Describe("HadoopCluster admission", func() {
	DescribeTable("rejects bad input, naming the field and what it allows",
		func(ctx SpecContext, in spec, field, phrase string) {
			Expect(k8sClient.Create(ctx, hadoopCluster(in))).To(beInvalidAt(field, phrase))
		},
		Entry("a StorageBackend no object could be called", cluster(`{storageBackendRef: {name: Hadoop_Data}}`), "spec.storageBackendRef.name", "must be an object name"),
		Entry("no StorageBackend", spec{base: `{}`}, "spec.storageBackendRef", "Required value"),
		Entry("an image pull Secret no object could be called", cluster(`{imagePullSecrets: [{name: registry}, {name: "my registry"}]}`), "spec.imagePullSecrets[1].name", "must be an object name"),
		Entry("an image pull policy in the wrong case", cluster(`{imagePullPolicy: always}`), "spec.imagePullPolicy", `supported values: "Always", "IfNotPresent", "Never"`),

		Entry("ResourceManager: a negative memory request", cluster(`{resourceManager: {resources: {requests: {memory: -1Gi}}}}`), "spec.resourceManager.resources.requests", "must not be negative"),
		Entry("ResourceManager: a negative cpu limit", cluster(`{resourceManager: {resources: {limits: {cpu: "-1"}}}}`), "spec.resourceManager.resources.limits", "must not be negative"),
		Entry("ResourceManager: memory limit below its request", cluster(`{resourceManager: {resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}}}`), "spec.resourceManager.resources.requests", "must not exceed the limit"),
		Entry("NodeManagers: a negative ephemeral-storage request", cluster(`{nodeManagers: {resources: {requests: {memory: 4Gi, ephemeral-storage: -1Gi}}}}`), "spec.nodeManagers.resources.requests", "must not be negative"),
		Entry("NodeManagers: a negative memory limit", cluster(`{nodeManagers: {resources: {limits: {memory: -4Gi}}}}`), "spec.nodeManagers.resources.limits", "must not be negative"),
		Entry("NodeManagers: cpu limit below its request", cluster(`{nodeManagers: {resources: {requests: {cpu: "4", memory: 4Gi}, limits: {cpu: "2"}}}}`), "spec.nodeManagers.resources.requests", "must not exceed the limit"),
		Entry("NodeManagers: resources without memory", cluster(`{nodeManagers: {resources: {requests: {cpu: "2"}}}}`), "spec.nodeManagers.resources", "must set a memory limit or request"),
		Entry("JobHistory: a negative cpu request", cluster(`{jobHistory: {resources: {requests: {cpu: -250m}}}}`), "spec.jobHistory.resources.requests", "must not be negative"),
		Entry("JobHistory: a negative memory limit", cluster(`{jobHistory: {resources: {limits: {memory: -1Gi}}}}`), "spec.jobHistory.resources.limits", "must not be negative"),
		Entry("JobHistory: memory limit below its request", cluster(`{jobHistory: {resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}}}`), "spec.jobHistory.resources.requests", "must not exceed the limit"),

		Entry("NodeManagers: 1001 replicas", cluster(`{nodeManagers: {replicas: 1001}}`), "spec.nodeManagers.replicas", "less than or equal to 1000"),
		Entry("NodeManagers: YARN memory under 2560Mi", cluster(`{nodeManagers: {yarn: {memory: 2Gi}}}`), "spec.nodeManagers.yarn.memory", "must be at least 2560Mi"),
		Entry("NodeManagers: both emptyDir and volumeClaim", cluster(`{nodeManagers: {localDirs: {emptyDir: {}, volumeClaim: {size: 10Gi}}}}`), "spec.nodeManagers.localDirs", "exactly one of emptyDir or volumeClaim must be set"),
		Entry("NodeManagers: a zero volume claim", cluster(`{nodeManagers: {localDirs: {volumeClaim: {size: "0"}}}}`), "spec.nodeManagers.localDirs.volumeClaim.size", "must be positive"),
		Entry("NodeManagers: a StorageClass no object could be called", cluster(`{nodeManagers: {localDirs: {volumeClaim: {size: 10Gi, storageClassName: Fast_SSD}}}}`), "spec.nodeManagers.localDirs.volumeClaim.storageClassName", "must be a StorageClass name"),
		Entry("NodeManagers: a negative emptyDir size limit", cluster(`{nodeManagers: {localDirs: {emptyDir: {sizeLimit: -1Gi}}}}`), "spec.nodeManagers.localDirs.emptyDir.sizeLimit", "must be positive"),
		Entry("NodeManagers: an emptyDir medium in the wrong case", cluster(`{nodeManagers: {localDirs: {emptyDir: {medium: memory}}}}`), "spec.nodeManagers.localDirs.emptyDir.medium", "supported values"),

		Entry("pod labels with the operator's prefix", overrides(`{labels: {app.kubernetes.io/name: mine}}`), "spec.nodeManagers.podOverrides.labels", "must not use the app.kubernetes.io/ or hadoopceph.io/ prefixes"),
		Entry("a pod label key with a space", overrides(`{labels: {"cost center": lab}}`), "spec.nodeManagers.podOverrides.labels", "keys must be label keys"),
		Entry("a pod label key with an empty name", overrides(`{labels: {"example.com/": lab}}`), "spec.nodeManagers.podOverrides.labels", "keys must be label keys"),
		Entry("a pod label name over 63 characters", overrides(`{labels: {`+strings.Repeat("l", 64)+`: lab}}`), "spec.nodeManagers.podOverrides.labels", "keys must be label keys"),
		Entry("a pod label value with a space", overrides(`{labels: {team: "data eng"}}`), "spec.nodeManagers.podOverrides.labels[team]", "must be a label value"),
		Entry("a pod label value over 63 characters", overrides(`{labels: {team: `+strings.Repeat("v", 64)+`}}`), "spec.nodeManagers.podOverrides.labels.team", "may not be more than 63"),
		Entry("the Multus annotation", overrides(`{annotations: {k8s.v1.cni.cncf.io/networks: ib}}`), "spec.nodeManagers.podOverrides.annotations", "must not set k8s.v1.cni.cncf.io/networks"),
		Entry("an annotation key with a space", overrides(`{annotations: {"my note": x}}`), "spec.nodeManagers.podOverrides.annotations", "keys must be annotation keys"),
		Entry("a priority class no object could be called", overrides(`{priorityClassName: "High Priority"}`), "spec.nodeManagers.podOverrides.priorityClassName", "must be a PriorityClass name"),
		Entry("an env var name starting with a digit", overrides(`{env: [{name: 1ST, value: x}]}`), "spec.nodeManagers.podOverrides.env[0].name", "must be an environment variable name"),
		Entry("an env var name with '='", overrides(`{env: [{name: "A=B", value: x}]}`), "spec.nodeManagers.podOverrides.env[0].name", "must be an environment variable name"),
		Entry("an env var with both value and valueFrom", overrides(`{env: [{name: TOKEN, value: x, valueFrom: {secretKeyRef: {name: s, key: k}}}]}`), "spec.nodeManagers.podOverrides.env[0].valueFrom", "cannot be combined with value"),
		Entry("an env var from two sources", overrides(`{env: [{name: TOKEN, valueFrom: {secretKeyRef: {name: s, key: k}, configMapKeyRef: {name: c, key: k}}}]}`), "spec.nodeManagers.podOverrides.env[0].valueFrom", "exactly one of fieldRef"),
		Entry("an env var from no source", overrides(`{env: [{name: TOKEN, valueFrom: {}}]}`), "spec.nodeManagers.podOverrides.env[0].valueFrom", "exactly one of fieldRef"),
		Entry("a role's node selector value with a slash", overrides(`{nodeSelector: {zone: a/b}}`), "spec.nodeManagers.podOverrides.nodeSelector[zone]", "must be a label value"),
		Entry("a role's toleration with a lowercase operator", overrides(`{tolerations: [{key: gpu, operator: exists}]}`), "spec.nodeManagers.podOverrides.tolerations[0].operator", `supported values: "", "Exists", "Equal"`),

		Entry("a node selector key with a space", placement(`{nodeSelector: {"node type": big}}`), "spec.placement.nodeSelector", "keys must be label keys"),
		Entry("a node selector value with a space", placement(`{nodeSelector: {disk: "fast ssd"}}`), "spec.placement.nodeSelector[disk]", "must be a label value"),
		Entry("a toleration with an unknown effect", placement(`{tolerations: [{key: gpu, effect: NoEvict}]}`), "spec.placement.tolerations[0].effect", "supported values"),
		Entry("a toleration of every key with Equal", placement(`{tolerations: [{operator: Equal, value: x}]}`), "spec.placement.tolerations[0].operator", "must be Exists when key is empty"),
		Entry("a toleration of every key without an operator", placement(`{tolerations: [{effect: NoSchedule}]}`), "spec.placement.tolerations[0].operator", "must be Exists when key is empty"),
		Entry("a toleration key with a space", placement(`{tolerations: [{key: "dedicated to", operator: Exists}]}`), "spec.placement.tolerations[0].key", "must be a taint key"),
		Entry("a toleration value with Exists", placement(`{tolerations: [{key: gpu, operator: Exists, value: "true"}]}`), "spec.placement.tolerations[0].value", "must be empty when operator is Exists"),
		Entry("a toleration value with a space", placement(`{tolerations: [{key: team, value: "data eng"}]}`), "spec.placement.tolerations[0].value", "must be a taint value"),
		Entry("tolerationSeconds without NoExecute", placement(`{tolerations: [{key: gpu, operator: Exists, effect: NoSchedule, tolerationSeconds: 60}]}`), "spec.placement.tolerations[0].tolerationSeconds", "applies only to effect NoExecute"),
		Entry("a spread constraint with maxSkew 0", placement(`{topologySpreadConstraints: [{maxSkew: 0, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule}]}`), "spec.placement.topologySpreadConstraints[0].maxSkew", "greater than or equal to 1"),
		Entry("a spread constraint without a topologyKey", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: "", whenUnsatisfiable: DoNotSchedule}]}`), "spec.placement.topologySpreadConstraints[0].topologyKey", "must be a node label key"),
		Entry("a spread constraint with an unknown whenUnsatisfiable", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: doNotSchedule}]}`), "spec.placement.topologySpreadConstraints[0].whenUnsatisfiable", `supported values: "DoNotSchedule", "ScheduleAnyway"`),
		Entry("a spread constraint with minDomains 0", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, minDomains: 0}]}`), "spec.placement.topologySpreadConstraints[0].minDomains", "greater than or equal to 1"),
		Entry("a spread constraint whose topologyKey has a space", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: "rack id", whenUnsatisfiable: DoNotSchedule}]}`), "spec.placement.topologySpreadConstraints[0].topologyKey", "must be a node label key"),
		Entry("two spread constraints on the same key and action", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}, {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}]}`), "spec.placement.topologySpreadConstraints", "must not repeat a pair of topologyKey and whenUnsatisfiable"),
		Entry("minDomains with ScheduleAnyway", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 2}]}`), "spec.placement.topologySpreadConstraints[0].minDomains", "applies only with whenUnsatisfiable DoNotSchedule"),
		Entry("an unknown nodeAffinityPolicy", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeAffinityPolicy: honor}]}`), "spec.placement.topologySpreadConstraints[0].nodeAffinityPolicy", `supported values: "Honor", "Ignore"`),
		Entry("an unknown nodeTaintsPolicy", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, nodeTaintsPolicy: Always}]}`), "spec.placement.topologySpreadConstraints[0].nodeTaintsPolicy", `supported values: "Honor", "Ignore"`),

		Entry("coreSite: a key with a space", cluster(`{config: {coreSite: {"io file.buffer.size": "65536"}}}`), "spec.config.coreSite", "keys must be Hadoop property names"),
		Entry("coreSite: a value over 16384 characters", cluster(`{config: {coreSite: {io.file.buffer.size: `+strings.Repeat("6", 16385)+`}}}`), "spec.config.coreSite", "values must be at most 16384 characters"),
		Entry("coreSite: fs.defaultFS", cluster(`{config: {coreSite: {fs.defaultFS: "hdfs://nn:8020"}}}`), "spec.config.coreSite", "must not set fs.defaultFS"),
		Entry("yarnSite: a key over 256 characters", cluster(`{config: {yarnSite: {`+strings.Repeat("y", 257)+`: "1"}}}`), "spec.config.yarnSite", "keys must be Hadoop property names"),
		Entry("yarnSite: a value over 16384 characters", cluster(`{config: {yarnSite: {yarn.acl.enable: `+strings.Repeat("t", 16385)+`}}}`), "spec.config.yarnSite", "values must be at most 16384 characters"),
		Entry("yarnSite: the NodeManager's memory", cluster(`{config: {yarnSite: {yarn.nodemanager.resource.memory-mb: "8192"}}}`), "spec.config.yarnSite", "must not set the yarn.resourcemanager.* or yarn.nodemanager.*"),
		Entry("mapredSite: a key with a tab", cluster(`{config: {mapredSite: {"mapreduce.map\tmemory.mb": "1024"}}}`), "spec.config.mapredSite", "keys must be Hadoop property names"),
		Entry("mapredSite: a value over 16384 characters", cluster(`{config: {mapredSite: {mapreduce.job.name: `+strings.Repeat("m", 16385)+`}}}`), "spec.config.mapredSite", "values must be at most 16384 characters"),
		Entry("sparkDefaults: a key with a space", cluster(`{config: {sparkDefaults: {"spark executor.memory": "1g"}}}`), "spec.config.sparkDefaults", "keys must be Spark property names"),
		Entry("sparkDefaults: a value over 16384 characters", cluster(`{config: {sparkDefaults: {spark.app.name: `+strings.Repeat("s", 16385)+`}}}`), "spec.config.sparkDefaults", "values must be at most 16384 characters"),
		Entry("mapredSite: the framework", cluster(`{config: {mapredSite: {mapreduce.framework.name: local}}}`), "spec.config.mapredSite", "must not set mapreduce.framework.name"),
		Entry("hadoopEnv: a name with a dot", cluster(`{config: {hadoopEnv: {HADOOP.OPTS: x}}}`), "spec.config.hadoopEnv", "keys must be environment variable names"),
		Entry("hadoopEnv: a value over 16384 characters", cluster(`{config: {hadoopEnv: {HADOOP_OPTS: `+strings.Repeat("o", 16385)+`}}}`), "spec.config.hadoopEnv", "values must be at most 16384 characters"),
		Entry("hadoopEnv: HADOOP_CONF_DIR", cluster(`{config: {hadoopEnv: {HADOOP_CONF_DIR: /etc/hadoop}}}`), "spec.config.hadoopEnv", "must not set HADOOP_CONF_DIR"),
		Entry("cephOptions: an uppercase name", cluster(`{config: {cephOptions: {Client_Cache_Size: "16384"}}}`), "spec.config.cephOptions", "keys must be Ceph option names"),
		Entry("cephOptions: a value over 1024 characters", cluster(`{config: {cephOptions: {client_cache_size: `+strings.Repeat("1", 1025)+`}}}`), "spec.config.cephOptions", "values must be at most 1024 characters"),
		Entry("cephOptions: a value with a comma", cluster(`{config: {cephOptions: {debug_client: "1,5"}}}`), "spec.config.cephOptions", "values must not contain ','"),
		Entry("cephOptions: the monitors", cluster(`{config: {cephOptions: {mon_host: 10.0.0.1}}}`), "spec.config.cephOptions", "must not set client_fs"),
		Entry("cephOptions: the RDMA messenger for every client", cluster(`{config: {cephOptions: {ms_type: async+rdma, ms_async_rdma_device_name: mlx5_0}}}`), "spec.config.cephOptions", "must not choose Ceph's RDMA messenger"),
		Entry("cephOptions: the RDMA messenger on the public network for every client", cluster(`{config: {cephOptions: {ms_public_type: async+rdma}}}`), "spec.config.cephOptions", "set it in spec.network.cephOptions"),
		Entry("cephOptions: the RDMA messenger on the cluster network for every client", cluster(`{config: {cephOptions: {ms_type: async+posix, ms_cluster_type: async+rdma}}}`), "spec.config.cephOptions", "must not choose Ceph's RDMA messenger"),
		Entry("network.cephOptions: an uppercase name", network(`{cephOptions: {MS_TYPE: async+rdma}}`), "spec.network.cephOptions", "keys must be Ceph option names"),
		Entry("network.cephOptions: a value over 1024 characters", network(`{cephOptions: {ms_async_rdma_device_name: `+strings.Repeat("m", 1025)+`}}`), "spec.network.cephOptions", "values must be at most 1024 characters"),
		Entry("network.cephOptions: a value with a comma", network(`{cephOptions: {ms_async_rdma_device_name: "mlx5_0,mlx5_1"}}`), "spec.network.cephOptions", "values must not contain ','"),
		Entry("network.cephOptions: the file system", network(`{cephOptions: {client_fs: other}}`), "spec.network.cephOptions", "must not set client_fs"),
		Entry("network.cephOptions: 17 options", network(`{cephOptions: {`+seventeenOptions()+`}}`), "spec.network.cephOptions", "must have at most 16 items"),

		Entry("metrics: an interval without a unit", metrics(`{podMonitor: {interval: "30"}}`), "spec.metrics.podMonitor.interval", "must be a positive Prometheus duration"),
		Entry("metrics: an interval of Go's form", metrics(`{podMonitor: {interval: 1.5m}}`), "spec.metrics.podMonitor.interval", "must be a positive Prometheus duration"),
		Entry("metrics: units smallest first", metrics(`{podMonitor: {interval: 30s1m}}`), "spec.metrics.podMonitor.interval", "must be a positive Prometheus duration"),
		Entry("metrics: a zero interval", metrics(`{podMonitor: {interval: 0s}}`), "spec.metrics.podMonitor.interval", "must be a positive Prometheus duration"),
		Entry("metrics: a PodMonitor label with the operator's prefix", metrics(`{podMonitor: {labels: {hadoopceph.io/metrics: mine}}}`), "spec.metrics.podMonitor.labels", "must not use the app.kubernetes.io/ or hadoopceph.io/ prefixes"),
		Entry("metrics: a PodMonitor label key with a space", metrics(`{podMonitor: {labels: {"release name": prometheus}}}`), "spec.metrics.podMonitor.labels", "keys must be label keys"),
		Entry("metrics: a PodMonitor label value with a space", metrics(`{podMonitor: {labels: {release: "kube prometheus"}}}`), "spec.metrics.podMonitor.labels[release]", "must be a label value"),

		Entry("network: hostNetwork with attachments", network(`{hostNetwork: true, attachments: [{name: ib}]}`), "spec.network", "hostNetwork cannot be combined with attachments"),
		Entry("network: two attachments on one interface", network(`{attachments: [{name: ib, interfaceName: ib0}, {name: roce, interfaceName: ib0}]}`), "spec.network", "attachments must use distinct interfaceName values"),
		Entry("network: a data interface no attachment provides", network(`{attachments: [{name: ib, interfaceName: ib0}], dataInterface: ib1}`), "spec.network.dataInterface", "must be an interface of the NodeManager pods"),
		Entry("network: a data interface named by position that is taken by a named attachment", network(`{attachments: [{name: ib, interfaceName: ib0}, {name: roce}], dataInterface: net1}`), "spec.network.dataInterface", "must be an interface of the NodeManager pods"),
		Entry("network: a data interface past the attachments and Rook's network", network(`{attachments: [{name: ib}], dataInterface: net3}`), "spec.network.dataInterface", "must be an interface of the NodeManager pods"),
		Entry("network: ib0 without hostNetwork or attachments", network(`{dataInterface: ib0}`), "spec.network.dataInterface", "must be an interface of the NodeManager pods"),
		Entry("network: a data interface with a space", network(`{hostNetwork: true, dataInterface: "ib 0"}`), "spec.network.dataInterface", "must be a network interface name"),
		Entry("network: an extended resource without a domain", network(`{extendedResources: [{name: rdma_shared_device_a}]}`), "spec.network.extendedResources[0].name", "must be an extended resource name"),
		Entry("network: an extended resource of Kubernetes", network(`{extendedResources: [{name: kubernetes.io/memory}]}`), "spec.network.extendedResources[0].name", "must not be in the kubernetes.io domain"),
		Entry("network: an attachment in uppercase", network(`{attachments: [{name: InfiniBand}]}`), "spec.network.attachments[0].name", "lowercase RFC 1123 label"),
		Entry("network: an attachment namespace in uppercase", network(`{attachments: [{name: ib, namespace: Networks}]}`), "spec.network.attachments[0].namespace", "must be a namespace name"),
		Entry("network: an attachment interface with a slash", network(`{attachments: [{name: ib, interfaceName: "ib/0"}]}`), "spec.network.attachments[0].interfaceName", "must be a network interface name"),
		Entry("access: an rpc client with neither selector", access(`{clients: {rpc: [{podSelector: {matchLabels: {app: notebook}}}, {}]}}`), "spec.access.clients.rpc[1].podSelector", "must set podSelector, namespaceSelector or both"),
		Entry("access: a web client with neither selector", access(`{clients: {web: [{}]}}`), "spec.access.clients.web[0].podSelector", "must set podSelector, namespaceSelector or both"),
		Entry("access: a user name with a space", access(`{yarn: {submitters: {users: [alice, "bob smith"]}}}`), "spec.access.yarn.submitters.users[1]", "should match"),
		Entry("access: a group name with a comma", access(`{yarn: {admins: {groups: ["ops,dba"]}}}`), "spec.access.yarn.admins.groups[0]", "should match"),
		Entry("access: everyone as a submitter by name", access(`{yarn: {submitters: {users: ["*"]}}}`), "spec.access.yarn.submitters.users[0]", "should match"),
		Entry("access: a user listed twice", access(`{yarn: {admins: {users: [ops, ops]}}}`), "spec.access.yarn.admins.users[1]", "Duplicate value"),
		Entry("yarnSite: the ACL switch", cluster(`{config: {yarnSite: {yarn.acl.enable: "false"}}}`), "spec.config.yarnSite", "spec.access.yarn"),
		Entry("queues: capacities that do not add up to 100", cluster(`{yarn: {queues: [{name: default, capacity: 60}, {name: etl, capacity: 30}]}}`), "spec.yarn.queues", "must add up to 100"),
		Entry("queues: the default queue stopped", cluster(`{yarn: {queues: [{name: default, capacity: 50, state: Stopped}, {name: etl, capacity: 50}]}}`), "spec.yarn.queues", "must have a queue named default, not stopped"),
		Entry("queues: an unknown state", cluster(`{yarn: {queues: [{name: default, capacity: 100, state: Draining}]}}`), "spec.yarn.queues[0].state", "Unsupported value"),
		Entry("queues: no default queue", cluster(`{yarn: {queues: [{name: etl, capacity: 100}]}}`), "spec.yarn.queues", "must have a queue named default"),
		Entry("queues: root", cluster(`{yarn: {queues: [{name: default, capacity: 50}, {name: root, capacity: 50}]}}`), "spec.yarn.queues[1].name", "root is the parent of every queue"),
		Entry("queues: a dot in a name", cluster(`{yarn: {queues: [{name: default, capacity: 50}, {name: a.b, capacity: 50}]}}`), "spec.yarn.queues[1].name", "should match"),
		Entry("queues: a maximum below the capacity", cluster(`{yarn: {queues: [{name: default, capacity: 50, maximumCapacity: 40}, {name: etl, capacity: 50}]}}`), "spec.yarn.queues[0].maximumCapacity", "must be at least capacity"),
		Entry("queues: a name twice", cluster(`{yarn: {queues: [{name: default, capacity: 50}, {name: default, capacity: 50}]}}`), "spec.yarn.queues[1]", "Duplicate value"),
		Entry("access: 17 rpc clients", access(`{clients: {rpc: [`+strings.Repeat(`{podSelector: {}}, `, 16)+`{podSelector: {}}]}}`), "spec.access.clients.rpc", "must have at most 16 items"),
		Entry("network: the loopback interface on the host's network with two NodeManagers", cluster(`{network: {hostNetwork: true, dataInterface: lo}, nodeManagers: {replicas: 2}}`), "spec.network.dataInterface", "lo is the loopback interface"),
		Entry("network: an attachment on eth0", network(`{attachments: [{name: ib, interfaceName: eth0}]}`), "spec.network.attachments[0].interfaceName", "must not be eth0 or lo"),
	)

	DescribeTable("accepts what Kubernetes accepts",
		func(ctx SpecContext, in spec) {
			Expect(k8sClient.Create(ctx, hadoopCluster(in))).To(Succeed())
		},
		Entry("the minimal spec", cluster(`{}`)),
		Entry("resources with equal requests and limits", cluster(`{resourceManager: {resources: {requests: {cpu: "1", memory: 2Gi}, limits: {cpu: "1", memory: 2Gi}}}}`)),
		Entry("a request without a limit, and a limit without a request", cluster(`{nodeManagers: {resources: {requests: {cpu: "2"}, limits: {memory: 8Gi}}}}`)),
		Entry("requests in other units than the limits", cluster(`{jobHistory: {resources: {requests: {memory: 1024Mi, cpu: 500m}, limits: {memory: 1Gi, cpu: "0.5"}}}}`)),
		Entry("labels, annotations and node selectors as Kubernetes writes them", overrides(`{labels: {team: data-eng, example.com/tier: "", "a": A_1.b}, annotations: {Example.com/Note: "any text, even with spaces"}, nodeSelector: {node.kubernetes.io/instance-type: m5.8xlarge}}`)),
		Entry("a prefixed label of 253 + 63 characters", overrides(`{labels: {`+strings.Repeat("p", 63)+`.`+strings.Repeat("q", 63)+`.`+strings.Repeat("r", 63)+`.`+strings.Repeat("s", 61)+`/`+strings.Repeat("n", 63)+`: v}}`)),
		Entry("Spark defaults with spaces, '=', a backslash and a line break in a value", cluster(`{config: {sparkDefaults: {spark.executor.extraJavaOptions: "-XX:+UseG1GC -Dsep=\\ -Dx=1", spark.app.name: "two\nlines", spark.executor.instances: "4"}}}`)),
		Entry("a priority class", overrides(`{priorityClassName: system-cluster-critical}`)),
		Entry("env vars from every source", overrides(`{env: [{name: A, value: x}, {name: B, valueFrom: {secretKeyRef: {name: s, key: k}}}, {name: C, valueFrom: {fieldRef: {fieldPath: metadata.name}}}, {name: D, value: ""}, {name: my.setting-2, value: "y"}]}`)),
		Entry("tolerations of every form", placement(`{tolerations: [{operator: Exists}, {key: gpu, operator: Exists, effect: NoSchedule}, {key: dedicated, value: hadoop, effect: NoExecute, tolerationSeconds: 300}, {key: example.com/spot, operator: Equal, value: "true"}]}`)),
		Entry("spread constraints", placement(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, minDomains: 3, nodeAffinityPolicy: Honor, nodeTaintsPolicy: Ignore, matchLabelKeys: [pod-template-hash]}, {maxSkew: 2, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: x}}}, {maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: ScheduleAnyway}]}`)),
		Entry("a data interface named by the user", network(`{attachments: [{name: ib, interfaceName: ib0}], dataInterface: ib0}`)),
		Entry("a data interface numbered by Multus", network(`{attachments: [{name: ib, interfaceName: ib0}, {name: roce}], dataInterface: net2}`)),
		Entry("the data interface of Rook's public network, after the attachments", network(`{attachments: [{name: ib}], dataInterface: net2}`)),
		Entry("the data interface of Rook's public network alone", network(`{dataInterface: net1}`)),
		Entry("the pod's primary interface", network(`{dataInterface: eth0}`)),
		Entry("any interface of the node with hostNetwork", network(`{hostNetwork: true, dataInterface: ib0}`)),
		Entry("the nodes' NIC on the host's network with three NodeManagers", cluster(`{network: {hostNetwork: true, dataInterface: eth0}, nodeManagers: {replicas: 3}}`)),
		Entry("the loopback interface on the host's network with one NodeManager", cluster(`{network: {hostNetwork: true, dataInterface: lo}, nodeManagers: {replicas: 1}}`)),
		Entry("a volume claim in a named class", cluster(`{nodeManagers: {localDirs: {volumeClaim: {size: 100Gi, storageClassName: local-nvme}}}}`)),
		Entry("metrics switched off", metrics(`{enabled: false}`)),
		Entry("a PodMonitor for a Prometheus that selects its own label", metrics(`{podMonitor: {labels: {release: kube-prometheus-stack, example.com/team: data}, interval: 1m30s}}`)),
		Entry("scrape intervals of every unit", metrics(`{podMonitor: {interval: 1y2w3d4h5m6s7ms}}`)),
		Entry("a scrape interval in milliseconds", metrics(`{podMonitor: {interval: 500ms}}`)),
		Entry("Prometheus' own scrape interval", metrics(`{podMonitor: {interval: ""}}`)),
		Entry("network policies left to the cluster's owner", access(`{networkPolicies: false}`)),
		Entry("clients by pod, by namespace, and by both", access(`{clients: {rpc: [{podSelector: {matchLabels: {app: notebook}}}, {namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: analysts}}}], web: [{namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: monitoring}}, podSelector: {matchExpressions: [{key: app.kubernetes.io/name, operator: In, values: [prometheus]}]}}]}}`)),
		Entry("YARN admins and submitters by user and group", access(`{yarn: {admins: {users: [ops], groups: [hadoop-admins]}, submitters: {users: [alice, svc.etl, bob@EXAMPLE.COM], groups: [analysts]}}}`)),
		Entry("only admins submit", access(`{yarn: {submitters: {}}}`)),
		Entry("a queue stopped before its removal", cluster(`{yarn: {queues: [{name: default, capacity: 70}, {name: old, capacity: 30, state: Stopped}]}}`)),
		Entry("queues with their own submitters", cluster(`{yarn: {queues: [{name: default, capacity: 70}, {name: etl, capacity: 30, maximumCapacity: 60, submitters: {groups: [etl]}}]}}`)),
		Entry("YARN ACLs off", access(`{yarn: {acls: false}}`)),
		Entry("every pod of the namespace as a client", access(`{clients: {web: [{podSelector: {}}]}}`)),
		Entry("the RDMA messenger for the NodeManagers alone", cluster(`{config: {cephOptions: {ms_type: async+posix, client_oc_size: "104857600"}}, network: {cephOptions: {ms_type: async+rdma, ms_public_type: async+rdma, ms_async_rdma_device_name: mlx5_0}}}`)),
	)

	It("switches metrics on by default", func(ctx SpecContext) {
		hc := hadoopCluster(cluster(`{}`))
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
		Expect(hc.Object["spec"]).To(HaveKeyWithValue("metrics", map[string]any{"enabled": true}))
	})

	It("switches network policies and YARN's ACLs on by default", func(ctx SpecContext) {
		hc := hadoopCluster(cluster(`{}`))
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
		Expect(hc.Object["spec"]).To(HaveKeyWithValue("access", map[string]any{"networkPolicies": true, "yarn": map[string]any{"acls": true}}))
	})

	It("rejects a name too long for the cluster's Services", func(ctx SpecContext) {
		hc := hadoopCluster(cluster(`{}`))
		hc.SetGenerateName("")
		hc.SetName(strings.Repeat("h", 37))
		Expect(k8sClient.Create(ctx, hc)).To(beInvalidAt("metadata", "name must start with a letter and be at most 36 characters"))
	})

	It("rejects a name that starts with a digit", func(ctx SpecContext) {
		hc := hadoopCluster(cluster(`{}`))
		hc.SetGenerateName("")
		hc.SetName("1st-cluster")
		Expect(k8sClient.Create(ctx, hc)).To(beInvalidAt("metadata", "name must start with a letter"))
	})

	It("accepts a name of 36 characters", func(ctx SpecContext) {
		hc := hadoopCluster(cluster(`{}`))
		hc.SetGenerateName("")
		hc.SetName(strings.Repeat("h", 36))
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
	})

	DescribeTable("rejects changes a running cluster cannot take",
		func(ctx SpecContext, created, update spec, field, phrase string) {
			hc := hadoopCluster(created)
			Expect(k8sClient.Create(ctx, hc)).To(Succeed())
			Expect(k8sClient.Patch(ctx, hc, update.specPatch())).To(beInvalidAt(field, phrase))
		},
		Entry("another StorageBackend", cluster(`{}`), spec{patch: `{storageBackendRef: {name: other}}`}, "spec.storageBackendRef", "is immutable: the ResourceManager's state"),
		Entry("emptyDir to volumeClaim", cluster(`{}`), spec{patch: `{nodeManagers: {localDirs: {emptyDir: null, volumeClaim: {size: 10Gi}}}}`}, "spec.nodeManagers.localDirs", "the choice between emptyDir and volumeClaim is immutable"),
		Entry("volumeClaim to emptyDir", cluster(`{nodeManagers: {localDirs: {volumeClaim: {size: 10Gi}}}}`), spec{patch: `{nodeManagers: {localDirs: {volumeClaim: null, emptyDir: {}}}}`}, "spec.nodeManagers.localDirs", "the choice between emptyDir and volumeClaim is immutable"),
		Entry("the volume claim's size", cluster(`{nodeManagers: {localDirs: {volumeClaim: {size: 10Gi}}}}`), spec{patch: `{nodeManagers: {localDirs: {volumeClaim: {size: 20Gi}}}}`}, "spec.nodeManagers.localDirs.volumeClaim", "is immutable: a StatefulSet cannot change its volume claims"),
	)

	It("refuses to scale a cluster on the loopback interface past one NodeManager", func(ctx SpecContext) {
		hc := hadoopCluster(cluster(`{network: {hostNetwork: true, dataInterface: lo}}`))
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
		Expect(k8sClient.Patch(ctx, hc, spec{patch: `{nodeManagers: {replicas: 2}}`}.specPatch())).To(beInvalidAt("spec.network.dataInterface", "lo is the loopback interface"))
	})

	It("accepts changes to everything else of a running cluster", func(ctx SpecContext) {
		hc := hadoopCluster(cluster(`{}`))
		Expect(k8sClient.Create(ctx, hc)).To(Succeed())
		Expect(k8sClient.Patch(ctx, hc, spec{patch: `{nodeManagers: {replicas: 3, localDirs: {emptyDir: {medium: Memory}}}, placement: {nodeSelector: {disk: ssd}}, paused: true}`}.specPatch())).To(Succeed())
	})
})

// seventeenOptions are one Ceph option more than a cephOptions map may hold.
func seventeenOptions() string {
	options := make([]string, 0, 17)
	for i := range 17 {
		options = append(options, fmt.Sprintf("debug_option_%d: %q", i, "1"))
	}
	return strings.Join(options, ", ")
}
