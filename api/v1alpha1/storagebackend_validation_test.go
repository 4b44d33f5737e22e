package v1alpha1_test

import (
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/hadoopceph/hadoop-ceph-operator/api/v1alpha1"
)

// The smallest valid input of each mode, as a user would write it.
const (
	rookFields     = `{filesystemName: hadoopfs}`
	externalFields = `{monitors: ["10.0.0.1:6789"], filesystemName: cephfs, clientID: hadoop, keySecretRef: {name: ceph-hadoop}}`
	rookBase       = `{cephFS: {rook: ` + rookFields + `}}`
	externalBase   = `{cephFS: {external: ` + externalFields + `}}`
	hdfsBase       = `{hdfs: {nameNodes: [{host: namenode-0.hdfs}]}}`
)

// hdfsSpec is the minimal HDFS spec with patch merged into spec.hdfs.
func hdfsSpec(patch string) spec {
	return spec{base: hdfsBase, patch: `{hdfs: ` + patch + `}`}
}

// rook is the minimal Rook spec with patch merged into spec.cephFS.rook.
func rook(patch string) spec {
	return spec{base: rookBase, patch: `{cephFS: {rook: ` + patch + `}}`}
}

// external is the minimal external spec with patch merged into spec.cephFS.external.
func external(patch string) spec {
	return spec{base: externalBase, patch: `{cephFS: {external: ` + patch + `}}`}
}

// monitors is the minimal external spec with a well-formed first monitor and addr
// second, so a rejection must name monitors[1].
func monitors(addr string) spec {
	return external(`{monitors: ["10.0.0.1", ` + strconv.Quote(addr) + `]}`)
}

