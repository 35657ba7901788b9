#!/bin/sh
# "dispatch": "chain" taken back from a ledger that did not record its
# lanes: a campaign that ran under a build older than attempts.after_id
# (schema 8), its ledger upgraded in place, has no after_id for the jobs
# queued behind the running ones.  As in chain_restart.sh, hpod is
# SIGKILLed while two jobs run and two wait behind them, and the nodes of
# the two running fail while it is down; before the restart every
# after_id is set NULL, as the upgrade leaves them.  The restarted daemon
# must take the four back in two lanes (the later two queued behind the
# earlier, in submission order): each retry is queued behind a lane's
# running job, and never more than two run at once.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/chain.subr"

chain_start upgrade
is "the two waiting were recorded behind the running ones" \
    "$(sql "select count(*) from $(of upgrade) and a.after_id is not null")" 2
chain_kill
# The ledger as an upgrade from schema 7 leaves it: no lanes.
sqlite3 "$LEDGER" "update attempts set after_id = NULL"
chain_fail
check "it says it took the lanes from the submission order" \
    wait_for_log "2 of 4 unfinished attempts taken as queued behind"
chain_end upgrade
check "the daemon stops" stop_daemon
done_testing
