#!/bin/sh
# make bench-slurm: how fast the Slurm backend submits, on the throwaway
# cluster of tests/slurm/ (as root).  A campaign of N instant trials, all
# allowed to run at once, is run twice: alike trials as job arrays (the
# default) and as one job each (slurm_array_min = 0).  Prints the trials
# submitted per second (from the campaign's start to the last job id
# recorded) and the wall time to finish.  Figures, not pass/fail.
set -eu
BUILD=${1:-build}
N=${2:-500}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B="$TOP/$BUILD"
BENCH=slurm
. "$TOP/tests/bench/slurm.subr"
MAXARRAY=${HPOD_SLURM_MAXARRAY:-200}
echo "bench-slurm: $N trials of 'sleep 0' on 4 nodes x 4 CPUs, MaxArraySize $MAXARRAY"

for arrays in 2 0; do
	HPOD_SLURM_MAXARRAY=$MAXARRAY "$TOP/tests/slurm/cluster.sh" start \
	    "$T/sc" >/dev/null
	cat >"$T/c$arrays.json" <<JSON
{"name": "rate", "workload": "sleep",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"seconds": {"type": "choice", "values": [0]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": $N, "max_parallel": $N},
 "backend": "slurm",
 "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"}}
JSON
	cat >"$T/h$arrays.conf" <<CONF
ledger = $T/l$arrays.db
run_dir = $T/runs$arrays
slurm_array_min = $arrays
slurm_poll_min = 500
slurm_poll_max = 2000
CONF
	start=$(date +%s.%N)
	"$B/hpoctl" -f "$T/h$arrays.conf" run -q --format json \
	    "$T/c$arrays.json" >/dev/null
	end=$(date +%s.%N)
	sqlite3 -readonly "$T/l$arrays.db" "select max(submitted) - min(created),
	    count(distinct case when instr(job_id, '_') > 0
	      then substr(job_id, 1, instr(job_id, '_') - 1) else job_id end),
	    count(*) from attempts" | tr '|' ' ' | {
		read -r span rpcs n
		awk -v s="$span" -v r="$rpcs" -v n="$n" -v t0="$start" -v t1="$end" \
		    -v a="$arrays" 'BEGIN {
		    printf "  %s: %d trials in %d submit RPCs, submitted in " \
		        "%.2f s (%.0f trials/s); all done in %.1f s\n",
		        (a > 0 ? "job arrays " : "single jobs"), n, r, s,
		        n / (s > 0 ? s : 1e-3), t1 - t0 }'
	}
	"$TOP/tests/slurm/cluster.sh" stop "$T/sc" >/dev/null 2>&1 || true
	rm -rf "$T/sc"
done
