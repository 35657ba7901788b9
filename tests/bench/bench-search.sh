#!/bin/sh
# make bench-search: how cheaply each search method finds a minicosmo
# configuration that reaches the target, replayed from the recorded table
# of real learning curves (tests/bench/minicosmo-replay.json) through the
# real engine, search, stopper and ledger (hpoctl run, replay backend), and
# Optuna 3.1 (Debian's python3-optuna, always /usr/bin/python3) over the
# same table through tests/bench/optuna_replay.py.
#
#   tests/bench/bench-search.sh [BUILD]
#
# Every method gets the same space (lr log-uniform in [0.001, 0.2],
# batch_size in {32, 64, 128}, momentum uniform in [0.85, 0.95]), the same
# target, the same budget (no new trial once BUDGET virtual GPU-seconds
# are spent, 1 GPU per trial, one trial at a time) and SEEDS seeds.  The
# optuna-* methods are Optuna's RandomSampler or TPESampler (defaults),
# with its SuccessiveHalvingPruner (+asha) or HyperbandPruner (+hyperband)
# set as hpod's stoppers are here (min_resource 1, reduction factor 3,
# max_resource 12); optuna-random is there to show that both sides draw,
# replay and count alike.  Per
# method it prints the median and interquartile range over the seeds of
# the cost, in epochs and virtual GPU-hours, of every trial until the
# first one reached the target (">" when fewer than that quantile of the
# seeds reached it), the fraction of seeds that reached it within the
# budget, and the median best value at the end.
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TABLE=${TABLE:-$TOP/tests/bench/minicosmo-replay.json}
TARGET=${TARGET:-0.12}
BUDGET=${BUDGET:-150}
SEEDS=${SEEDS:-40}
METHODS=${METHODS:-"random sobol tpe tpe+asha tpe+hyperband random+asha tpe+median optuna-random optuna-tpe optuna-tpe+asha optuna-tpe+hyperband optuna-random+asha"}
HPOCTL=$TOP/$BUILD/hpoctl
T=$(mktemp -d /tmp/hpod-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH=$TOP/workloads

# campaign METHOD SEED: the spec of one hpod run.
campaign() {
	case $1 in
	random*) alg=random ;;
	sobol*) alg=sobol ;;
	tpe*) alg=tpe ;;
	esac
	case $1 in
	*+asha) stop=', "stopper": {"algorithm": "asha", "min_resource": 1, "eta": 3, "max_resource": 12}' ;;
	*+hyperband) stop=', "stopper": {"algorithm": "hyperband", "min_resource": 1, "eta": 3, "max_resource": 12}' ;;
	*+median) stop=', "stopper": {"algorithm": "median"}' ;;
	*) stop= ;;
	esac
	cat <<JSON
{
  "name": "b$2", "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": $TARGET},
  "space": {
    "lr": {"type": "float", "min": 0.001, "max": 0.2, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64, 128]},
    "momentum": {"type": "float", "min": 0.85, "max": 0.95}
  },
  "fixed": {"epochs": 12, "warmup_epochs": 1, "train_samples": 512, "eval_samples": 256},
  "search": {"algorithm": "$alg", "seed": $2$stop},
  "budget": {"max_trials": 100000, "max_gpu_hours": $(awk -v b="$BUDGET" 'BEGIN { printf "%.10g", b / 3600 }')},
  "resources": {"gpus_per_node": 1},
  "backend": "replay", "replay": {"table": "$TABLE"},
  "retry": {"limit": 0}
}
JSON
}

