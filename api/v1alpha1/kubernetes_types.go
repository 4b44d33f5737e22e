package v1alpha1

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The types in this file carry Kubernetes' own fields (labels, tolerations, spread
// constraints, environment variables) into our specs. The API server validates those
// fields only when the operator applies the StatefulSet built from them, so a mistake
// would surface as a failed apply far from the manifest. Each type therefore repeats,
// as CEL rules, the checks Kubernetes applies to the same field of a pod, and reports
// them at admission under the field the user wrote. Regular expressions stand in for
// CEL's format library, which needs Kubernetes 1.31; the CRDs support 1.30.
//
// Rules in a type's doc comment test for empty strings with size(), never with two
// single quotes: gofmt rewrites those in doc comments as a typographic quote, which
// CEL cannot parse.
//
// Where these rules differ from Kubernetes' own, they are stricter in a way a
// Kubernetes 1.30 pod would be too: environment variable names follow the pre-1.34
// form.

// Labels is a set of Kubernetes labels: qualified-name keys and label values. Node
// selectors use it too, since they match node labels.
// +kubebuilder:validation:XValidation:rule="self.all(k, k.matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$') && k.indexOf('/') <= 253)",message="keys must be label keys: an optional DNS subdomain prefix of at most 253 characters and '/', then a name of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit, such as app or example.com/tier"
type Labels map[string]LabelValue

// LabelValue is the value of a label. A type of its own, so that its length is bounded
// where the API server estimates the cost of checking it.
// +kubebuilder:validation:MaxLength=63
// +kubebuilder:validation:XValidation:rule="self.matches('^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$')",message="must be a label value: empty, or at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
type LabelValue string

// Strings is the set as the map Kubernetes' own types take.
func (l Labels) Strings() map[string]string {
	if l == nil {
		return nil
	}
	out := make(map[string]string, len(l))
	for k, v := range l {
		out[k] = string(v)
	}
	return out
}

// Annotations is a set of Kubernetes annotations; their keys follow label keys' form,
// case aside.
// +kubebuilder:validation:XValidation:rule="self.all(k, k.lowerAscii().matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[a-z0-9]([-a-z0-9_.]{0,61}[a-z0-9])?$') && k.indexOf('/') <= 253)",message="keys must be annotation keys: an optional DNS subdomain prefix of at most 253 characters and '/', then a name of at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
type Annotations map[string]string

// Toleration is a pod toleration with the checks the API server applies to a pod's.
// Kubernetes' own type leaves its strings unbounded, which CEL cannot afford to check.
// +kubebuilder:validation:XValidation:rule="(has(self.key) && self.key.size() > 0) || (has(self.operator) && self.operator == 'Exists')",message="must be Exists when key is empty: only Exists can match every taint",fieldPath=".operator"
// +kubebuilder:validation:XValidation:rule="!has(self.value) || self.value.size() == 0 || !has(self.operator) || self.operator != 'Exists'",message="must be empty when operator is Exists",fieldPath=".value"
// +kubebuilder:validation:XValidation:rule="!has(self.tolerationSeconds) || (has(self.effect) && self.effect == 'NoExecute')",message="applies only to effect NoExecute: the other effects never evict",fieldPath=".tolerationSeconds"
type Toleration struct {
	// Key of the taint to tolerate; empty with operator Exists tolerates every taint.
	// +kubebuilder:validation:MaxLength=317
	// +kubebuilder:validation:XValidation:rule="self == '' || (self.matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$') && self.indexOf('/') <= 253)",message="must be a taint key: an optional DNS subdomain prefix and '/', then a name of at most 63 letters, digits, '-', '_' or '.', such as node-role.kubernetes.io/storage"
	// +optional
	Key string `json:"key,omitempty"`

	// Operator compares key and value: Equal (the default) or Exists.
	// +kubebuilder:validation:Enum="";Exists;Equal
	// +optional
	Operator corev1.TolerationOperator `json:"operator,omitempty"`

	// Value the taint must have with operator Equal.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:XValidation:rule="self.matches('^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$')",message="must be a taint value: empty, or at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit"
	// +optional
	Value string `json:"value,omitempty"`

	// Effect of the taint to tolerate; empty tolerates all three.
	// +kubebuilder:validation:Enum="";NoSchedule;PreferNoSchedule;NoExecute
	// +optional
	Effect corev1.TaintEffect `json:"effect,omitempty"`

	// TolerationSeconds a NoExecute taint is tolerated before eviction; unset
	// tolerates it for ever.
	// +optional
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty"`
}

// Tolerations converts to Kubernetes' own type.
func Tolerations(in []Toleration) []corev1.Toleration {
	if in == nil {
		return nil
	}
	out := make([]corev1.Toleration, 0, len(in))
	for _, t := range in {
		out = append(out, corev1.Toleration{Key: t.Key, Operator: t.Operator, Value: t.Value, Effect: t.Effect, TolerationSeconds: t.TolerationSeconds})
	}
	return out
}

