#!/bin/sh
# make bench-slurm (third part): what hpod costs slurmctld with hundreds of
# jobs in flight, on the throwaway cluster of tests/slurm/ (as root, 16
# CPUs).  A campaign of N trials that sleep S seconds runs at max_parallel
# P through `hpoctl run` (P jobs queued or running all the time, refilled
# as they end); once P are in flight, sdiag's counters are read before and
# after a window of W seconds, and the requests hpod sent in it are
# printed by message type (count, and slurmctld's own time for them; what
# the nodes' slurmd sent is marked and left out of hpod's sum), per timed
# poll of all jobs and per trial that ended in the window.  Then,
# with the same jobs in flight, K runs of `squeue -u root` show what one
# look of a user's own polling loop costs.  Figures, not pass/fail.
set -eu
BUILD=${1:-build}
N=${2:-2000}
P=${3:-600}
S=${4:-5}
W=${5:-60}
K=${K:-10}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
B="$TOP/$BUILD"
BENCH=rpc
. "$TOP/tests/bench/slurm.subr"

# stats FILE: sdiag's per-message-type counters as "TYPE count total_us".
stats() {
	sdiag | awk '/^Remote Procedure Call statistics by message type/ { on = 1 }
	    /^Remote Procedure Call statistics by user/ { on = 0 }
	    on && $1 ~ /^(REQUEST|MESSAGE)_/ {
		c = 0; t = 0
		for (i = 2; i <= NF; i++) {
			if ($i ~ /^count:/) { c = $i; sub(/^count:/, "", c) }
			if ($i ~ /^total_time:/) { t = $i; sub(/^total_time:/, "", t) }
		}
		print $1, c, t }' | sort >"$1"
}

# delta A B: "TYPE count total_us" of what B counts beyond A, sdiag's own
# requests left out.
delta() {
	join -a 2 -e 0 -o 0,1.2,1.3,2.2,2.3 "$1" "$2" |
	    awk '$1 != "REQUEST_STATS_INFO" && $4 - $2 > 0 {
		print $1, $4 - $2, $5 - $3 }'
}

# ended: attempts of the campaign that have ended.
ended() {
	sqlite3 -readonly "$T/l.db" \
	    "select count(*) from attempts where ended is not null" 2>/dev/null ||
	    echo 0
}

# inflight: jobs slurmctld holds pending or running (array tasks apart).
inflight() {
	squeue -h -r -t pending,running -o %i 2>/dev/null | wc -l
}

echo "bench-slurm: $N trials of 'sleep $S', max_parallel $P, on 4 nodes x 4 CPUs; sdiag over $W s with $P in flight"
"$TOP/tests/slurm/cluster.sh" start "$T/sc" >/dev/null
cat >"$T/c.json" <<JSON
{"name": "rpc", "workload": "sleep",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"seconds": {"type": "choice", "values": [$S]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": $N, "max_parallel": $P},
 "backend": "slurm",
 "resources": {"cpus_per_task": 1, "time_limit": "00:10:00"}}
JSON
cat >"$T/h.conf" <<CONF
ledger = $T/l.db
run_dir = $T/runs
CONF
"$B/hpoctl" -f "$T/h.conf" run -q --format json "$T/c.json" >/dev/null &
BENCH_PID=$!
i=0
while [ "$(inflight)" -lt "$P" ] && [ $i -lt 600 ]; do
	sleep 0.5
	i=$((i + 1))
done
stats "$T/s0"
e0=$(ended)
t0=$(date +%s.%N)
sleep "$W"
stats "$T/s1"
e1=$(ended)
t1=$(date +%s.%N)
n1=$(inflight)
delta "$T/s0" "$T/s1" >"$T/d"
awk -v w="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
    -v trials=$((e1 - e0)) -v left="$n1" '
# What the nodes send (slurmd: ends of jobs, epilogs) is not from hpod.
function nodes(t) {
	return t ~ /^MESSAGE_/ || t ~ /^REQUEST_(COMPLETE|STEP_COMPLETE)/
}
{ c[$1] = $2; us[$1] = $3; k[NR] = $1 }
END {
	polls = c["REQUEST_JOB_USER_INFO"]
	printf "  hpod, %.1f s, %d trials ended, %d jobs in flight at the end:\n",
	    w, trials, left
	for (i = 1; i <= NR; i++) {
		t = k[i]
		printf "    %-30s %6d requests, %8.1f ms of slurmctld (%.0f us" \
		    " each)%s\n", t, c[t], us[t] / 1000, us[t] / c[t],
		    nodes(t) ? " [from slurmd]" : ""
		if (!nodes(t)) {
			n += c[t]
			tot += us[t]
		}
	}
	printf "    hpod: %d requests (%.2f/s), %.1f ms of slurmctld;" \
	    " per timed poll of all jobs %.1f requests, per trial %.2f" \
	    " requests and %.2f ms\n", n, n / w, tot / 1000,
	    (polls > 0 ? n / polls : 0), (trials > 0 ? n / trials : 0),
	    (trials > 0 ? tot / 1000 / trials : 0)
}' "$T/d"

# A user's own loop: one `squeue -u root` per look, same jobs in flight.
stats "$T/s2"
t2=$(date +%s.%N)
i=0
while [ $i -lt "$K" ]; do
	squeue -u root -h >/dev/null
	i=$((i + 1))
done
t3=$(date +%s.%N)
stats "$T/s3"
delta "$T/s2" "$T/s3" | awk -v k="$K" \
    -v w="$(awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }')" '
{ n += $2; tot += $3; line = line sprintf(" %s %d,", $1, $2) }
END {
	printf "  squeue -u root, %d looks: %.1f requests and %.2f ms of" \
	    " slurmctld per look (%.2f s wall each);%s\n", k, n / k,
	    tot / 1000 / k, w / k, line
}'
kill -INT "$BENCH_PID" 2>/dev/null || true
i=0
while kill -0 "$BENCH_PID" 2>/dev/null && [ $i -lt 240 ]; do
	sleep 0.5
	i=$((i + 1))
done
kill -KILL "$BENCH_PID" 2>/dev/null || true
wait "$BENCH_PID" 2>/dev/null || true
BENCH_PID=
