#!/bin/sh
# make bench: figures, not pass/fail.  Prints
#  1. hpod's overhead per trial: a campaign of trials that do nothing but
#     report one value, through the real engine, local backend and ledger;
#  2. the proxy trainer's seconds per epoch;
#  3. the demo campaign's wall time, time to solution and cost;
#  4. the engine's CPU per trial at 10^3, 10^4 and 10^5 trials
#     (tests/bench/engine-scale.sh);
#  5. TPE's CPU per suggestion against Optuna's at the same history sizes
#     (tests/bench/tpe-optuna.sh);
#  6. the wall time of writing a 1,000-task Slurm array's job.json files,
#     one file_save() after another against one file_save_all();
#  7. report, trials, --table and --format html on a ledger of 10^5
#     trials and 10^6 metric points, and hpod idle with it open
#     (tests/bench/report-scale.sh);
#  8. one read of a pilot campaign's running pilots' idle time (the live
#     budget's, after a pilot event and near its cap) at 10^3, 10^4 and
#     10^5 attempts (tests/bench/pilot-list.c).
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B="$TOP/$BUILD"
T=$(mktemp -d /tmp/hpod-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH="$TOP/workloads:$TOP/tests/bench"

for par in 1 4 16; do
	cat >"$T/o$par.json" <<JSON
{"name": "overhead", "workload": "instant",
 "space": {"x": {"type": "float", "min": 0, "max": 1}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 200, "max_parallel": $par}}
JSON
	start=$(date +%s.%N)
	"$B/hpoctl" run -q --ledger "$T/o$par.db" --run-dir "$T/runs$par" \
	    --format json "$T/o$par.json" >"$T/o$par.out"
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" -v p="$par" 'BEGIN {
	    printf "overhead: 200 instant trials, %2d at a time: %6.2f s, " \
	        "%6.1f trials/s, %5.1f ms per trial\n", p, e - s,
	        200 / (e - s), (e - s) * 1000 / 200 }'
done
sqlite3 "$T/o16.db" "select printf('overhead: ledger rows for 200 trials: %d trials, %d attempts, %d metric points, %d events', (select count(*) from trials), (select count(*) from attempts), (select count(*) from metrics), (select count(*) from events))"

for bs in 16 64; do
	start=$(date +%s.%N)
	"$B/minicosmo" --lr 0.03 --batch-size $bs --epochs 4 >/dev/null
	end=$(date +%s.%N)
	awk -v s="$start" -v e="$end" -v b=$bs 'BEGIN {
	    printf "minicosmo: batch %d, 4 epochs of 1024 samples: %.2f s " \
	        "(%.2f s per epoch incl. start-up)\n", b, e - s, (e - s) / 4 }'
done

start=$(date +%s.%N)
"$B/hpoctl" run -q --ledger "$T/demo.db" --run-dir "$T/demo" --format json \
    "$TOP/etc/campaigns/demo.json" >"$T/demo.out"
end=$(date +%s.%N)
jq -r --arg w "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.1f", e - s }')" \
    '"demo: 24 trials, 2 at a time: wall \($w) s, time to solution \(.time_to_solution_s * 10 | round / 10) s, \(.trials.reached_target) trials reached the target, \(.cost.cpu_hours * 3600 | round) CPU-seconds over \(.cost.attempts) attempts"' \
    "$T/demo.out"

"$TOP/tests/bench/engine-scale.sh" "$BUILD"
"$TOP/tests/bench/tpe-optuna.sh" "$BUILD"
mkdir "$T/files"
"$B/bench/file-save" "$T/files" 1000 | awk '{
    printf "file_save: %d job.json files, one by one: %.2f s; " \
        "file_save_all: %.2f s\n", $1, $2, $3 }'
"$TOP/tests/bench/report-scale.sh" "$BUILD"
"$B/bench/pilot-list" 1000 10000 100000
