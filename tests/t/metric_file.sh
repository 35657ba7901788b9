#!/bin/sh
# A trainer that writes its metrics to a file of its own (an MLPerf
# reference's MLLOG file) rather than stdout: the workload's metric_file,
# a path in the attempt directory with {placeholders}, is read as stdout
# was, by the local backend and in pilots, and read anew from its start
# when the campaign is taken back.  Before, only stdout was read: such a
# trial ended "no eval_error reported" with its points in the file.
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
# f.sh VALUE DIR GO: its points go to DIR/logs/mllog_VALUE.log; stdout
# has a point of its own, which must not be read.  Values 4 to 6 make
# the file, or its directory, a link to GO's directory's outside/, or a
# FIFO.
cat >"$T/bin/f.sh" <<'SH'
ml() {
	echo ":::MLLOG {\"key\": \"eval_error\", \"value\": $1, \"metadata\": {\"epoch_num\": $2}}"
}
log=$2/logs/mllog_$1.log
ml 0.9 1
case $1 in
1) mkdir -p "$2/logs"; { ml 0.5 1; ml 0.1 2; } >"$log" ;;
2) ;;
3) mkdir -p "$2/logs"; { ml 0.6 1; ml 0.4 2; } >"$log"
   while [ ! -e "$3" ]; do sleep 0.1; done
   { ml 0.3 3; ml 0.2 4; } >>"$log" ;;
4) ln -s "${3%/go}/outside" "$2/logs" ;;
5) mkdir -p "$2/logs"; ln -s "${3%/go}/outside/mllog_4.log" "$log" ;;
6) mkdir -p "$2/logs"; mkfifo "$log" ;;
esac
SH
# A file outside every attempt directory, which hpod must not read.
mkdir "$T/outside"
echo ':::MLLOG {"key": "eval_error", "value": 0.2, "metadata": {"epoch_num": 1}}' \
    >"$T/outside/mllog_4.log"
cat >"$T/wl/f.json" <<JSON
{"name": "f", "program": "sh", "args": ["$T/bin/f.sh", "{value}", "{dir}", "$T/go"],
 "objective": {"metric": "eval_error", "goal": "min"},
 "metric_file": "logs/mllog_{value}.log"}
JSON
# campaign NAME VALUES: a grid over the values, one at a time.
campaign() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "f",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "choice", "values": $2}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 9, "max_parallel": 1}}
JSON
}
# pts CAMPAIGN TRIAL: its points as step:value.
pts() {
	sql "select group_concat(m.step || ':' || m.value, ' ') from (select m.* from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1' and t.number = $2 and m.key = 'eval_error' order by m.step) m"
}

campaign fa '[1, 2]'
is "render says which file is read" \
    "$("$HPOCTL" -f "$CONF" render "$T/fa.json" | grep '^reader:')" \
    "reader: MLLOG lines of logs/mllog_1.log"
"$HPOCTL" -f "$CONF" run "$T/fa.json" >/dev/null 2>"$T/fa.log" ||
    sed 's/^/# /' "$T/fa.log"
is "the points are the file's, not stdout's" "$(pts fa 0)" "1.0:0.5 2.0:0.1"
check "the trial's best is the file's" grep -q \
    "fa: trial 0: completed, best eval_error 0.1" "$T/fa.log"
check "a file never written is named when the trial ends" grep -q \
    "fa: trial 1: completed: exit 0, no eval_error reported: $RUNS/[0-9]*-fa/trial-0001/attempt-0/logs/mllog_2.log was never written$" \
    "$T/fa.log"

# Pilots read the same file.
campaign fp '[1]'
jq '. + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1}}' \
    "$T/fp.json" >"$T/fp.tmp" && mv "$T/fp.tmp" "$T/fp.json"
"$HPOCTL" -f "$CONF" run "$T/fp.json" >/dev/null 2>"$T/fp.log" ||
    sed 's/^/# /' "$T/fp.log"
is "in a pilot too" "$(pts fp 0)" "1.0:0.5 2.0:0.1"

# Taken back in the middle: the file is read anew from its start, and
# no point is recorded twice.
campaign fr '[3]'
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" "$T/fr.json" \
    >/dev/null 2>"$T/fr.log" &