# hpod_run METHOD SEED: print reached epochs gpu_s best trials.
hpod_run() {
	db=$T/$1.db
	printf 'ledger = %s\nrun_dir = %s/runs\n' "$db" "$T" >"$T/conf"
	campaign "$1" "$2" >"$T/c.json"
	"$HPOCTL" -f "$T/conf" run -q "$T/c.json" >/dev/null 2>"$T/err" || {
		echo "bench-search: $1 seed $2 failed:" >&2; cat "$T/err" >&2
		exit 1; }
	rm -rf "$T/runs"
	sqlite3 "$db" "
	    with c as (select max(id) id from campaigns),
	    r as (select min(reached_at) ts from trials, c
	        where campaign_id = c.id and reached = 1)
	    select r.ts is not null,
	        case when r.ts is null then 'inf' else (select count(*)
	            from metrics m join attempts a on a.id = m.attempt_id
	            join trials t on t.id = a.trial_id
	            where t.campaign_id = c.id and m.key = 'eval_error'
	            and m.time <= r.ts + 0.001) end,
	        case when r.ts is null then 'inf' else (select
	            total(max(0, min(a.ended, r.ts) - a.started) * a.gpus)
	            from attempts a join trials t on t.id = a.trial_id
	            where t.campaign_id = c.id and a.started > 0) end,
	        (select min(best) from trials t where t.campaign_id = c.id),
	        (select count(*) from trials t where t.campaign_id = c.id)
	    from c, r" |
	    tr '|' ' '
}

# stats FILE: the summary line of one method from its per-seed lines.
stats() {
	sort -g -k2 "$1" | awk -v n="$SEEDS" '
		function q(a, p,  i) { i = int(p * (n - 1) + 0.5); return a[i] }
		{ ep[NR - 1] = $2; reached += $1; best[NR - 1] = $4; tr += $5 }
		END { print q(ep, 0.25), q(ep, 0.5), q(ep, 0.75), reached / n, tr / n }'
	sort -g -k3 "$1" | awk -v n="$SEEDS" '
		function q(a, p,  i) { i = int(p * (n - 1) + 0.5); return a[i] }
		{ g[NR - 1] = $3 } END { print q(g, 0.25), q(g, 0.5), q(g, 0.75) }'
	sort -g -k4 "$1" | awk -v n="$SEEDS" '
		function q(a, p,  i) { i = int(p * (n - 1) + 0.5); return a[i] }
		{ b[NR - 1] = $4 } END { print q(b, 0.5) }'
}

if printf '%s' "$METHODS" | grep -q optuna &&
    ! /usr/bin/python3 -c 'import optuna' 2>/dev/null; then
	echo "bench-search: /usr/bin/python3 cannot import optuna (apt-get install python3-optuna)" >&2
	exit 1
fi
echo "replay table $TABLE: target eval_error <= $TARGET, budget $BUDGET GPU-s per seed, $SEEDS seeds, one trial at a time"
printf '| method | epochs to target, median [IQR] | GPU-hours to target, median [IQR] | reached | best at end (median) | trials (mean) |\n'
printf '|---|---|---|---|---|---|\n'
for m in $METHODS; do
	: >"$T/$m.txt"
	s=0
	while [ "$s" -lt "$SEEDS" ]; do
		case $m in
		optuna-*) /usr/bin/python3 "$TOP/tests/bench/optuna_replay.py" \
		    "$TABLE" "$TARGET" "$BUDGET" "$s" "${m#optuna-}" ;;
		*) hpod_run "$m" "$s" ;;
		esac >>"$T/$m.txt"
		s=$((s + 1))
	done
	[ -z "${RESULTS:-}" ] || cp "$T/$m.txt" "$RESULTS/$m.txt"
	stats "$T/$m.txt" | tr '\n' ' ' | awk -v m="$m" '
		function e(x) { return x == "inf" ? ">" : sprintf("%.0f", x) }
		function h(x) { return x == "inf" ? ">" : sprintf("%.4f", x / 3600) }
		{ printf "| %s | %s [%s-%s] | %s [%s-%s] | %.0f%% | %.4f | %.0f |\n",
		    m, e($2), e($1), e($3), h($7), h($6), h($8), $4 * 100, $9, $5 }'
done
