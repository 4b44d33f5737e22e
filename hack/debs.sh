# shellcheck shell=bash
# ensure_debs, shared by the hack/ scripts that install Debian packages. Sourced, not
# executed; the sourcing script provides log.

# ensure_debs installs the Debian packages among its arguments that are missing. The
# lock timeout lets two scripts that install at once wait for each other.
ensure_debs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
	done
	[[ ${#missing[@]} -eq 0 ]] && return 0
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