pid=$!
for _ in $(seq 1 300); do
	[ "$(pts fr 0)" = "1.0:0.6 2.0:0.4" ] && break
	sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
is "fr: two points before the kill" "$(pts fr 0)" "1.0:0.6 2.0:0.4"
touch "$T/go"
check "fr: hpoctl resume takes it back to its end" \
    timeout 60 "$HPOCTL" resume -q --ledger "$LEDGER" --run-dir "$RUNS" fr
is "fr: the rest of the file is read after the restart, none twice" \
    "$(pts fr 0)" "1.0:0.6 2.0:0.4 3.0:0.3 4.0:0.2"

# The trainer may make its metric_file, or a directory on its path, a
# symbolic link: hpod, maybe another user, would read with its own
# rights what it points to, outside the attempt directory.  It follows
# none, and reads only a regular file (a FIFO blocked its loop).
campaign fs '[4, 5, 6]'
timeout -k 5 30 "$HPOCTL" -f "$CONF" run "$T/fs.json" >/dev/null 2>"$T/fs.log" ||
    sed 's/^/# /' "$T/fs.log"
for n in 0 1 2; do
	is "fs: trial $n: nothing is read" "$(pts fs $n)" ""
	v=$((n + 4))
	check "fs: trial $n: the file is named, not read" grep -q \
	    "fs: trial $n: completed: exit 0, no eval_error reported: $RUNS/[0-9]*-fs/trial-000$n/attempt-0/logs/mllog_$v.log is a symbolic link or not a regular file: not read$" \
	    "$T/fs.log"
done

# The replay backend runs no trainer: its lines are on stdout, read
# whatever the workload's metric_file says.
mkdir -p "$T/rp/wl"
jq '.metric_file = "mllog.log"' "$TOP/workloads/minicosmo.json" \
    >"$T/rp/wl/minicosmo.json"
cat >"$T/rp/table.json" <<'JSON'
{"format": "hpod-replay-1", "workload": "minicosmo",
 "metric": "eval_error", "goal": "min",
 "params": [{"name": "lr", "scale": "log"}], "fixed": {"epochs": 2},
 "runs": [{"x": [0.01], "seed": 0, "start_s": 5, "status": 0,
           "epoch_s": [10, 10], "values": [0.5, 0.3]}]}
JSON
cat >"$T/rp/rp.json" <<'JSON'
{"name": "rp", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"lr": {"type": "choice", "values": [0.01]}},
 "fixed": {"epochs": 2}, "search": {"algorithm": "grid"},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "backend": "replay", "replay": {"table": "table.json"}}
JSON
HPOD_WORKLOAD_PATH="$T/rp/wl:$HPOD_WORKLOAD_PATH" "$HPOCTL" -f "$CONF" run \
    "$T/rp/rp.json" >/dev/null 2>"$T/rp.log" || sed 's/^/# /' "$T/rp.log"
is "replay: its points are read from stdout" "$(pts rp 0)" "1.0:0.5 2.0:0.3"

# A value that would take the file out of the attempt directory: the
# trial is not submitted, and the message names the file and key.
campaign fx '["x/../../../y"]'
"$HPOCTL" -f "$CONF" run "$T/fx.json" >/dev/null 2>"$T/fx.log" || true
check "a parameter that puts '..' in the path is refused" grep -q \
    "fx: trial 0: not submitted: $T/wl/f.json: metric_file: 'logs/mllog_x/../../../y.log' is not a path inside the attempt directory" \
    "$T/fx.log"

# Bad specs, refused before anything runs, naming the file and key.
for bad in '"/tmp/mllog.log"' '"../mllog.log"' '"logs/../../x"' '""' \
    '"logs/{value"' 3; do
	jq ".metric_file = $bad" "$T/wl/f.json" >"$T/wl/g.json"
	jq '.workload = "g"' "$T/fa.json" >"$T/g.json"
	rc=0
	"$HPOCTL" -f "$CONF" check "$T/g.json" >/dev/null 2>"$T/err.txt" ||
	    rc=$?
	check "metric_file $bad is refused, naming the file and key" grep -q \
	    "g.json: metric_file: expected a path relative to the attempt directory" \
	    "$T/err.txt"
done
done_testing
