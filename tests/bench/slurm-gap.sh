#!/bin/sh
# make bench-slurm (second part): how long a freed Slurm slot waits for its
# next job, on the throwaway cluster of tests/slurm/ (as root, 16 CPUs).
# N one-second trials at max_parallel P run through `hpoctl run` with the
# end-marker watch off (slurm_poll_kick = 0: timed polls only, every
# slurm_poll_min = 2 s) and on (the default), in chained lanes
# ("dispatch": "chain"), and the same N jobs go as one
# `sbatch --array=0-(N-1)%P` for reference.  Each is repeated R times on a
# fresh cluster.  From the times each job itself recorded (hpo-trial's
# result.json, or the array task's own clock) it prints: the gap between
# the k-th job end and the (k+S)-th job start (S = the most that ran at
# once: the slot that end freed), median and p95; the makespan (first
# start to last end) and its ratio to the array's; the wall time of the
# whole command; and the job queries slurmctld served (sdiag), the cost:
# of all the user's jobs (timed polls) and of one job id (an end marker's
# confirm).
# With max_parallel above the cluster's 16 CPUs Slurm refills a freed CPU
# from its own queue and hpod's poll hardly matters; at max_parallel 16
# every freed slot waits for hpod to see the end and submit the next trial,
# unless the trial is chained: then it is queued already.
# GAP_MODES (default "job:0 job:100 chain:100") lists the runs of hpod,
# each DISPATCH:KICK: "dispatch" "job" (one job per trial, submitted
# once its slot frees) or "chain" (each slot's next job queued behind its
# running one, --dependency=afterany), and slurm_poll_kick.
# Figures, not pass/fail; on a loaded machine read the spread.
set -eu
BUILD=${1:-build}
N=${2:-1000}
P=${3:-64}
R=${4:-3}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B="$TOP/$BUILD"
BENCH=gap
. "$TOP/tests/bench/slurm.subr"
echo "bench-slurm: $N trials of 'sleep 1', max_parallel $P, on 4 nodes x 4 CPUs, $R runs each"

# elapsed T0 T1: seconds from T0 to T1.
elapsed() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'
}

# queries: the job queries slurmctld served (sdiag): "ALL SINGLE", the
# queries of all of a user's jobs and those of one job id (a confirm).
queries() {
	sdiag | awk '/^Remote Procedure Call statistics by message type/ { on = 1 }
	    on && ($1 == "REQUEST_JOB_USER_INFO" ||
	    $1 == "REQUEST_JOB_INFO_SINGLE") {
		for (i = 2; i <= NF; i++) if ($i ~ /^count:/) {
		n = $i; sub(/^count:/, "", n); c[$1] = n } }
	    END { print c["REQUEST_JOB_USER_INFO"] + 0,
		c["REQUEST_JOB_INFO_SINGLE"] + 0 }'
}

# since "A0 S0" "A1 S1": the queries between two readings, "N job queries
# (A of all jobs, S of one job)".
since() {
	echo "$1 $2" | awk '{ printf "%d job queries (%d of all jobs, %d of" \
	    " one job)\n", $3 - $1 + $4 - $2, $3 - $1, $4 - $2 }'
}

# figures LABEL WALL QUERIES [ARRAY_MAKESPAN] < "start end" lines: print
# one result line; the makespan goes to $T/mk.
figures() {
	cat >"$T/f.in"
	cut -d' ' -f1 "$T/f.in" | sort -g >"$T/f.s"
	cut -d' ' -f2 "$T/f.in" | sort -g >"$T/f.e"
	# The most jobs that ran at once: the slots.
	slots=$(awk '{ print $1, 1; print $2, -1 }' "$T/f.in" |
	    sort -k1,1g -k2,2n | awk '{ c += $2; if (c > m) m = c }
	    END { print m }')
	tail -n "+$((slots + 1))" "$T/f.s" | paste - "$T/f.e" |
	    awk 'NF == 2 { print $1 - $2 }' | sort -g >"$T/f.g"
	echo "$slots" >"$T/slots"
	awk -v l="$1" -v w="$2" -v q="$3" -v ref="${4:-0}" -v slots="$slots" \
	    -v s0="$(head -n 1 "$T/f.s")" -v e1="$(tail -n 1 "$T/f.e")" '
	{ g[NR] = $1 }
	END {
		k = NR; mk = e1 - s0
		printf "  %-16s slots %2d, gap median %.2f s, p95 %.2f s;" \
		    " makespan %.1f s", l, slots, g[int((k + 1) / 2)],
		    g[int(k * 0.95 + 0.5)], mk
		if (ref > 0)
			printf " (%.2fx the array)", mk / ref
		printf "; wall %.1f s; %s\n", w, q
		print mk >"'"$T/mk"'"
	}' "$T/f.g"
}

# share LEDGER: when every slot was kept busy by hpod (max_parallel at
# most the slots), hpod's own share of the gap: from the k-th job end to
# the (k+S)-th submit that slurmctld answered (the ledger's `submitted`);
# the rest of the gap is Slurm's, from the submit to the job's start.
share() {
	slots=$(cat "$T/slots")
	[ "$P" -le "$slots" ] || return 0
	sqlite3 -readonly "$1" "select submitted from attempts
	    where submitted is not null order by submitted" >"$T/sub"
	tail -n "+$((slots + 1))" "$T/sub" | paste - "$T/f.e" |
	    awk 'NF == 2 { print $1 - $2 }' | sort -g | awk '
	{ g[NR] = $1 }
	END {
		printf "    hpod share: job end to the next submit answered," \
		    " median %.2f s, p95 %.2f s\n", g[int((NR + 1) / 2)],
		    g[int(NR * 0.95 + 0.5)]
	}'
}

run=1
while [ "$run" -le "$R" ]; do
	cluster
	q0=$(queries)
	t0=$(date +%s.%N)
	array_run "$N" "$P"
	t1=$(date +%s.%N)
	q1=$(queries)
	cat "$T/a/"* | figures "sbatch --array" "$(elapsed "$t0" "$t1")" \
	    "$(since "$q0" "$q1")"
	ref=$(cat "$T/mk")
	for mode in ${GAP_MODES:-job:0 job:100 chain:100}; do
		dispatch=${mode%%:*}
		kick=${mode#*:}
		cluster
		sleep_spec gap "$N" "$P" "$dispatch"
		cat >"$T/h.conf" <<CONF
ledger = $T/l$run-$mode.db
run_dir = $T/runs$run-$mode
slurm_poll_kick = $kick
CONF
		q0=$(queries)
		t0=$(date +%s.%N)
		"$B/hpoctl" -f "$T/h.conf" run -q --format json "$T/c.json" \
		    >/dev/null
		t1=$(date +%s.%N)
		q1=$(queries)
		trial_times "$T/runs$run-$mode" |
		    figures "hpod $mode" "$(elapsed "$t0" "$t1")" \
		    "$(since "$q0" "$q1")" "$ref"
		# A chained refill is submitted before the end it waits for.
		[ "$dispatch" = chain ] || share "$T/l$run-$mode.db"
	done
	run=$((run + 1))
done
