#!/bin/sh
# hpoctl cancel CAMPAIGN --trial N: one running trial is cancelled (its
# cost counted, not retried) and the campaign goes on with the others.
. "$(dirname "$0")/lib.subr"

start_daemon
# Three long trials, two at a time, with a target none reaches.
write_campaign ct 3 2 200 0.0001
"$HPOCTL" submit "$T/ct.json" >/dev/null
wait_count 2 20 "select count(*) from attempts where started is not null"
rc=0
"$HPOCTL" cancel --trial 0 ct >"$T/out.txt" 2>&1 || rc=$?
is "cancel --trial 0 is accepted" "$rc" 0
check "and says so" grep -q "cancelling trial 0" "$T/out.txt"
for _ in $(seq 1 100); do
	[ "$(sql "select state from trials where number = 0")" = cancelled ] &&
	    break
	sleep 0.2
done
is "trial 0 ends cancelled" "$(sql "select state from trials where number = 0")" \
    cancelled
is "with one attempt, not retried" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.number = 0")" 1
check "its attempt ended with a cost" test \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.number = 0 and a.ended > a.started")" = 1
is "the campaign goes on" "$("$HPOCTL" status --format json ct | jq -r .state)" \
    running
wait_count 3 20 "select count(*) from trials"
is "its freed slot runs the next trial" "$(sql "select count(*) from trials")" 3
is "trial 1 still runs" "$(sql "select state from trials where number = 1")" \
    running

rc=0
"$HPOCTL" cancel --trial 0 ct 2>"$T/err.txt" || rc=$?
is "a trial that is not running: refused" "$rc" 1
check "saying so" grep -q "trial 0 is not running" "$T/err.txt"
rc=0
"$HPOCTL" cancel --trial x ct 2>"$T/err.txt" || rc=$?
is "--trial x: bad usage" "$rc" 64
check "saying what is wrong" grep -q "expected a trial number, got 'x'" \
    "$T/err.txt"
check "cancel the campaign" "$HPOCTL" cancel ct
check "it stops" wait_campaign ct 30
check "the daemon stops" stop_daemon
done_testing
