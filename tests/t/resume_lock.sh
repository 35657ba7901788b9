#!/bin/sh
# hpoctl resume of a campaign whose lock is held by a process that has not
# written its id in the lock file yet (it writes it just after locking):
# refused, naming another process.  Before, the message said "is still run
# by process ?".
. "$(dirname "$0")/lib.subr"

write_campaign rl 2 1 40
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" "$T/rl.json" \
    >/dev/null &
pid=$!
for _ in $(seq 1 300); do
	[ "$(sql "select count(*) from attempts where started > 0" \
	    2>/dev/null || echo 0)" -ge 1 ] && break
	sleep 0.1
done
kill -KILL "$pid" 2>/dev/null || true
wait "$pid" 2>/dev/null || true
lock="$(realpath "$LEDGER").1.lock"
: >"$lock"
# -o: flock holds the lock itself, and releases it when killed.
flock -o "$lock" sleep 20 >/dev/null 2>&1 &
holder=$!
for _ in $(seq 1 50); do
	flock -n "$lock" true || break
	sleep 0.1
done
rc=0
"$HPOCTL" resume -q --ledger "$LEDGER" --run-dir "$RUNS" rl \
    >/dev/null 2>"$T/err" || rc=$?
kill "$holder" 2>/dev/null || true
wait "$holder" 2>/dev/null || true
is "resume is refused while the lock is held" "$rc" 1
is "naming another process, not 'process ?'" "$(cat "$T/err")" \
    "hpoctl: $LEDGER: campaign 'rl' (id 1) is still run by another process ($lock is locked): stop it first"
check "resume takes it back once the lock is free" \
    "$HPOCTL" resume -q --ledger "$LEDGER" --run-dir "$RUNS" rl
is "and it finishes" "$(sql "select state from campaigns")" finished
done_testing
