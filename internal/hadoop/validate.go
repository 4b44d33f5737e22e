package hadoop

import (
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validate reports what makes in impossible to build, with the field and what is
// allowed. The API server's rules catch most bad input first; this covers what they
// cannot (memory minimums: parsing the quantities of a ResourceRequirements costs more
// than CEL's budget), what depends on the operator's configuration (the image), the
// owned keys, which the builders would otherwise silently overwrite, and the RDMA
// messenger in spec.config.cephOptions, which a cluster admitted before the API
// refused it may still have.
func Validate(in Input) field.ErrorList {
	spec := in.Cluster.Spec
	path := field.NewPath("spec")
	var errs field.ErrorList

	if in.image() == "" {
		errs = append(errs, field.Required(path.Child("image"), "the operator has no default Hadoop image configured, so the cluster must name one"))
	}

	if _, err := NodeManagerResources(spec.NodeManagers); err != nil {
		errs = append(errs, err)
	}
	if err := validateDaemonMemory(path.Child("resourceManager", "resources"), spec.ResourceManager.Resources); err != nil {
		errs = append(errs, err)
	}
	if in.jobHistoryEnabled() {
		if err := validateDaemonMemory(path.Child("jobHistory", "resources"), spec.JobHistory.Resources); err != nil {
			errs = append(errs, err)
		}
	}

	cfg := path.Child("config")
	errs = append(errs, ownedKeys(cfg.Child("coreSite"), spec.Config.CoreSite, OwnedCoreSiteKeys,
		"the operator sets the default file system and the CephFS connection from the StorageBackend")...)
	errs = append(errs, ownedKeys(cfg.Child("yarnSite"), spec.Config.YarnSite, OwnedYarnSiteKeys,
		"the operator derives it from its Services and volumes, and from spec.nodeManagers")...)
	errs = append(errs, ownedKeys(cfg.Child("mapredSite"), spec.Config.MapredSite, OwnedMapredSiteKeys,
		"MapReduce runs on this cluster's YARN, the JobHistory server is reached through its Service, and the NetworkPolicies open the ApplicationMasters' client ports")...)
	errs = append(errs, ownedKeys(cfg.Child("hadoopEnv"), spec.Config.HadoopEnv, OwnedHadoopEnv,
		"the generated configuration is mounted into the image's configuration directory")...)
	errs = append(errs, ownedKeys(cfg.Child("cephOptions"), spec.Config.CephOptions, OwnedCephOptions,
		"the operator sets it from the StorageBackend, or the connector does")...)
	errs = append(errs, ownedKeys(path.Child("network", "cephOptions"), spec.Network.CephOptions, OwnedCephOptions,
		"the operator sets it from the StorageBackend, or the connector does")...)
	for _, k := range MessengerOptions {
		if v, ok := spec.Config.CephOptions[k]; ok && strings.Contains(v, "rdma") {
			errs = append(errs, field.Invalid(cfg.Child("cephOptions").Key(k), v,
				"Ceph's RDMA messenger works only in pods with an RDMA device, and every Hadoop client gets spec.config.cephOptions: set it in spec.network.cephOptions, which only the NodeManagers and their YARN containers get"))
		}
	}
	return errs
}

// MessengerOptions choose Ceph's messenger. With rdma in their value they belong in
// spec.network.cephOptions, never in spec.config.cephOptions; the CEL rule on the
// latter names the same options.
var MessengerOptions = []string{"ms_type", "ms_public_type", "ms_cluster_type"}

// ownedKeys refuses every key of overrides that is in owned, in key order.
func ownedKeys(path *field.Path, overrides map[string]string, owned []string, why string) field.ErrorList {
	var errs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(overrides)) {
		if slices.Contains(owned, k) {
			errs = append(errs, field.Forbidden(path.Key(k), "is owned by the operator: "+why))
		}
	}
	return errs
}
