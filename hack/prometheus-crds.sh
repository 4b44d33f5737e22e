#!/usr/bin/env bash
# Prints the path of the Prometheus Operator's PodMonitor CRD
# (example/prometheus-operator-crd/monitoring.coreos.com_podmonitors.yaml of the pinned
# release), fetched through the Go module proxy into the module cache. The controllers'
# envtest suite installs this real schema, the only kind of monitoring.coreos.com the
# operator writes; the file is not copied into this repository.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/tools/versions.env"

module="github.com/prometheus-operator/prometheus-operator@${PROMETHEUS_OPERATOR_VERSION}"
dir=$(go mod download -json "${module}" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
crd="${dir}/example/prometheus-operator-crd/monitoring.coreos.com_podmonitors.yaml"
if [[ -z "${dir}" || ! -f "${crd}" ]]; then
	echo "prometheus-crds.sh: error: could not fetch ${module} from the Go module proxy" >&2
	exit 1
fi
echo "${crd}"
