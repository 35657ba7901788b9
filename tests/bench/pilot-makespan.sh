#!/bin/sh
# make bench-slurm (pilots): the makespan of N one-second trials run
# through pilot allocations ("dispatch": "pilot": 4 pilots of one whole
# node, 4 CPUs each, 16 slots) on the throwaway cluster of tests/slurm/
# (as root), against the same N jobs as one `sbatch --array=0-(N-1)%16`
# and against the ideal N x 1 s / 16 slots.  Each is repeated R times on a
# fresh cluster.  From the times each trial itself recorded (hpo-trial's
# result.json, or the array task's own clock) it prints the makespan
# (first start to last end) and its ratios, the wall time of the whole
# command (pilot start-up and drain included) and the pilots' idle share
# of the campaign's CPU-hours (the cost line pilot_idle).
# Figures, not pass/fail; on a loaded machine read the spread.
set -eu
BUILD=${1:-build}
N=${2:-1000}
R=${3:-3}
P=16
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B="$TOP/$BUILD"
BENCH=pilot
. "$TOP/tests/bench/slurm.subr"
ideal=$(awk -v n="$N" -v p="$P" 'BEGIN { printf "%.3f", n / p }')
echo "bench-slurm: $N trials of 'sleep 1' in pilots vs sbatch --array, $P slots (4 nodes x 4 CPUs), ideal ${ideal} s, $R runs"

# makespan < "start end" lines: first start to last end.
makespan() {
	awk 'NR == 1 || $1 < s { s = $1 } NR == 1 || $2 > e { e = $2 }
	    END { printf "%.3f\n", e - s }'
}

run=1
while [ "$run" -le "$R" ]; do
	cluster
	array_run "$N" "$P"
	arr=$(cat "$T/a/"* | makespan)
	cluster
	sleep_spec pm "$N" "$P" pilot \
	    '{"count": 4, "cpus": 4, "time_limit": "01:00:00"}'
	cat >"$T/h.conf" <<CONF
ledger = $T/l$run.db
run_dir = $T/runs$run
CONF
	t0=$(date +%s.%N)
	"$B/hpoctl" -f "$T/h.conf" run -q --format json "$T/c.json" \
	    >"$T/r$run.json"
	t1=$(date +%s.%N)
	pm=$(trial_times "$T/runs$run" | makespan)
	awk -v run="$run" -v arr="$arr" -v pm="$pm" -v id="$ideal" \
	    -v w="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
	    -v idle="$(jq '.cost.by_outcome.pilot_idle.cpu_hours / .cost.cpu_hours' "$T/r$run.json")" \
	    'BEGIN { printf "  run %d: array %.1f s (%.2fx ideal); pilots %.1f s" \
	    " (%.2fx the array, %.2fx ideal), wall %.1f s, pilot idle" \
	    " %.1f%% of the CPU-hours\n", run, arr, arr / id, pm, pm / arr,
	    pm / id, w, 100 * idle }'
	run=$((run + 1))
done
