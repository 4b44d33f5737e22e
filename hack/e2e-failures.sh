#!/usr/bin/env bash
# Prints each failed spec of an e2e log again, its name and Ginkgo's failure message,
# so that the end of a long log says why the suite failed. Ginkgo's own summary at the
# end names the failed specs only.
set -euo pipefail
log=${1:?usage: e2e-failures.sh LOG}
[[ -f $log ]] || exit 0
echo
echo "=== e2e failures, from $log ==="
# A failed spec's report starts with "• [FAILED]" (or "[PANICKED]", "[TIMEDOUT]",
# "[INTERRUPTED]"); its message ends with the "In [...] at:" line.
awk '
	/^• \[(FAILED|PANICKED|TIMEDOUT|INTERRUPTED)\]/ { grab = 1; n = 0 }
	grab {
		print
		if (++n > 60) { print "  ..."; grab = 0 }
		if ($0 ~ /^  In \[[A-Za-z]+\] at: /) { print ""; grab = 0 }
	}
' "$log"
