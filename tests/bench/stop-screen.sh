#!/bin/sh
# Stopper rules screened offline before any is built: `random` replayed
# one trial at a time under each rule by tests/bench/stop_screen.py (its
# docstring says how and lists the rules), DRAWS seeds (default 10000)
# per table, the same draws for every rule.  Before that, on each table
# the helper's cost and stopper model (rule leader:2 from the epoch
# after the warm-up, the trials still running judged at 3, as target.c
# now stops: leader:2@W/run:3 where PARALLEL is set) is checked against the
# ledgers of hpod's own random+target campaigns of the seeds CHECK_SEEDS
# (default "0 1 5") through the real engine and replay backend (hpoctl
# run, as bench-search.sh does).
#
#   tests/bench/stop-screen.sh [BUILD]
#
# TABLES (default "minicosmo cifar10-cnn": the tuning tables; mnist-conv
# is held out), TARGET and BUDGET as in bench-search.sh, RULES (default:
# the helper's list).  The grace period is the target stopper's: the
# spec's warmup_epochs + 3 (these tables' workloads declare no other
# warm-up).  Prints, per table and rule, the reach, the median GPU-hours
# to target [bootstrap 90% interval], the ratio to rule "target" (auto's
# stopper today), the seeds cheaper / dearer than under it, and the mean
# trials per seed.
#
# PARALLEL, when set (1 included), replays `random` PARALLEL trials at a
# time (asynchronously) with tests/bench/stop_async.py instead, DRAWS
# default 2000, and checks against hpod's random+target campaigns at
# PARALLEL at once (stop_async.py check: the trials whose epochs differ,
# and the GPU-seconds to target of the ledger and of the replay).  A
# rule of RULES written =RULE is then the reference of every line's
# paired ratio.
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TABLES=${TABLES:-"minicosmo cifar10-cnn"}
if [ -n "${PARALLEL:-}" ]; then
	DRAWS=${DRAWS:-2000}
	PY="python3 $TOP/tests/bench/stop_async.py"
else
	DRAWS=${DRAWS:-10000}
	PY="python3 $TOP/tests/bench/stop_screen.py"
fi
P=${PARALLEL:-}
CHECK_SEEDS=${CHECK_SEEDS:-"0 1 5"}
RULES=${RULES:-}
HPOCTL=$TOP/$BUILD/hpoctl
TARGET_SET=${TARGET:-} BUDGET_SET=${BUDGET:-}
T=$(mktemp -d /tmp/hpod-screen.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH=$TOP/workloads:$TOP/tests/bench/workloads

. "$TOP/tests/bench/search.subr"

for tb in $TABLES; do
	profile "$tb"
	warm=$(echo "$FIXED" | python3 -c 'import json, sys
print(int(json.load(sys.stdin).get("warmup_epochs", 0)))')
	grace=$((warm + 3))
	for seed in $CHECK_SEEDS; do
		hpod_run random+target "$seed" "${P:-1}" >/dev/null
		# shellcheck disable=SC2086
		$PY check "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" "$grace" \
		    $P \
		    "leader:2@$((warm + 1))${P:+/run:3}"
	done
	echo "table $tb: target eval_error <= $TARGET, budget $BUDGET GPU-s," \
	    "$EPOCHS epochs, grace $grace, $DRAWS seeds of random ${P:-1} at a time"
	# shellcheck disable=SC2086
	$PY replay "$TABLE" "$SPACE" "$TARGET" "$BUDGET" "$EPOCHS" "$grace" \
	    $P "$DRAWS" $RULES
done
