#!/bin/sh
# report-scale.sh: reports on a large ledger (make bench).  A random-search
# replay campaign of TRIALS trials (default 100,000) of EPOCHS epochs
# (default 10: 10^6 metric points) goes through the real engine into a
# ledger; then `hpoctl report`, `trials`, `report --table` and
# `report --format html` read it (no daemon: --ledger), each timed, and a
# daemon is started on that ledger to print its CPU time and resident set
# while it sits idle for IDLE seconds (default 10).  LEDGER=FILE reads a
# copy of a ledger this script built before instead (its campaign "big"),
# to compare builds on the same ledger; each command is timed RUNS times
# (default 1) and the run of least CPU time printed.
#
#   tests/bench/report-scale.sh [BUILD]
#
# The campaign's files go under $TMPDIR (about 1 GB at 10^5 trials).
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
HPOCTL=$TOP/$BUILD/hpoctl
HPOD=$TOP/$BUILD/hpod
TRIALS=${TRIALS:-100000}
EPOCHS=${EPOCHS:-10}
IDLE=${IDLE:-10}
T=$(mktemp -d "${TMPDIR:-/tmp}/hpod-rscale.XXXXXX")
DPID=
trap '[ -z "$DPID" ] || kill $DPID 2>/dev/null; rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH=$TOP/workloads

# Eight runs of EPOCHS epochs, each learning curve its own.
awk -v e="$EPOCHS" 'BEGIN {
	printf "{\"format\": \"hpod-replay-1\", \"workload\": \"minicosmo\",\n"
	printf " \"metric\": \"eval_error\", \"goal\": \"min\",\n"
	printf " \"params\": [{\"name\": \"lr\", \"scale\": \"log\"}],\n"
	printf " \"fixed\": {\"epochs\": %d},\n \"runs\": [", e
	for (i = 0; i < 8; i++) {
		printf "%s\n  {\"x\": [%g], \"seed\": 0, \"start_s\": 5, ", i ? "," : "", 10 ^ (-1 - i / 3)
		printf "\"status\": 0, \"epoch_s\": ["
		for (k = 0; k < e; k++) printf "%s10", k ? ", " : ""
		printf "], \"values\": ["
		for (k = 0; k < e; k++) printf "%s%g", k ? ", " : "", 0.2 + (i + 1) / (k + 2) / 10
		printf "]}"
	}
	printf "\n]}\n"
}' >"$T/table.json"
cat >"$T/c.json" <<JSON
{"name": "big", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"lr": {"type": "float", "min": 0.0001, "max": 0.1, "scale": "log"}},
 "fixed": {"epochs": $EPOCHS},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": $TRIALS, "max_parallel": 16},
 "resources": {"gpus_per_node": 1},
 "backend": "replay", "replay": {"table": "$T/table.json"},
 "retry": {"limit": 0}}
JSON
printf 'socket = %s/sock\nledger = %s/l.db\nrun_dir = %s/runs\n' "$T" "$T" \
    "$T" >"$T/hpod.conf"

if [ -n "${LEDGER:-}" ]; then
	cp "$LEDGER" "$T/l.db"
	echo "report: ledger $LEDGER of $(sqlite3 "$T/l.db" \
	    'SELECT count(*) FROM trials') trials and $(sqlite3 "$T/l.db" \
	    'SELECT count(*) FROM metrics') metric points"
else
	start=$(date +%s.%N)
	"$HPOCTL" -f "$T/hpod.conf" run -q "$T/c.json" >/dev/null
	end=$(date +%s.%N)
	points=$(sqlite3 "$T/l.db" 'SELECT count(*) FROM metrics')
	echo "$TRIALS $points $start $end $(du -k "$T/l.db" | cut -f1)" |
	    awk '{ printf "report: ledger of %d trials and %d metric " \
	    "points (%.0f MB) built by the replay engine in %.1f s\n", $1,
	    $2, $5 / 1024, $4 - $3 }'
fi

# Time one command RUNS times, its output to a file; print the wall and
# CPU seconds of the run of least CPU time.
timed() {
	what=$1
	shift
	: >"$T/times"
	for _ in $(seq 1 "${RUNS:-1}"); do
		/usr/bin/time -f '%e %U %S %M' -o "$T/time" "$@" >"$T/out" \
		    2>"$T/err" ||
		    { echo "report: $what failed:"; cat "$T/err"; exit 1; }
		cat "$T/time" >>"$T/times"
	done
	awk '{ print $2 + $3, $0 }' "$T/times" | sort -n | head -1 |
	    cut -d' ' -f2- >"$T/time"
	read -r w u s m <"$T/time"
	echo "$what $w $u $s $m $(wc -c <"$T/out")" | awk '{
	    printf "report: %-22s %6.2f s wall, %6.2f s CPU, %4d MB peak RSS, " \
		"%6.1f MB out\n", $1, $2, $3 + $4, $5 / 1024, $6 / 1048576 }'
}
timed "report" "$HPOCTL" report --ledger "$T/l.db" big
timed "report--json" "$HPOCTL" report --ledger "$T/l.db" --format json big
timed "trials" "$HPOCTL" trials --ledger "$T/l.db" big
timed "report--table" "$HPOCTL" report --ledger "$T/l.db" --table big
timed "report--format-html" "$HPOCTL" report --ledger "$T/l.db" \
    --format html big

# The daemon, idle with that ledger open.
"$HPOD" -d -f "$T/hpod.conf" 2>"$T/hpod.log" &
DPID=$!
for _ in $(seq 1 100); do
	HPOD_SOCKET="$T/sock" "$HPOCTL" ping >/dev/null 2>&1 && break
	sleep 0.1
done
HPOD_SOCKET="$T/sock" "$HPOCTL" status >/dev/null
cpu() { awk '{ print $14 + $15 }' "/proc/$DPID/stat"; }
c0=$(cpu)
sleep "$IDLE"
c1=$(cpu)
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$DPID/status")
echo "$c0 $c1 $IDLE $rss $(getconf CLK_TCK)" | awk '{
    printf "report: hpod idle with that ledger open: %.2f%% of a core " \
	"over %d s, %.1f MB RSS\n", ($2 - $1) / $5 / $3 * 100, $3, $4 / 1024 }'
