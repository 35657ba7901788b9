#!/bin/sh
# The daemon: a real hpod on a private socket and ledger runs a submitted
# campaign of the proxy trainer; the client reads the same results through
# the daemon and straight from the ledger; SIGTERM exits cleanly.
. "$(dirname "$0")/lib.subr"

check "hpod -n accepts the configuration" "$HPOD" -n -f "$CONF" 2>/dev/null
start_daemon
check "daemon answers ping" "$HPOCTL" ping
check "socket directory is private (0700)" \
    test "$(stat -c %a "$T/run")" = 700

write_campaign dm 4 2 2
"$HPOCTL" submit "$T/dm.json" >"$T/submit.txt"
check "submit names the campaign and its id" \
    grep -q "campaign 'dm' submitted as id 1" "$T/submit.txt"
check "campaign finishes" wait_campaign dm 120
"$HPOCTL" report --format json dm >"$T/report.json"
is "report: trial count equals max_trials" \
    "$(jq .trials.total "$T/report.json")" 4
is "report: every trial completed" \
    "$(jq .trials.completed "$T/report.json")" 4
check "report: costs > 0" jq -e '.cost.node_hours > 0 and .cost.cpu_hours > 0' \
    "$T/report.json"
is "ledger: every attempt has a result" \
    "$(sql "select count(*) from attempts where ended is null or state != 'completed'")" 0
missing=0
for d in $(sql 'select dir from attempts'); do
	jq -e '.state == "exited" and .exit_code == 0' "$d/result.json" \
	    >/dev/null 2>&1 || missing=$((missing + 1))
done
is "every attempt directory has a final result.json" "$missing" 0
"$HPOCTL" report --ledger "$LEDGER" --format json dm >"$T/direct.json"
is "daemon and ledger give the same report" \
    "$(jq -c 'del(.campaign.wall_s)' "$T/direct.json")" \
    "$(jq -c 'del(.campaign.wall_s)' "$T/report.json")"
"$HPOCTL" trials --format json dm >"$T/trials.json"
is "trials through the daemon" "$(jq length "$T/trials.json")" 4
"$HPOCTL" status --format json >"$T/status.json"
is "status through the daemon" "$(jq -r '.[0].state' "$T/status.json")" \
    finished

# Cancel: a campaign of long trials is cancelled and its cost still counts.
write_campaign cx 3 2 200 0.0001
"$HPOCTL" submit "$T/cx.json" >/dev/null
wait_count 2 10 "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'cx' and a.started is not null"
sleep 1
check "cancel is accepted" "$HPOCTL" cancel cx
check "cancelled campaign stops" wait_campaign cx 30
"$HPOCTL" report --format json cx >"$T/cx.json"
is "cancelled campaign state" "$(jq -r .campaign.state "$T/cx.json")" cancelled
is "its running trials are cancelled" "$(jq .trials.cancelled "$T/cx.json")" 2
check "and their cost is counted" jq -e '.cost.cpu_hours > 0' "$T/cx.json"
rc=0
"$HPOCTL" cancel cx 2>/dev/null || rc=$?
is "cancelling a finished campaign fails" "$rc" 1

# Errors reach the client with the file and key.
printf '{"name": "bad", "workload": "minicosmo", "space": {}, "budget": {"max_trials": 1}}\n' >"$T/bad.json"
rc=0
"$HPOCTL" submit "$T/bad.json" 2>"$T/err.txt" || rc=$?
is "a bad spec is refused" "$rc" 1
check "with the file and key" grep -q "bad.json: space: expected at least one parameter" "$T/err.txt"

check "SIGTERM: the daemon exits 0" stop_daemon
check "the socket is removed" test ! -e "$SOCK"
rc=0
"$HPOCTL" ping 2>"$T/err.txt" || rc=$?
is "ping without a daemon fails" "$rc" 1
check "and says why" grep -q "cannot reach hpod" "$T/err.txt"
done_testing
