#!/bin/sh
# What any search can reach at P trials at once on the replay tables: a
# lower bound on the median GPU-hours to target of every method whose
# first P configurations are made before any result exists (drawn as
# `random` draws them, or as `sobol` and `auto` make them), as a ratio
# to `random`'s median.  tests/bench/search_bound.py computes it (its
# docstring says how); this script runs hpod's `random` on each table
# through the real engine and replay backend (hpoctl run, as
# bench-search.sh does), checks the helper's cost model against one
# campaign's ledger, and prints one table row per table and P.
#
#   tests/bench/search-bound.sh [BUILD]
#
# TABLES, SEEDS (hpod's random, default 20), PARALLEL (default "1 8"),
# TARGET and BUDGET as in bench-search.sh; DRAWS (default 10000): first
# waves drawn per bound, and seeds of the helper's own replay of random.
# Figures are GPU-hours: random's median over the seeds [bootstrap 90%
# interval of it]; the helper's replay of random over DRAWS seeds (it
# should fall inside that interval: same lookup, cost and budget); the
# bound with a random first wave and with a Sobol' one, each with a
# stopped first-wave trial paid until its own first result ("own"),
# until the wave's first result ("first"), or with every slot kept busy
# until the target is met, as hpod's engine keeps them ("busy"); the
# floor (the table's cheapest run to target); the least bound over
# random's median [over the ends of random's interval], the same for the
# lesser busy bound; the share of first waves that hold a run reaching
# the target.
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TABLES=${TABLES:-"minicosmo cifar10-cnn mnist-conv mnist-cnn"}
SEEDS=${SEEDS:-20}
PARALLEL=${PARALLEL:-"1 8"}
DRAWS=${DRAWS:-10000}
HPOCTL=$TOP/$BUILD/hpoctl
TARGET_SET=${TARGET:-} BUDGET_SET=${BUDGET:-}
T=$(mktemp -d /tmp/hpod-bound.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH=$TOP/workloads:$TOP/tests/bench/workloads
PY="python3 $TOP/tests/bench/search_bound.py"

. "$TOP/tests/bench/search.subr"

echo "| table | at once | random, $SEEDS seeds | random replayed here, $DRAWS seeds | bound, random first wave: own / first / busy | bound, Sobol' first wave: own / first / busy | floor | least bound / random: its median [its interval's ends]; replayed here | busy bound / random, the same | waves holding a run to target: random / Sobol' |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for tb in $TABLES; do
	profile "$tb"
	for par in $PARALLEL; do
		: >"$T/r.txt"
		s=0
		while [ "$s" -lt "$SEEDS" ]; do
			hpod_run random "$s" "$par" >>"$T/r.txt"
			# The first campaign's ledger checks the cost model.
			[ "$s" -gt 0 ] ||
			    $PY check "$TABLE" "$T/l.db" "$TARGET" |
			    sed 's/^/# /' >&2
			s=$((s + 1))
		done
		$PY bound "$TABLE" "$SPACE" "$TARGET" "$BUDGET" "$par" \
		    "$T/r.txt" "$DRAWS" | awk -v tb="$tb" -v par="$par" \
		    -v draws="$DRAWS" -v verdict="$T/verdict" '
		    function f(x) { return x == "inf" ? ">" : sprintf("%.4g", x) }
		    function m(a, b) { return a < b ? a : b }
		    # r(b): b over the median of random [over the interval ends].
		    function r(b,  lo, hi) {
			hi = $5 == "inf" ? "0" : sprintf("%.3f", b / $5)
			lo = $4 > 0 ? sprintf("%.3f", b / $4) : "inf"
			return sprintf("%.3fx [%s-%s]; %.3fx", b / $3, hi, lo,
			    b / $6)
		    }
		    {
			reach = $2 < 1 ? sprintf(", %.0f%% reached", $2 * 100) : ""
			printf "| %s | %d | %s [%s-%s]%s | %s | %s / %s / %s | %s / %s / %s | %s | %s | %s | %.0f%% / %.0f%% |\n",
			    tb, par, f($3), f($4), f($5), reach, f($6),
			    f($7), f($8), f($9), f($10), f($11), f($12), f($13),
			    r(m($8, $11)), r(m($9, $12)), $14 * 100, $15 * 100
			for (i = 7; i <= 12; i++)
				if ($i / $6 > 0.5)
					printf "%s at %d: the %s bound with a %s first wave is %.3fx random (%.4g of %.4g GPU-hours, random replayed %d times): above 0.5x\n",
					    tb, par, i % 3 == 1 ? "own" : i % 3 == 2 ? "first" : "busy",
					    i < 10 ? "random" : "Sobol\047", $i / $6, $i, $6,
					    draws >>verdict
		    }'
	done
done
echo
echo "Bounds above half of random's median (goal <= 0.5x unreachable there):"
cat "$T/verdict" 2>/dev/null || echo none
