#!/bin/sh
# The fault matrix: each fault is injected into real processes, a real
# ledger and real file systems, and its expected outcome is written beside
# it.  Faults that need root (a small tmpfs, a read-only mount) are skipped
# without it.
#
#   stale run_dir      a fresh ledger over an old run_dir: the old attempt
#                      directory is refused, never appended to or read
#   forking workload   what it leaves behind (even ignoring SIGTERM) dies
#                      with it; the attempt is completed
#   SIGTERM ignored    a cancelled trial is killed after the grace time,
#                      ends cancelled, and its time is counted
#   100 MB of stdout   followed to the end: the last metric line counts
#   second daemon      refused, naming the ledger and the first one's pid
#   read-only ledger   hpod and hpoctl run refuse it; nothing starts
#   disk nearly full   no new trials, said once; nothing lost or retried;
#                      submissions resume when space returns
#   disk full          a trial whose result.json cannot be written ends
#                      as its exit status says, not lost and run again
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
MOUNTS=
PIDS=
faults_cleanup() {
	for p in $PIDS; do kill -KILL "$p" 2>/dev/null || true; done
	for m in $MOUNTS; do umount "$m" 2>/dev/null || true; done
}
trap 'rc=$?; faults_cleanup; cleanup "$rc"' EXIT

# script NAME: a shell workload running $T/bin/NAME.sh (from stdin) with
# its parameter "value" as $1.
script() {
	cat >"$T/bin/$1.sh"
	cat >"$T/wl/$1.json" <<JSON
{"name": "$1", "program": "sh", "args": ["$T/bin/$1.sh", "{value}"],
 "defaults": {"value": 1}}
JSON
}

# campaign NAME WORKLOAD VALUE TRIALS PARALLEL: write $T/NAME.json.
campaign() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "$2",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.2},
 "space": {"value": {"type": "choice", "values": [$3]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": $4, "max_parallel": $5},
 "resources": {"cpus_per_task": 1}}
JSON
}

# Campaign-scoped ledger queries.
attempts_of() {
	sql "select group_concat(a.state, ',') from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1'"
}

# wait_for SECONDS COMMAND...: until the command succeeds.
wait_for() {
	n=$(( $1 * 5 ))
	shift
	for _ in $(seq 1 "$n"); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	return 1
}

# exit_status PID: set $status to the exit status of background job PID,
# or to "running" (and kill it) if it still runs after 20 s.
exit_status() {
	for _ in $(seq 1 100); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -KILL "$1"
		wait "$1" 2>/dev/null || true
		status=running
		return
	fi
	status=0
	wait "$1" || status=$?
}

# alive PID: the process runs (a zombie waiting for init is not running).
alive() {
	s=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
	case $s in Z*) return 1 ;; esac
}

started() {
	[ "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1' and a.started is not null")" -ge "$2" ]
}

MLLOG=':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": 1}}\n'
script emit <<SH
printf '$MLLOG' "\$1"
SH

# Stale run_dir: campaign 1 of a first ledger reached the target; a fresh
# ledger's campaign 1 of the same name must not append to its attempt
# directory nor read its lines as its own.
campaign stale emit 0.1 1 1
"$HPOCTL" run -q --ledger "$T/first.db" --run-dir "$T/shared" \
    "$T/stale.json" >/dev/null 2>&1
old="$T/shared/1-stale/trial-0000/attempt-0/stdout"
sum=$(cksum <"$old")
campaign stale emit 0.9 1 1
rc=0
"$HPOCTL" run -q --ledger "$T/second.db" --run-dir "$T/shared" \
    "$T/stale.json" >"$T/stale.out" 2>&1 || rc=$?
is "stale run_dir: the old attempt's output is untouched" "$(cksum <"$old")" "$sum"
# The refused run removes the ledger it created (ledger_discard()): so
# it read none of the old lines and hit no target.
check "stale run_dir: the new campaign recorded nothing (no ledger left)" \
    test ! -e "$T/second.db"
is "stale run_dir: hpoctl run refuses the campaign (exit 1)" "$rc" 1
check "stale run_dir: the refusal names the run directory" \
    grep -q "run directory $T/shared/1-stale exists already" "$T/stale.out"
check "stale run_dir: the first ledger is kept" \
    test "$(sqlite3 "$T/first.db" "select count(*) from campaigns")" = 1

start_daemon

