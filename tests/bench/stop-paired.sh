#!/bin/sh
# Two stopper settings of `auto` compared seed by seed with the real
# engine and replay backend (hpoctl run, as bench-search.sh runs it):
# every seed runs bench-search.sh's `auto` campaign once with search
# stopper BEFORE and once with AFTER, and the GPU-seconds to target of
# the two are paired.
#
#   tests/bench/stop-paired.sh [BUILD]
#
# BEFORE (default '{"algorithm": "target", "leader_running": 0}': the
# leader rule before leader_running) and AFTER (default '{"algorithm":
# "target"}', what `auto` picks by itself), JSON objects for
# search.stopper; TABLES (default "minicosmo cifar10-cnn", the tuning
# tables), SEEDS (default 200, seeds 0 to SEEDS - 1), PARALLEL (default
# 8, one value), TARGET and BUDGET as in bench-search.sh.  Prints per
# table the reach and median GPU-hours to target [bootstrap 90%
# interval] of both, the ratio of the medians AFTER / BEFORE with a
# paired bootstrap 90% interval (2000 resamples of the seeds, the same
# for both), the seeds cheaper / dearer / equal under AFTER, and the mean
# GPU-hours of the seeds that met the target.
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TABLES=${TABLES:-"minicosmo cifar10-cnn"}
SEEDS=${SEEDS:-200}
P=${PARALLEL:-8}
BEFORE=${BEFORE:-'{"algorithm": "target", "leader_running": 0}'}
AFTER=${AFTER:-'{"algorithm": "target"}'}
HPOCTL=$TOP/$BUILD/hpoctl
TARGET_SET=${TARGET:-} BUDGET_SET=${BUDGET:-}
T=$(mktemp -d /tmp/hpod-paired.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH=$TOP/workloads:$TOP/tests/bench/workloads

. "$TOP/tests/bench/search.subr"

# stopped SEED STOPPER: GPU-seconds to target of auto with that stopper
# ("inf" if no trial met it).
stopped() {
	rm -rf "$T/runs" "$T/l.db" "$T/l.db-wal" "$T/l.db-shm"
	printf 'ledger = %s/l.db\nrun_dir = %s/runs\n' "$T" "$T" >"$T/conf"
	campaign auto "$1" "$P" >"$T/a.json"
	python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))
c["search"]["stopper"] = json.loads(sys.argv[2])
json.dump(c, open(sys.argv[3], "w"))' "$T/a.json" "$2" "$T/c.json"
	"$HPOCTL" -f "$T/conf" run -q "$T/c.json" >/dev/null 2>"$T/err" || {
		echo "stop-paired: seed $1 failed:" >&2; cat "$T/err" >&2
		exit 1; }
	sqlite3 "$T/l.db" "
	    with c as (select max(id) id from campaigns),
	    r as (select min(reached_at) ts from trials, c
	        where campaign_id = c.id and reached = 1)
	    select case when r.ts is null then 'inf' else (select
	        total(max(0, min(a.ended, r.ts) - a.started) * a.gpus)
	        from attempts a join trials t on t.id = a.trial_id
	        where t.campaign_id = c.id and a.started > 0) end
	    from c, r"
}

for tb in $TABLES; do
	profile "$tb"
	: >"$T/pairs"
	s=0
	while [ "$s" -lt "$SEEDS" ]; do
		echo "$(stopped "$s" "$BEFORE") $(stopped "$s" "$AFTER")" \
		    >>"$T/pairs"
		s=$((s + 1))
	done
	echo "table $tb: target eval_error <= $TARGET, $SEEDS seeds of auto," \
	    "$P at once; before $BEFORE, after $AFTER"
	PYTHONPATH="$TOP/tests/bench" python3 - "$T/pairs" <<'PY'
import math, statistics, sys
from search_bound import interval, paired_medians
pairs = [tuple(float(x) for x in line.split()) for line in open(sys.argv[1])]
n = len(pairs)
a = [p[0] for p in pairs]
b = [p[1] for p in pairs]
ma, mb, rs = paired_medians(a, b, 2000)
for name, v, m in (("before", a, ma), ("after", b, mb)):
    lo, hi = interval(m)
    done = [c for c in v if c < math.inf]
    print("%-6s reach %5.1f%%  GPU-hours %.4g [%.4g-%.4g]  mean %.4g" % (
        name, 100 * len(done) / n, statistics.median(v) / 3600, lo / 3600,
        hi / 3600, statistics.mean(done) / 3600 if done else math.inf))
lo, hi = interval(rs)
print("after / before x%.3f [%.3f-%.3f] (paired)  cheaper/dearer/equal "
      "%d/%d/%d" % (statistics.median(b) / statistics.median(a), lo, hi,
                    sum(y < x for x, y in pairs),
                    sum(y > x for x, y in pairs),
                    sum(y == x for x, y in pairs)))
PY
done
