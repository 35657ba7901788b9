#!/bin/sh
# hpoctl cancel --trial N while the campaign is being cancelled (its
# trial, deaf to SIGTERM, waits for the SIGKILL after the grace): refused,
# saying the campaign is ending.  Before, it said "trial 0 is not running"
# of a trial that ran, and a second --trial of a trial being stopped said
# the same.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
trap '' TERM
: >"$HPO_DIR/deaf"
sleep "$1"
SH
cat >"$T/ce.json" <<JSON
{"name": "ce", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "choice",
 "values": [60]}}, "budget": {"max_trials": 2, "max_parallel": 2},
 "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"},
 "retry": {"limit": 0}}
JSON
start_daemon
"$HPOCTL" submit "$T/ce.json" >/dev/null
# Both trials deaf to SIGTERM (a cancel before their trap would end them).
for _ in $(seq 1 300); do
	[ "$(ls "$RUNS"/*/trial-*/attempt-0/deaf 2>/dev/null | wc -l)" = 2 ] &&
	    break
	sleep 0.1
done
check "cancel --trial 1 is accepted" "$HPOCTL" cancel --trial 1 ce
rc=0
"$HPOCTL" cancel --trial 1 ce 2>"$T/err" || rc=$?
is "cancel --trial 1 again is refused" "$rc" 1
is "saying it is being stopped" "$(cat "$T/err")" \
    "hpoctl: campaign 'ce': trial 1 is being stopped already"
check "the campaign's cancel is accepted" "$HPOCTL" cancel ce
rc=0
"$HPOCTL" cancel --trial 0 ce 2>"$T/err" || rc=$?
is "cancel --trial 0 while it ends is refused" "$rc" 1
is "saying the campaign is ending" "$(cat "$T/err")" \
    "hpoctl: campaign 'ce' is ending: its running trials are being stopped with it"
check "the campaign ends" wait_campaign ce 60
is "both trials cancelled" "$(sql "select group_concat(state) from trials")" \
    cancelled,cancelled
check "the daemon stops" stop_daemon
done_testing