# A workload that forks and exits: its children (one ignoring SIGTERM)
# end with the attempt.
script forker <<'SH'
sleep 300 &
echo $! >forked.pid
(trap '' TERM; exec sleep 301) &
echo $! >>forked.pid
printf ':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": 0.5, "metadata": {"file": "t", "epoch_num": 1}}\n'
exit 0
SH
campaign fork forker 1 1 1
check "forker: submitted" "$HPOCTL" submit "$T/fork.json"
check "forker: campaign ends" wait_campaign fork 60
is "forker: attempt completed" "$(attempts_of fork)" completed
dir=$(sql "select a.dir from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'fork'")
PIDS="$PIDS $(cat "$dir/forked.pid" 2>/dev/null)"
alive=0
for p in $(cat "$dir/forked.pid"); do
	! alive "$p" || alive=$((alive + 1))
done
is "forker: nothing it forked outlives the attempt" "$alive" 0

# A workload that ignores SIGTERM, cancelled: SIGKILL after the grace.
script termdeaf <<'SH'
trap '' TERM
echo $$ >termdeaf.pid
sleep 300
SH
campaign termdeaf termdeaf 1 1 1
check "termdeaf: submitted" "$HPOCTL" submit "$T/termdeaf.json"
check "termdeaf: starts" wait_for 30 started termdeaf 1
sleep 1
check "termdeaf: cancel accepted" "$HPOCTL" cancel termdeaf
check "termdeaf: campaign ends despite SIGTERM ignored" wait_campaign termdeaf 60
is "termdeaf: attempt cancelled" "$(attempts_of termdeaf)" cancelled
dir=$(sql "select a.dir from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'termdeaf'")
p=$(cat "$dir/termdeaf.pid")
PIDS="$PIDS $p"
is "termdeaf: the workload is gone" "$(alive "$p" && echo alive)" ""
check "termdeaf: its time is counted" test "$(sql "select a.ended > a.started from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'termdeaf'")" = 1

# 100 MB of output, then a metric line: followed to the end.
script chatty <<SH
yes 'training step output line that no one reads, padded to a hundred bytes for the flood test 0123' |
    head -c 100000000
printf '$MLLOG' "\$1"
SH
campaign chatty chatty 0.3 1 1
check "chatty: submitted" "$HPOCTL" submit "$T/chatty.json"
check "chatty: campaign ends" wait_campaign chatty 300
is "chatty: attempt completed" "$(attempts_of chatty)" completed
is "chatty: the metric after 100 MB is recorded" \
    "$(sql "select t.best from trials t join campaigns c on c.id = t.campaign_id where c.name = 'chatty'")" 0.3
check "chatty: the daemon still answers" "$HPOCTL" ping

# A second daemon on the same ledger, another socket: refused.
sed "s|^socket = .*|socket = $T/run2/hpod.sock|" "$CONF" >"$T/second.conf"
"$HPOD" -d -f "$T/second.conf" 2>"$T/second.err" &
p=$!
PIDS="$PIDS $p"
exit_status "$p"
is "second daemon: exits 1" "$status" 1
check "second daemon: names the ledger and the holder's pid" \
    grep -q "ledger '$LEDGER' is in use by another hpod (pid $DPID" "$T/second.err"
check "second daemon: the first still answers" "$HPOCTL" ping
stop_daemon

if [ "$(id -u)" != 0 ]; then
	for s in "read-only ledger" "disk nearly full" "disk full"; do
		ok "$s # skip needs root (mount)"
	done
	done_testing
	exit
fi

# A read-only ledger: refused by hpod and hpoctl run, with its name.
mkdir -p "$T/ro"
mount -t tmpfs -o size=128m tmpfs "$T/ro"
MOUNTS="$T/ro $MOUNTS"
"$HPOCTL" run -q --ledger "$T/ro/ledger.db" --run-dir "$T/ro/runs" \
    "$T/fork.json" >/dev/null 2>&1
mount -o remount,ro "$T/ro"
sed -e "s|^ledger = .*|ledger = $T/ro/ledger.db|" \
    -e "s|^socket = .*|socket = $T/run3/hpod.sock|" "$CONF" >"$T/ro.conf"
