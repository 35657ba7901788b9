#!/bin/sh
# hpoctl budget CAMPAIGN --max-trials N --max-node-hours H ...: a running
# campaign's budget grows (or shrinks, max_trials not below the trials
# made), in the ledger's spec too, so a restarted daemon keeps it; anything
# else is refused, saying why.
. "$(dirname "$0")/lib.subr"

start_daemon
# One long trial at a time, a budget of one, a target none reaches.
write_campaign bg 1 1 200 0.0001
"$HPOCTL" submit "$T/bg.json" >/dev/null
wait_count 1 20 "select count(*) from attempts where started is not null"
rc=0
"$HPOCTL" budget bg --max-trials 2 >"$T/out.txt" 2>&1 || rc=$?
is "budget --max-trials 2 is accepted" "$rc" 0
check "and says so" grep -q "campaign 'bg' (id 1): budget changed" "$T/out.txt"
is "status shows max_trials 2" \
    "$("$HPOCTL" status --format json bg | jq .max_trials)" 2
is "the ledger's spec has it" \
    "$(sql "select json_extract(spec_json, '\$.budget.max_trials') || ' ' || max_trials from campaigns")" "2 2"
check "the event log says so" test \
    "$(sql "select count(*) from events where kind = 'budget' and message like 'budget {%\"max_trials\":2%'")" = 1
check "budget --max-node-hours 5 --max-wall-time 2:00:00" \
    "$HPOCTL" budget --max-node-hours 5 --max-wall-time 2:00:00 bg
is "the ledger's spec has both" \
    "$(sql "select json_extract(spec_json, '\$.budget.max_node_hours') || ' ' || json_extract(spec_json, '\$.budget.max_wall_time') || ' ' || json_extract(spec_json, '\$.budget.max_trials') from campaigns")" \
    "5 2:00:00 2"
rc=0
"$HPOCTL" budget --max-wall-time 1-2-3 bg 2>"$T/err.txt" || rc=$?
is "a bad duration: bad usage" "$rc" 64
check "saying so" grep -q "max-wall-time: expected a duration" "$T/err.txt"

# Trial 0 ends: the campaign goes on with a second trial, not to its end.
check "cancel trial 0" "$HPOCTL" cancel --trial 0 bg
wait_count 2 20 "select count(*) from trials"
is "a second trial is made" "$(sql "select count(*) from trials")" 2
is "the campaign runs" "$("$HPOCTL" status --format json bg | jq -r .state)" \
    running

rc=0
"$HPOCTL" budget bg --max-trials 1 2>"$T/err.txt" || rc=$?
is "below the trials made: refused" "$rc" 1
check "saying why" grep -q "budget.max_trials 1 must be from 2" "$T/err.txt"
rc=0
"$HPOCTL" budget bg 2>"$T/err.txt" || rc=$?
is "no --max-trials: bad usage" "$rc" 64
check "saying what is missing" grep -q -- "--max-trials, --max-node-hours, --max-gpu-hours or --max-wall-time missing" "$T/err.txt"
rc=0
"$HPOCTL" budget nosuch --max-trials 3 2>"$T/err.txt" || rc=$?
is "no such running campaign: refused" "$rc" 1
check "naming it" grep -q "no running campaign 'nosuch'" "$T/err.txt"

# 1e999 reads as infinity, which the spec would store as null, so the
# campaign would not resume: refused, the stored budget unchanged.
reply=$(python3 - "$SOCK" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
s.sendall(b'{"cmd": "budget", "campaign": "bg", "max_node_hours": 1e999}\n')
print(json.loads(s.makefile("rb").readline()).get("error", "accepted"))
PY
)
check "an infinite max_node_hours on the socket is refused ($reply)" \
    expr "$reply" : '.*positive numbers' '>' 0
is "the stored max_node_hours stays 5" \
    "$(sql "select json_extract(spec_json, '\$.budget.max_node_hours') from campaigns")" 5

# A restarted daemon resumes with the new budget.
check "the daemon stops" stop_daemon
start_daemon
is "after a restart, max_trials is still 2" \
    "$("$HPOCTL" status --format json bg | jq .max_trials)" 2
check "cancel the campaign" "$HPOCTL" cancel bg
check "it stops" wait_campaign bg 30
is "with two trials" "$(sql "select count(*) from trials")" 2
check "the daemon stops" stop_daemon
done_testing
