#!/bin/sh
# Ctrl-C stops a foreground run that is busy creating trials: a replay
# campaign of 100,000 trials (the backend has a step ready at every turn
# of the loop) and a local campaign of 100,000 instant trials, each sent
# SIGINT or SIGTERM once trials are being recorded.  hpoctl exits 2 long
# before the campaign could have run out, and leaves the ledger
# consistent: the campaign cancelled, every attempt ended, no trial left
# pending or running.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# A table of one configuration: 3 epochs of 10 virtual seconds.
replay_one 1
lr_spec replay 100000 8 '"gpus_per_node": 1'
cat >"$T/instant.json" <<'JSON'
{"name": "instant", "program": "sh",
 "args": ["-c", "echo \":::MLLOG {{\\\"key\\\": \\\"eval_error\\\", \\\"value\\\": $0, \\\"metadata\\\": {{\\\"epoch_num\\\": 1}}}}\"", "{x}"],
 "objective": {"metric": "eval_error", "goal": "min"}}
JSON
cat >"$T/local.json" <<JSON
{"name": "local", "workload": "$T/instant.json",
 "space": {"x": {"type": "float", "min": 0, "max": 1}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 100000, "max_parallel": 4}}
JSON

# interrupt NAME SIGNAL: run campaign NAME in the foreground, send SIGNAL
# once it has recorded 20 trials, and wait (at most 60 s) for the exit.
interrupt() {
	db=$T/$1-$2.db
	"$HPOCTL" -f "$CONF" run -q --ledger "$db" --run-dir "$T/runs-$1-$2" \
	    --format json \
	    "$T/$1.json" >"$T/$1-$2.out" 2>"$T/$1-$2.err" &
	pid=$!
	for _ in $(seq 1 300); do
		n=$(sqlite3 "$db" "select count(*) from trials" 2>/dev/null) ||
		    n=0
		[ "${n:-0}" -ge 20 ] && break
		sleep 0.1
	done
	kill -"$2" "$pid"
	rc=
	for _ in $(seq 1 600); do
		kill -0 "$pid" 2>/dev/null || { rc=0; wait "$pid" || rc=$?; break; }
		sleep 0.1
	done
	if [ -z "$rc" ]; then
		kill -KILL "$pid"
		wait "$pid" || true
		rc=timeout
	fi
	is "$1, $2: hpoctl run stops and exits 2" "$rc" 2
	is "$1, $2: the campaign is cancelled" \
	    "$(sqlite3 "$db" "select state from campaigns")" cancelled
	check "$1, $2: long before its 100000 trials" \
	    test "$(sqlite3 "$db" "select count(*) from trials")" -lt 100000
	is "$1, $2: every attempt ended" \
	    "$(sqlite3 "$db" "select count(*) from attempts where ended is null")" 0
	is "$1, $2: no trial left pending or running" \
	    "$(sqlite3 "$db" "select count(*) from trials where state in ('pending', 'running')")" 0
	is "$1, $2: the report says cancelled" \
	    "$(jq -r .campaign.state "$T/$1-$2.out")" cancelled
}

cd "$T"
interrupt replay INT
interrupt replay TERM
interrupt local INT
done_testing
