#!/bin/sh
# A campaign an older hpod accepted and recorded is taken back, reported
# and resumed by a newer one whose check would refuse the same spec only
# because a setting in it does nothing (a stopper key another stopper
# reads: "leader" given to asha).  Before spec_parse_recorded(), the
# restarted daemon logged "not resumed" and left the campaign's running
# jobs to nobody (their ends never recorded, never billed), and hpoctl
# resume of a foreground run refused it (watch, the guideline table and
# the Optuna export read such a spec the same way now).  The older ledger is made here by writing the key into the
# recorded spec while nothing runs it (hpod SIGKILLed).
. "$(dirname "$0")/lib.subr"

# older NAME: the recorded spec of campaign NAME with "leader": 2 in its
# asha stopper, as an older hpod would have kept it.
older() {
	sqlite3 "$LEDGER" "update campaigns set spec_json = json_set(spec_json,
	    '\$.search.stopper.leader', 2) where name = '$1'"
}

write_campaign old 4 2 12
jq '.search.stopper = {"algorithm": "asha", "min_resource": 2, "eta": 2}' \
    "$T/old.json" >"$T/old2.json"
start_daemon
"$HPOCTL" submit "$T/old2.json" >/dev/null
wait_count 2 10 "select count(*) from attempts where started is not null"
kill_daemon
older old
is "the recorded spec holds the key" \
    "$(sql "select json_extract(spec_json, '\$.search.stopper.leader') from campaigns where name = 'old'")" 2
jq '.search.stopper.leader = 2' "$T/old2.json" >"$T/new.json"
rc=0
"$HPOCTL" -f "$CONF" check "$T/new.json" >/dev/null 2>"$T/err" || rc=$?
is "this hpod's check refuses such a spec" "$rc" 1
check "naming the key" grep -q "search.stopper.leader: not read by the \"asha\" stopper" "$T/err"
start_daemon
check "the restarted daemon takes the recorded campaign back" \
    wait_for_log "campaign old (id 1) resumed"
check "not 'not resumed'" sh -c "! grep -q 'not resumed' '$T/hpod.log'"
check "and finishes it" wait_campaign old 180
is "every trial ran once" "$(sql "select count(*) from attempts")" 4
is "every attempt ended, with its cost" \
    "$(sql "select count(*) from attempts where ended is null or started is null")" 0
check "the daemon stops" stop_daemon

# A foreground run killed, its spec made older, then resumed.
write_campaign fg 3 1 200 0.0001
jq '.search.stopper = {"algorithm": "asha", "min_resource": 2, "eta": 2}' \
    "$T/fg.json" >"$T/fg2.json"
"$HPOCTL" -f "$CONF" run "$T/fg2.json" >/dev/null 2>"$T/fg.err" &
FG=$!
wait_count 1 10 "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'fg' and a.started is not null"
kill -KILL "$FG"
wait "$FG" 2>/dev/null || true
older fg
rc=0
"$HPOCTL" -f "$CONF" resume -q fg >/dev/null 2>"$T/res.err" || rc=$?
is "hpoctl resume takes the older foreground run back" "$rc" 0
is "and it finished" "$(sql "select state from campaigns where name = 'fg'")" finished
done_testing
