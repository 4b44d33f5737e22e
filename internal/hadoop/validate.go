package hadoop

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Validate reports what makes in impossible to build, with the field and what is
// allowed. The API server's rules catch most bad input first; this covers what they
// cannot (memory minimums: parsing the quantities of a ResourceRequirements costs more
// than CEL's budget), what depends on the operator's configuration (the image), and the
// owned keys, which the builders would otherwise silently overwrite.
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
	return errs
}

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
