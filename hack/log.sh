# shellcheck shell=bash
# Logging and waiting for every script under hack/. Sourced, not executed; sourcing it
# twice is harmless. (images/*/assemble.sh run inside an image build, where hack/ is
# not there, and keep their own `die`.)
#
# Every line on stderr starts with the script's name, so that a make target running
# several scripts (make e2e: the cluster, Rook, the images, the suite) says which one
# spoke. HCO_LOG_NAME overrides the name (default: the file name without .sh);
# HCO_LOG_TIME=1 adds the time of day, for the measuring scripts whose steps take
# minutes.

HCO_LOG_NAME="${HCO_LOG_NAME:-$(basename "$0" .sh)}"

log() {
	if [[ "${HCO_LOG_TIME:-0}" == 1 ]]; then
		printf '%s: %(%H:%M:%S)T %s\n' "$HCO_LOG_NAME" -1 "$*" >&2
	else
		printf '%s: %s\n' "$HCO_LOG_NAME" "$*" >&2
	fi
}

die() {
	log "error: $*"
	exit 1
}

# poll INTERVAL SECONDS COMMAND... runs COMMAND every INTERVAL seconds (a fraction is
# fine) until it succeeds, for at most about SECONDS; its status says whether it did.
# COMMAND's output is left alone: a command that should be quiet redirects its own.
# For the waits whose end is not an error (a best-effort settle, a grace period before
# a harder signal); the others use wait_until.
poll() {
	local interval="$1" timeout="$2" deadline
	shift 2
	deadline=$((SECONDS + timeout))
	until "$@"; do
		((SECONDS < deadline)) || return 1
		sleep "$interval"
	done
}

# wait_until SECONDS WHAT COMMAND... polls COMMAND every second, its output hidden,
# until it succeeds; after SECONDS it runs COMMAND once more with its output shown,
# which is usually the reason, and fails naming WHAT. WHAT says what was awaited and
# where to look (a log, a kubectl command).
wait_until() {
	local timeout="$1" what="$2"
	shift 2
	poll 1 "$timeout" _quietly "$@" && return 0
	"$@" >&2 || true
	die "timed out after ${timeout}s waiting for ${what}"
}

_quietly() { "$@" >/dev/null 2>&1; }
