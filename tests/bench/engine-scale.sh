#!/bin/sh
# engine-scale.sh: the engine's CPU per trial as a campaign grows (make
# bench).  A random-search campaign of N trials on the replay backend
# (a table of one run of one epoch, so that the backend and the trainer
# cost next to nothing) goes through the real engine, search, attempt
# directories and ledger of `hpoctl run`; the CPU seconds of the process
# over N are the engine's cost per trial, which should not grow with N:
# user time is the engine's own work, system time mostly the ledger's
# and the attempt directories' system calls.
#
#   tests/bench/engine-scale.sh [BUILD]
#
# ENGINE_SIZES (default "1000 10000 100000") and PARALLEL (default 16)
# in the environment replace the campaign sizes and max_parallel,
# ENGINE_METHOD (default random) the search algorithm (tpe: the cost of
# its suggestions over a growing history comes into the figure); the
# campaign's files go under $TMPDIR (TMPDIR=/dev/shm: on tmpfs, without
# the disk's file system in the figure).  Trials per CPU-second is the
# rate the engine would keep on a core of its own; the wall rate depends
# on what else the machine runs.  The largest
# campaign writes 100,000 attempt directories (about 1 GB under $TMPDIR)
# and takes a few minutes.
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
HPOCTL=$TOP/$BUILD/hpoctl
ENGINE_SIZES=${ENGINE_SIZES:-"1000 10000 100000"}
PARALLEL=${PARALLEL:-16}
ENGINE_METHOD=${ENGINE_METHOD:-random}
T=$(mktemp -d "${TMPDIR:-/tmp}/hpod-scale.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH=$TOP/workloads

cat >"$T/table.json" <<'JSON'
{"format": "hpod-replay-1", "workload": "minicosmo",
 "metric": "eval_error", "goal": "min",
 "params": [{"name": "lr", "scale": "log"}],
 "fixed": {"epochs": 1},
 "runs": [{"x": [0.01], "seed": 0, "start_s": 1, "status": 0,
   "epoch_s": [10], "values": [0.5]}]}
JSON
for n in $ENGINE_SIZES; do
	cat >"$T/c.json" <<JSON
{"name": "scale$n", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"lr": {"type": "float", "min": 0.001, "max": 0.1, "scale": "log"}},
 "fixed": {"epochs": 1},
 "search": {"algorithm": "$ENGINE_METHOD", "seed": 1},
 "budget": {"max_trials": $n, "max_parallel": $PARALLEL},
 "resources": {"gpus_per_node": 1},
 "backend": "replay", "replay": {"table": "$T/table.json"},
 "retry": {"limit": 0}}
JSON
	rm -rf "$T/runs" "$T/l.db" "$T/l.db-wal" "$T/l.db-shm"
	start=$(date +%s.%N)
	# `times` after the wait: the children's user and system seconds.
	cpu=$(sh -c '"$1" run -q --ledger "$2/l.db" --run-dir "$2/runs" \
	    "$2/c.json" >/dev/null && times' sh "$HPOCTL" "$T" | tail -1)
	end=$(date +%s.%N)
	echo "$cpu" | awk -v n="$n" -v s="$start" -v e="$end" \
	    -v m="$ENGINE_METHOD" '
	    function sec(t, a) { sub(/s$/, "", t); split(t, a, "m")
	        return a[1] * 60 + a[2] }
	    { u = sec($1); sy = sec($2)
	    printf "engine: %6d %s trials (replay): %6.1f s wall " \
	        "(%.0f trials/s), CPU per trial %.3f ms (user %.3f + " \
	        "system %.3f; %.0f trials per CPU-second)\n", n, m, e - s,
	        n / (e - s), (u + sy) * 1000 / n, u * 1000 / n,
	        sy * 1000 / n, n / (u + sy) }'
done