var _ = Describe("StorageBackend admission", func() {
	DescribeTable("rejects bad input, naming the field and what it allows",
		func(ctx SpecContext, in spec, field, phrase string) {
			Expect(k8sClient.Create(ctx, storageBackend(in))).To(beInvalidAt(field, phrase))
		},
		Entry("both rook and external", spec{base: rookBase, patch: externalBase}, "spec.cephFS", "exactly one of rook or external must be set"),
		Entry("neither rook nor external", spec{base: rookBase, patch: `{cephFS: {rook: null}}`}, "spec.cephFS", "exactly one of rook or external must be set"),

		Entry("rook: no filesystemName", rook(`{filesystemName: null}`), "spec.cephFS.rook.filesystemName", "Required value"),
		Entry("rook: uppercase filesystemName", rook(`{filesystemName: HadoopFS}`), "spec.cephFS.rook.filesystemName", "lowercase RFC 1123 label"),
		Entry("rook: filesystemName over 40 characters", rook(`{filesystemName: `+strings.Repeat("f", 41)+`}`), "spec.cephFS.rook.filesystemName", "may not be more than 40"),
		Entry("rook: namespace with uppercase", rook(`{namespace: Rook-Ceph}`), "spec.cephFS.rook.namespace", "must be a namespace name"),

		Entry("rook: EC dataChunks < 2", rook(`{dataPool: {erasureCoded: {dataChunks: 1, codingChunks: 2}}}`), "spec.cephFS.rook.dataPool.erasureCoded.dataChunks", "greater than or equal to 2"),
		Entry("rook: EC codingChunks < 1", rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 0}}}`), "spec.cephFS.rook.dataPool.erasureCoded.codingChunks", "greater than or equal to 1"),
		Entry("rook: EC dataChunks > 32", rook(`{dataPool: {erasureCoded: {dataChunks: 33, codingChunks: 2}}}`), "spec.cephFS.rook.dataPool.erasureCoded.dataChunks", "less than or equal to 32"),
		Entry("rook: EC codingChunks > 16", rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 17}}}`), "spec.cephFS.rook.dataPool.erasureCoded.codingChunks", "less than or equal to 16"),
		Entry("rook: EC without codingChunks", rook(`{dataPool: {erasureCoded: {dataChunks: 4}}}`), "spec.cephFS.rook.dataPool.erasureCoded.codingChunks", "Required value"),
		Entry("rook: replicated size < 1", rook(`{dataPool: {replicated: {size: 0}}}`), "spec.cephFS.rook.dataPool.replicated.size", "greater than or equal to 1"),
		Entry("rook: replicated size > 10", rook(`{dataPool: {replicated: {size: 11}}}`), "spec.cephFS.rook.dataPool.replicated.size", "less than or equal to 10"),
		Entry("rook: metadataPool size < 1", rook(`{metadataPool: {size: 0}}`), "spec.cephFS.rook.metadataPool.size", "greater than or equal to 1"),
		Entry("rook: metadataPool size > 10", rook(`{metadataPool: {size: 11}}`), "spec.cephFS.rook.metadataPool.size", "less than or equal to 10"),
		Entry("rook: data pool both replicated and erasureCoded", rook(`{dataPool: {replicated: {size: 3}, erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), "spec.cephFS.rook.dataPool", "exactly one of replicated or erasureCoded must be set"),
		Entry("rook: data pool neither replicated nor erasureCoded", rook(`{dataPool: {}}`), "spec.cephFS.rook.dataPool", "exactly one of replicated or erasureCoded must be set"),
		Entry("rook: activeCount < 1", rook(`{metadataServer: {activeCount: 0}}`), "spec.cephFS.rook.metadataServer.activeCount", "greater than or equal to 1"),
		Entry("rook: uppercase failureDomain", rook(`{failureDomain: Host}`), "spec.cephFS.rook.failureDomain", "CRUSH bucket type such as host, osd, rack or zone"),
		Entry("rook: deviceClass with a space", rook(`{deviceClass: "fast ssd"}`), "spec.cephFS.rook.deviceClass", "device class name such as hdd, ssd or nvme"),

		Entry("rook: relative rootPath", rook(`{rootPath: volumes/hadoop}`), "spec.cephFS.rook.rootPath", "must be an absolute path"),
		Entry("rook: rootPath with ..", rook(`{rootPath: /volumes/../hadoop}`), "spec.cephFS.rook.rootPath", "must not contain '..'"),
		Entry("rook: rootPath that is only ..", rook(`{rootPath: /volumes/..}`), "spec.cephFS.rook.rootPath", "must not contain '..'"),
		Entry("rook: rootPath outside /volumes", rook(`{rootPath: /hadoop}`), "spec.cephFS.rook.rootPath", "must be /volumes/<group>"),
		Entry("rook: rootPath below a group", rook(`{rootPath: /volumes/hadoop/data}`), "spec.cephFS.rook.rootPath", "must be /volumes/<group>"),
		Entry("rook: rootPath with an uppercase group", rook(`{rootPath: /volumes/Hadoop}`), "spec.cephFS.rook.rootPath", "must be /volumes/<group>"),
		Entry("rook: rootPath /volumes alone", rook(`{rootPath: /volumes}`), "spec.cephFS.rook.rootPath", "must be /volumes/<group>"),

		Entry("rook: uppercase clientName", rook(`{clientName: Hadoop}`), "spec.cephFS.rook.clientName", "lowercase RFC 1123 label"),
		Entry("rook: clientName over 63 characters", rook(`{clientName: `+strings.Repeat("h", 64)+`}`), "spec.cephFS.rook.clientName", "may not be more than 63"),
		Entry("rook: clientName admin", rook(`{clientName: admin}`), "spec.cephFS.rook.clientName", "must not be admin"),
		Entry("rook: clientName with a dot", rook(`{clientName: hadoop.prod}`), "spec.cephFS.rook.clientName", "lowercase RFC 1123 label"),
		Entry("rook: clientName with an underscore", rook(`{clientName: hadoop_prod}`), "spec.cephFS.rook.clientName", "lowercase RFC 1123 label"),
		Entry("rook: clientName ending in -", rook(`{clientName: hadoop-}`), "spec.cephFS.rook.clientName", "lowercase RFC 1123 label"),

		Entry("external: relative rootPath", external(`{rootPath: hadoop}`), "spec.cephFS.external.rootPath", "must be an absolute path"),
		Entry("external: rootPath with ..", external(`{rootPath: /hadoop/../etc}`), "spec.cephFS.external.rootPath", "must not contain '..'"),
		Entry("external: rootPath ending in ..", external(`{rootPath: /hadoop/..}`), "spec.cephFS.external.rootPath", "must not contain '..'"),
		Entry("external: clientID with a space", external(`{clientID: "hadoop user"}`), "spec.cephFS.external.clientID", "letters, digits, '.', '_' and '-'"),
		Entry("external: clientID with a slash", external(`{clientID: hadoop/prod}`), "spec.cephFS.external.clientID", "letters, digits, '.', '_' and '-'"),
		Entry("external: clientID starting with -", external(`{clientID: -hadoop}`), "spec.cephFS.external.clientID", "starting with a letter or digit"),
		Entry("external: clientID with the client. prefix", external(`{clientID: client.hadoop}`), "spec.cephFS.external.clientID", "must not start with client."),
		Entry("external: empty clientID", external(`{clientID: ""}`), "spec.cephFS.external.clientID", "at least 1 chars long"),
		Entry("external: evictor with the client. prefix", external(`{evictor: {clientID: client.hadoop-evictor, keySecretRef: {name: ceph-evictor}}}`), "spec.cephFS.external.evictor.clientID", "must not start with client."),
		Entry("external: evictor without a key Secret", external(`{evictor: {clientID: hadoop-evictor}}`), "spec.cephFS.external.evictor.keySecretRef", "Required value"),
		Entry("external: clientID over 64 characters", external(`{clientID: `+strings.Repeat("h", 65)+`}`), "spec.cephFS.external.clientID", "may not be more than 64"),
		Entry("external: filesystemName with a space", external(`{filesystemName: "ceph fs"}`), "spec.cephFS.external.filesystemName", "letters, digits, '.', '_' and '-'"),
		Entry("external: empty monitors", external(`{monitors: []}`), "spec.cephFS.external.monitors", "at least 1 items"),
		Entry("external: no monitors", external(`{monitors: null}`), "spec.cephFS.external.monitors", "Required value"),
		Entry("external: more than 16 monitors", external(`{monitors: [`+strings.TrimSuffix(strings.Repeat("10.0.0.1, ", 17), ", ")+`]}`), "spec.cephFS.external.monitors", "at most 16 items"),
		Entry("external: no keySecretRef", external(`{keySecretRef: null}`), "spec.cephFS.external.keySecretRef", "Required value"),
		Entry("external: keySecretRef without name", external(`{keySecretRef: {name: null, key: key}}`), "spec.cephFS.external.keySecretRef.name", "Required value"),
		Entry("external: keySecretRef with an empty name", external(`{keySecretRef: {name: ""}}`), "spec.cephFS.external.keySecretRef.name", "at least 1 chars long"),
		Entry("external: data pool both replicated and erasureCoded", external(`{dataPool: {name: data, replicated: {size: 3}, erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), "spec.cephFS.external.dataPool", "at most one of replicated or erasureCoded may be set"),
		Entry("external: data pool without name", external(`{dataPool: {replicated: {size: 3}}}`), "spec.cephFS.external.dataPool.name", "Required value"),
		Entry("external: EC dataChunks < 2", external(`{dataPool: {name: data, erasureCoded: {dataChunks: 1, codingChunks: 1}}}`), "spec.cephFS.external.dataPool.erasureCoded.dataChunks", "greater than or equal to 2"),
		Entry("external: replicated size > 10", external(`{dataPool: {name: data, replicated: {size: 11}}}`), "spec.cephFS.external.dataPool.replicated.size", "less than or equal to 10"),

		Entry("both cephFS and hdfs", spec{base: rookBase, patch: hdfsBase}, "spec", "exactly one of cephFS or hdfs must be set"),
		Entry("neither cephFS nor hdfs", spec{base: hdfsBase, patch: `{hdfs: null}`}, "spec", "exactly one of cephFS or hdfs must be set"),
		Entry("hdfs: both nameNodes and discoveryConfigMap", hdfsSpec(`{discoveryConfigMap: {name: simple-hdfs}}`), "spec.hdfs", "exactly one of nameNodes or discoveryConfigMap must be set"),
		Entry("hdfs: neither nameNodes nor discoveryConfigMap", hdfsSpec(`{nameNodes: null}`), "spec.hdfs", "exactly one of nameNodes or discoveryConfigMap must be set"),
		Entry("hdfs: empty nameNodes", hdfsSpec(`{nameNodes: []}`), "spec.hdfs.nameNodes", "at least 1 items"),
		Entry("hdfs: a NameNode host with a port", hdfsSpec(`{nameNodes: [{host: "namenode:8020"}]}`), "spec.hdfs.nameNodes[0].host", "must be a DNS name or an IP address, without a port or scheme"),
		Entry("hdfs: a NameNode host as a URI", hdfsSpec(`{nameNodes: [{host: "hdfs://namenode"}]}`), "spec.hdfs.nameNodes[0].host", "must be a DNS name or an IP address, without a port or scheme"),
		Entry("hdfs: rpcPort 0", hdfsSpec(`{nameNodes: [{host: namenode, rpcPort: 0}]}`), "spec.hdfs.nameNodes[0].rpcPort", "greater than or equal to 1"),
		Entry("hdfs: httpPort above 65535", hdfsSpec(`{nameNodes: [{host: namenode, httpPort: 70000}]}`), "spec.hdfs.nameNodes[0].httpPort", "less than or equal to 65535"),
		Entry("hdfs: a discovery ConfigMap with an uppercase name", hdfsSpec(`{nameNodes: null, discoveryConfigMap: {name: Simple}}`), "spec.hdfs.discoveryConfigMap.name", "lowercase RFC 1123 subdomain"),
	)

	It("defaults an HDFS NameNode's ports to Hadoop's", func(ctx SpecContext) {
		sb := storageBackend(spec{base: hdfsBase})
		Expect(k8sClient.Create(ctx, sb)).To(Succeed())
		nn, _, _ := unstructured.NestedSlice(sb.Object, "spec", "hdfs", "nameNodes")
		Expect(nn).To(Equal([]any{map[string]any{"host": "namenode-0.hdfs", "rpcPort": int64(8020), "httpPort": int64(9870)}}))
	})

	DescribeTable("accepts a well-formed monitor address",
		func(ctx SpecContext, addr string) {
			Expect(k8sClient.Create(ctx, storageBackend(monitors(addr)))).To(Succeed())
		},
		EntryDescription("%q"),
		Entry(nil, "10.0.0.1"),
		Entry(nil, "10.0.0.1:6789"),
		Entry(nil, "v2:10.0.0.1:3300"),
		Entry(nil, "v1:10.0.0.1:6789"),
		Entry(nil, "10.0.0.1:6789/0"),
		Entry(nil, "[2001:db8::1]"),
		Entry(nil, "[2001:db8::1]:6789"),
		Entry(nil, "v2:[2001:db8::1]:3300"),
		Entry(nil, "mon-a"),
		Entry(nil, "mon-a.example.com:6789"),
		Entry(nil, "[v2:10.0.0.1:3300,v1:10.0.0.1:6789]"),
		Entry(nil, "[v2:10.0.0.1:3300/0,v1:10.0.0.1:6789/0]"),
		Entry(nil, "[v2:[2001:db8::1]:3300,v1:[2001:db8::1]:6789]"),
		Entry(nil, "10.0.0.1:65535"),
		Entry(nil, "[::1]:1"),
	)

	DescribeTable("rejects a malformed monitor address at its index",
		func(ctx SpecContext, addr string) {
			Expect(k8sClient.Create(ctx, storageBackend(monitors(addr)))).
				To(beInvalidAt("spec.cephFS.external.monitors[1]", "must be a monitor address such as 10.0.0.1, 10.0.0.1:6789"))
		},
		EntryDescription("%q"),
		Entry(nil, ""),
		Entry(nil, "10.0.0.1:"),
		Entry(nil, "http://10.0.0.1"),
		Entry(nil, "10.0.0.1:6789:1"),
		Entry(nil, "mon a"),
		Entry(nil, "[v2:10.0.0.1:3300"),
		Entry(nil, "v3:10.0.0.1:3300"),
		Entry(nil, "-mon.example.com"),
		Entry(nil, "10.0.0.1,10.0.0.2"),
		Entry(nil, "10.0.0.1:65536"),
		Entry(nil, "10.0.0.1:99999"),
		Entry(nil, "10.0.0.1:0"),
		Entry(nil, "[10.0.0.1]"),
		Entry(nil, "v2:[10.0.0.1]:3300"),
		Entry(nil, "[v2:10.0.0.1:3300,v1:10.0.0.1:70000]"),
		Entry(nil, "[v2:10.0.0.1:3300,]"),
		Entry(nil, "[v2:mon a:3300]"),
		Entry(nil, "2001:db8::1"),
	)

	DescribeTable("rejects changing what cannot change after creation",
		func(ctx SpecContext, created, update spec, field, phrase string) {
			sb := storageBackend(created)
			Expect(k8sClient.Create(ctx, sb)).To(Succeed())
			Expect(k8sClient.Patch(ctx, sb, update.specPatch())).To(beInvalidAt(field, phrase))
		},
		Entry("rook -> external", rook(`{}`), spec{patch: `{cephFS: {rook: null, external: ` + externalFields + `}}`}, "spec.cephFS", "the choice between rook and external is immutable"),
		Entry("external -> rook", external(`{}`), spec{patch: `{cephFS: {external: null, rook: ` + rookFields + `}}`}, "spec.cephFS", "the choice between rook and external is immutable"),
		Entry("cephFS -> hdfs", rook(`{}`), spec{patch: `{cephFS: null, hdfs: {nameNodes: [{host: namenode}]}}`}, "spec", "the choice between cephFS and hdfs is immutable"),
		Entry("hdfs -> cephFS", spec{base: hdfsBase}, spec{patch: `{hdfs: null, cephFS: {rook: ` + rookFields + `}}`}, "spec", "the choice between cephFS and hdfs is immutable"),
		Entry("rook filesystemName", rook(`{}`), rook(`{filesystemName: otherfs}`), "spec.cephFS.rook.filesystemName", "is immutable"),
		Entry("external filesystemName", external(`{}`), external(`{filesystemName: otherfs}`), "spec.cephFS.external.filesystemName", "is immutable"),
		Entry("replicated -> erasureCoded", rook(`{}`), rook(`{dataPool: {replicated: null, erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), "spec.cephFS.rook.dataPool", "the pool kind (replicated or erasureCoded) is immutable"),
		Entry("erasureCoded -> replicated", rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), rook(`{dataPool: {erasureCoded: null, replicated: {size: 3}}}`), "spec.cephFS.rook.dataPool", "the pool kind (replicated or erasureCoded) is immutable"),
		Entry("EC dataChunks", rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), rook(`{dataPool: {erasureCoded: {dataChunks: 6}}}`), "spec.cephFS.rook.dataPool.erasureCoded", "is immutable"),
		Entry("EC codingChunks", rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), rook(`{dataPool: {erasureCoded: {codingChunks: 3}}}`), "spec.cephFS.rook.dataPool.erasureCoded", "is immutable"),
		Entry("rook rootPath", rook(`{}`), rook(`{rootPath: /volumes/other}`), "spec.cephFS.rook.rootPath", "is immutable"),
		Entry("rook rootPath cleared back to its default", rook(`{rootPath: /volumes/analytics}`), rook(`{rootPath: null}`), "spec.cephFS.rook.rootPath", "is immutable"),
		Entry("external rootPath", external(`{rootPath: /hadoop}`), external(`{rootPath: /other}`), "spec.cephFS.external.rootPath", "is immutable"),
		Entry("clientName", rook(`{clientName: hadoop}`), rook(`{clientName: hadoop2}`), "spec.cephFS.rook.clientName", "is immutable"),
		Entry("clientName set after creation", rook(`{}`), rook(`{clientName: hadoop}`), "spec.cephFS.rook.clientName", "is immutable"),
		Entry("clientName cleared after creation", rook(`{clientName: hadoop}`), rook(`{clientName: null}`), "spec.cephFS.rook.clientName", "is immutable"),
		Entry("rook namespace", rook(`{namespace: rook-ceph}`), rook(`{namespace: other-rook}`), "spec.cephFS.rook.namespace", "is immutable"),
		Entry("rook namespace set after creation", rook(`{}`), rook(`{namespace: rook-ceph}`), "spec.cephFS.rook.namespace", "is immutable"),
		Entry("adoptExisting turned off", rook(`{adoptExisting: true}`), rook(`{adoptExisting: false}`), "spec.cephFS.rook.adoptExisting", "is immutable"),
	)

	DescribeTable("accepts updates that Ceph can carry out, storing them as sent",
		func(ctx SpecContext, created, update spec) {
			sb := storageBackend(created)
			Expect(k8sClient.Create(ctx, sb)).To(Succeed())
			want := mergeSpec(specJSON(sb), update.patch)

			Expect(k8sClient.Patch(ctx, sb, update.specPatch())).To(Succeed())
			Expect(sb.Object["spec"]).To(Equal(want))
		},
		Entry("replicated size 2 -> 3", rook(`{dataPool: {replicated: {size: 2}}}`), rook(`{dataPool: {replicated: {size: 3}}}`)),
		Entry("metadataPool size 3 -> 5", rook(`{}`), rook(`{metadataPool: {size: 5}}`)),
		Entry("metadataPool size next to an EC data pool", rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), rook(`{metadataPool: {size: 2}}`)),
		Entry("EC pool sent again unchanged", rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 2}}}`)),
		Entry("MDS activeCount and activeStandby", rook(`{}`), rook(`{metadataServer: {activeCount: 2, activeStandby: false}}`)),
		Entry("failureDomain and deviceClass", rook(`{}`), rook(`{failureDomain: rack, deviceClass: ssd}`)),
		Entry("preserveOnDelete", rook(`{}`), rook(`{preserveOnDelete: false}`)),
		Entry("paused", rook(`{}`), spec{patch: `{paused: true}`}),
		Entry("something else next to a clientName", rook(`{clientName: hadoop}`), rook(`{metadataPool: {size: 2}}`)),
		Entry("clientName sent again unchanged", rook(`{clientName: hadoop}`), rook(`{clientName: hadoop}`)),
		Entry("external monitors", external(`{}`), external(`{monitors: ["v2:10.0.0.2:3300", "v2:10.0.0.3:3300"]}`)),
		Entry("external clientID and key", external(`{}`), external(`{clientID: hadoop2, keySecretRef: {name: ceph-hadoop2, key: keyring}}`)),
		Entry("external data pool", external(`{}`), external(`{dataPool: {name: cephfs.data.ec, erasureCoded: {dataChunks: 4, codingChunks: 2}}}`)),
	)

	Describe("defaults", func() {
		// created returns the stored spec.cephFS.<mode> of a new StorageBackend.
		created := func(ctx SpecContext, in spec, mode string) map[string]any {
			GinkgoHelper()
			sb := storageBackend(in)
			Expect(k8sClient.Create(ctx, sb)).To(Succeed())
			stored, found, err := unstructured.NestedMap(sb.Object, "spec", "cephFS", mode)
			Expect(err).NotTo(HaveOccurred())
			Expect(found).To(BeTrue())
			return stored
		}

		It("fills in a minimal rook spec", func(ctx SpecContext) {
			Expect(created(ctx, rook(`{}`), "rook")).To(Equal(map[string]any{
				"filesystemName":   "hadoopfs",
				"rootPath":         "/volumes/hadoop",
				"metadataPool":     map[string]any{"size": int64(3)},
				"dataPool":         map[string]any{"replicated": map[string]any{"size": int64(3)}},
				"failureDomain":    "host",
				"metadataServer":   map[string]any{"activeCount": int64(1), "activeStandby": true},
				"preserveOnDelete": true,
				"evictDeadClients": true,
				"adoptExisting":    false,
			}))
		})

		It("fills in the MDS fields left out of a partial metadataServer", func(ctx SpecContext) {
			Expect(created(ctx, rook(`{metadataServer: {activeCount: 2}}`), "rook")).
				To(HaveKeyWithValue("metadataServer", map[string]any{"activeCount": int64(2), "activeStandby": true}))
		})

		It("does not add a replicated pool next to an erasure-coded one", func(ctx SpecContext) {
			Expect(created(ctx, rook(`{dataPool: {erasureCoded: {dataChunks: 4, codingChunks: 2}}}`), "rook")).
				To(HaveKeyWithValue("dataPool", map[string]any{"erasureCoded": map[string]any{"dataChunks": int64(4), "codingChunks": int64(2)}}))
		})

		It("fills in a minimal external spec", func(ctx SpecContext) {
			Expect(created(ctx, external(`{}`), "external")).To(Equal(map[string]any{
				"monitors":       []any{"10.0.0.1:6789"},
				"filesystemName": "cephfs",
				"clientID":       "hadoop",
				"keySecretRef":   map[string]any{"name": "ceph-hadoop", "key": "key"},
				"rootPath":       "/",
			}))
		})
	})

	// The operator and its tests build StorageBackends in Go: what they leave out must
	// reach the server as absent, or the defaults above never apply.
	Describe("through the Go types", func() {
		It("defaults a spec that sets only the file system name", func(ctx SpecContext) {
			sb := &v1alpha1.StorageBackend{
				ObjectMeta: metav1.ObjectMeta{Namespace: namespace, GenerateName: "sb-"},
				Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{
					Rook: &v1alpha1.RookCephFS{FilesystemName: "hadoopfs"},
				}},
			}
			Expect(k8sClient.Create(ctx, sb)).To(Succeed())
			Expect(sb.Spec.CephFS.Rook).To(Equal(&v1alpha1.RookCephFS{
				FilesystemName:   "hadoopfs",
				AdoptExisting:    false,
				MetadataPool:     v1alpha1.ReplicatedPool{Size: 3},
				DataPool:         v1alpha1.DataPool{Replicated: &v1alpha1.ReplicatedPool{Size: 3}},
				FailureDomain:    "host",
				MetadataServer:   v1alpha1.MetadataServer{ActiveCount: 1, ActiveStandby: ptr.To(true)},
				RootPath:         "/volumes/hadoop",
				EvictDeadClients: ptr.To(true),
				PreserveOnDelete: ptr.To(true),
			}))
		})

		It("keeps activeStandby false across a full update", func(ctx SpecContext) {
			sb := &v1alpha1.StorageBackend{
				ObjectMeta: metav1.ObjectMeta{Namespace: namespace, GenerateName: "sb-"},
				Spec: v1alpha1.StorageBackendSpec{CephFS: v1alpha1.CephFSSpec{
					Rook: &v1alpha1.RookCephFS{
						FilesystemName: "hadoopfs",
						MetadataServer: v1alpha1.MetadataServer{ActiveStandby: ptr.To(false)},
					},
				}},
			}
			Expect(k8sClient.Create(ctx, sb)).To(Succeed())
			Expect(sb.Spec.CephFS.Rook.MetadataServer.ActiveStandby).To(HaveValue(BeFalse()))

			sb.Spec.Paused = true
			Expect(k8sClient.Update(ctx, sb)).To(Succeed())
			Expect(k8sClient.Get(ctx, client.ObjectKeyFromObject(sb), sb)).To(Succeed())
			Expect(sb.Spec.CephFS.Rook.MetadataServer.ActiveStandby).To(HaveValue(BeFalse()))
		})
	})
})