// TopologySpreadConstraint is a pod topology spread constraint with the checks the API
// server applies to a pod's. Kubernetes' own type leaves topologyKey unbounded, which
// CEL cannot afford to check.
// +kubebuilder:validation:XValidation:rule="!has(self.minDomains) || self.whenUnsatisfiable == 'DoNotSchedule'",message="applies only with whenUnsatisfiable DoNotSchedule",fieldPath=".minDomains"
type TopologySpreadConstraint struct {
	// MaxSkew is the largest difference allowed between the pods of two domains.
	// +kubebuilder:validation:Minimum=1
	MaxSkew int32 `json:"maxSkew"`

	// TopologyKey is the node label whose values are the domains.
	// +kubebuilder:validation:MaxLength=317
	// +kubebuilder:validation:XValidation:rule="self.matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$') && self.indexOf('/') <= 253",message="must be a node label key, such as topology.kubernetes.io/zone or kubernetes.io/hostname"
	TopologyKey string `json:"topologyKey"`

	// WhenUnsatisfiable is DoNotSchedule or ScheduleAnyway.
	// +kubebuilder:validation:Enum=DoNotSchedule;ScheduleAnyway
	WhenUnsatisfiable corev1.UnsatisfiableConstraintAction `json:"whenUnsatisfiable"`

	// LabelSelector finds the pods to spread; the role's own pods when unset.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`

	// MinDomains is the number of eligible domains below which the global minimum is 0.
	// +kubebuilder:validation:Minimum=1
	// +optional
	MinDomains *int32 `json:"minDomains,omitempty"`

	// NodeAffinityPolicy decides whether the pod's node affinity limits the domains.
	// +kubebuilder:validation:Enum=Honor;Ignore
	// +optional
	NodeAffinityPolicy *corev1.NodeInclusionPolicy `json:"nodeAffinityPolicy,omitempty"`

	// NodeTaintsPolicy decides whether node taints limit the domains.
	// +kubebuilder:validation:Enum=Honor;Ignore
	// +optional
	NodeTaintsPolicy *corev1.NodeInclusionPolicy `json:"nodeTaintsPolicy,omitempty"`

	// MatchLabelKeys are pod label keys whose values join the label selector.
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=317
	// +listType=atomic
	// +optional
	MatchLabelKeys []string `json:"matchLabelKeys,omitempty"`
}

// Kubernetes is the constraint in Kubernetes' own type.
func (t TopologySpreadConstraint) Kubernetes() corev1.TopologySpreadConstraint {
	return corev1.TopologySpreadConstraint{
		MaxSkew:            t.MaxSkew,
		TopologyKey:        t.TopologyKey,
		WhenUnsatisfiable:  t.WhenUnsatisfiable,
		LabelSelector:      t.LabelSelector.DeepCopy(),
		MinDomains:         t.MinDomains,
		NodeAffinityPolicy: t.NodeAffinityPolicy,
		NodeTaintsPolicy:   t.NodeTaintsPolicy,
		MatchLabelKeys:     slices.Clone(t.MatchLabelKeys),
	}
}

// EnvVar is a container environment variable with the checks the API server applies
// to a container's, except for the names inside valueFrom's key references, which
// Kubernetes' own type leaves unbounded; the API server reports those on the
// StatefulSet.
// +kubebuilder:validation:XValidation:rule="!has(self.valueFrom) || !has(self.value) || self.value.size() == 0",message="cannot be combined with value",fieldPath=".valueFrom"
// +kubebuilder:validation:XValidation:rule="!has(self.valueFrom) || [has(self.valueFrom.fieldRef), has(self.valueFrom.resourceFieldRef), has(self.valueFrom.configMapKeyRef), has(self.valueFrom.secretKeyRef), has(self.valueFrom.fileKeyRef)].filter(x, x).size() == 1",message="must set exactly one of fieldRef, resourceFieldRef, configMapKeyRef, secretKeyRef or fileKeyRef",fieldPath=".valueFrom"
type EnvVar struct {
	// Name of the variable.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:XValidation:rule="self.matches('^[-._a-zA-Z][-._a-zA-Z0-9]*$')",message="must be an environment variable name: letters, digits, '_', '-' or '.', not starting with a digit"
	Name string `json:"name"`

	// Value of the variable.
	// +optional
	Value string `json:"value,omitempty"`

	// ValueFrom takes the value from a field, a resource, a ConfigMap, a Secret or a file.
	// +optional
	ValueFrom *corev1.EnvVarSource `json:"valueFrom,omitempty"`
}

// Kubernetes is the variable in Kubernetes' own type.
func (e EnvVar) Kubernetes() corev1.EnvVar {
	return corev1.EnvVar{Name: e.Name, Value: e.Value, ValueFrom: e.ValueFrom.DeepCopy()}
}
