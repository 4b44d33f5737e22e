#!/usr/bin/env bash
# Builds kube-controller-manager, kube-scheduler, kubelet and kube-proxy (pinned
# KUBERNETES_VERSION) into the same directory as the envtest assets. Kept
# apart from envtest-assets.sh so unit and envtest runs never wait for them.
# The last line of stdout is the asset directory.
set -Eeuo pipefail
exec "$(dirname "${BASH_SOURCE[0]}")/envtest-assets.sh" kube-controller-manager kube-scheduler kubelet kube-proxy "$@"
