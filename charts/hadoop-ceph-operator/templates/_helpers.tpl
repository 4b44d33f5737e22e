{{- define "hadoop-ceph-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "hadoop-ceph-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "hadoop-ceph-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "hadoop-ceph-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "hadoop-ceph-operator.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{ include "hadoop-ceph-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "hadoop-ceph-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "hadoop-ceph-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- required "serviceAccount.name must name an existing ServiceAccount when serviceAccount.create is false" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "hadoop-ceph-operator.subjects" -}}
- kind: ServiceAccount
  name: {{ include "hadoop-ceph-operator.serviceAccountName" . }}
  namespace: {{ .Release.Namespace }}
{{- end }}

{{/*
Whether the manager runs with --leader-elect: "true" or "". Two replicas without it
would both reconcile.
*/}}
{{- define "hadoop-ceph-operator.leaderElect" -}}
{{- if or .Values.leaderElection.enabled (gt (int .Values.replicaCount) 1) }}true{{ end }}
{{- end }}

{{/*
Where the manager finds metrics.certSecret's certificate and key (--metrics-cert-dir).
*/}}
{{- define "hadoop-ceph-operator.metricsCertDir" -}}
/etc/hadoop-ceph-operator/metrics-cert
{{- end }}

{{/*
Rook namespaces the manager caches besides the watched ones, as cmd/main.go does:
rookNamespace and rookNamespaces, without repeats. JSON list, for fromJsonArray.
*/}}
{{- define "hadoop-ceph-operator.rookNamespaces" -}}
{{- prepend .Values.rookNamespaces .Values.rookNamespace | uniq | toJson }}
{{- end }}

{{/*
managerRules renders the manager's generated RBAC rules (files/manager-role.yaml, a copy
of config/rbac/role.yaml) for one kind of grant, as a YAML list:

  cluster:     the resources without a namespace, for a ClusterRole;
  watched:     the namespaced ones in a watched namespace, where the operator writes
               everything it owns but never Rook's objects;
  rook:        the namespaced ones in a Rook namespace, where the operator writes only
               Rook's objects and reads the mon endpoints and client keys;
  watchedRook: both, for a namespace that is watched and holds a CephCluster.

Every namespaced kind stays readable in every namespace the manager caches, since its
cache lists and watches each kind there.

Call with (dict "root" $ "grant" "watched").
*/}}
{{- define "hadoop-ceph-operator.managerRules" -}}
{{- $grant := .grant }}
{{- /* The generated rules' resources that have no namespace, as group/resource ("" is
core). test/chart fails on a generated resource it does not know the scope of. */}}
{{- $clusterScoped := list "/namespaces" "/nodes" "authentication.k8s.io/tokenreviews" "authorization.k8s.io/subjectaccessreviews" }}
{{- $read := list "get" "list" "watch" }}
{{- $writeRook := has $grant (list "rook" "watchedRook") }}
{{- $writeOthers := has $grant (list "watched" "watchedRook") }}
{{- $out := list }}
{{- range $rule := (.root.Files.Get "files/manager-role.yaml" | fromYaml).rules }}
{{- range $group := $rule.apiGroups }}
{{- $resources := list }}
{{- range $resource := $rule.resources }}
{{- $cluster := has (printf "%s/%s" $group (first (splitList "/" $resource))) $clusterScoped }}
{{- if eq $cluster (eq $grant "cluster") }}
{{- $resources = append $resources $resource }}
{{- end }}
{{- end }}
{{- $verbs := $rule.verbs }}
{{- if and (ne $grant "cluster") (not (ternary $writeRook $writeOthers (eq $group "ceph.rook.io"))) }}
{{- $verbs = list }}
{{- range $rule.verbs }}
{{- if has . $read }}
{{- $verbs = append $verbs . }}
{{- end }}
{{- end }}
{{- end }}
{{- if and $resources $verbs }}
{{- $out = append $out (merge (dict "apiGroups" (list $group) "resources" $resources "verbs" $verbs) (deepCopy $rule)) }}
{{- end }}
{{- end }}
{{- end }}
{{- toYaml $out }}
{{- end }}
