#!/bin/sh
# A cancel or budget of a campaign hpod does not run says why, from the
# ledger: it has none of that name, the campaign ended (and how), or
# `hpoctl run` runs it.  Before, each was "no running campaign 'NAME'",
# the same for a typo and a finished campaign.
. "$(dirname "$0")/lib.subr"

nap_workload
echo 'sleep "$1"' >"$T/bin/nap.sh"
nap_campaign() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "choice", "values": [$2]}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 1, "max_parallel": 1}}
JSON
}
nap_campaign done 0
nap_campaign fg 30
start_daemon
check "a campaign is submitted" "$HPOCTL" submit "$T/done.json"
check "and ends" wait_campaign done 30
"$HPOCTL" -f "$CONF" run -q "$T/fg.json" >/dev/null 2>&1 &
FG=$!
wait_count 1 30 "select count(*) from campaigns where name = 'fg'"
# said CMD... : the error of a refused request.
said() {
	rc=0
	"$HPOCTL" "$@" >/dev/null 2>"$T/err" || rc=$?
	echo "$rc $(cat "$T/err")"
}
is "a finished campaign is said to be finished" "$(said cancel done)" \
    "1 hpoctl: no running campaign 'done': campaign 'done' (id 1) is finished"
is "so is it to budget" "$(said budget --max-trials 3 1)" \
    "1 hpoctl: no running campaign '1': campaign 'done' (id 1) is finished"
is "a name the ledger has not is said to be none" "$(said cancel nosuch)" \
    "1 hpoctl: no running campaign 'nosuch': the ledger has none of that name or id"
is "a campaign of hpoctl run is said to be its" "$(said cancel fg)" \
    "1 hpoctl: no running campaign 'fg': campaign 'fg' (id 2) is run by hpoctl run, not by this hpod"
kill -INT "$FG"
wait "$FG" || true
done_testing