"$HPOD" -d -f "$T/ro.conf" 2>"$T/ro.err" &
p=$!
PIDS="$PIDS $p"
exit_status "$p"
is "read-only ledger: hpod exits 1" "$status" 1
check "read-only ledger: hpod says why, naming it" \
    grep -q "ledger '$T/ro/ledger.db': cannot be written" "$T/ro.err"
rc=0
"$HPOCTL" run -q --ledger "$T/ro/ledger.db" --run-dir "$T/runs-ro" \
    "$T/fork.json" >/dev/null 2>"$T/ro-run.err" || rc=$?
is "read-only ledger: hpoctl run exits 1" "$rc" 1
check "read-only ledger: hpoctl run says why" \
    grep -q "ledger '$T/ro/ledger.db': cannot be written" "$T/ro-run.err"
check "read-only ledger: nothing ran" test ! -e "$T/runs-ro"

# Disk nearly full (below min_free) under the ledger and run_dir.
mkdir -p "$T/full"
mount -t tmpfs -o size=32m tmpfs "$T/full"
MOUNTS="$T/full $MOUNTS"
sed -e "s|^ledger = .*|ledger = $T/full/ledger.db|" \
    -e "s|^run_dir = .*|run_dir = $T/full/runs|" "$CONF" >"$T/full.conf"
echo "min_free = 8" >>"$T/full.conf"
CONF="$T/full.conf"
LEDGER="$T/full/ledger.db"
script nap <<SH
sleep 2
printf '$MLLOG' "\$1"
SH
campaign nap nap 0.5 5 1
start_daemon
check "nearly full: submitted" "$HPOCTL" submit "$T/nap.json"
check "nearly full: a trial runs" wait_for 30 started nap 1
avail=$(df -B1 --output=avail "$T/full" | tail -1)
fallocate -l $((avail - 4 * 1048576)) "$T/full/filler"
check "nearly full: submissions paused, said once" \
    wait_for 30 grep -q "submissions paused" "$T/hpod.log"
n1=$(sql "select count(*) from attempts")
sleep 4
is "nearly full: nothing submitted while paused" \
    "$(sql "select count(*) from attempts")" "$n1"
rm -f "$T/full/filler"
check "nearly full: campaign ends when space returns" wait_campaign nap 120
is "nearly full: every attempt completed, none retried" "$(attempts_of nap)" \
    completed,completed,completed,completed,completed
is "nearly full: paused once" "$(grep -c "submissions paused" "$T/hpod.log")" 1
is "nearly full: resumed once" "$(grep -c "submissions resumed" "$T/hpod.log")" 1
bad=0
for d in $(sql "select dir || '|' || (ended - started) from attempts"); do
	el=${d#*|}
	d=${d%|*}
	jq -e --argjson el "$el" '(.end - .start) - $el | fabs < 1' \
	    "$d/result.json" >/dev/null || bad=$((bad + 1))
done
is "nearly full: each attempt charged its result.json elapsed" "$bad" 0
stop_daemon

# Disk full under run_dir while a trial runs: hpo-trial cannot write its
# final result.json; the trial still ends as the workload did.
umount "$T/full"
mount -t tmpfs -o size=16m tmpfs "$T/full"
sed -e "s|^run_dir = .*|run_dir = $T/full/runs|" "$T/hpod.conf" \
    >"$T/full2.conf"
echo "min_free = 0" >>"$T/full2.conf"
CONF="$T/full2.conf"
LEDGER="$T/state/ledger.db"
script lull <<'SH'
sleep 3
SH
campaign lull lull 1 1 1
start_daemon
check "full: submitted" "$HPOCTL" submit "$T/lull.json"
check "full: the trial runs" wait_for 30 started lull 1
# Its wrapper has written its first record: the disk fills while the
# workload runs (filled before, the workload never starts: a launch
# failure, retried, as tests/slurm/launch_fail.sh has it).
lull_dir() {
	sql "select dir from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'lull'"
}
check "full: hpo-trial wrote its record" \
    wait_for 30 grep -q '"state":"running"' "$(lull_dir)/result.json"
dd if=/dev/zero of="$T/full/filler" bs=1M 2>/dev/null || true
check "full: campaign ends" wait_campaign lull 60
is "full: one attempt, completed as the workload exited" "$(attempts_of lull)" \
    completed
check "full: hpo-trial could not write result.json" \
    grep -q '"state":"running"' "$(lull_dir)/result.json"
rm -f "$T/full/filler"
stop_daemon

done_testing
