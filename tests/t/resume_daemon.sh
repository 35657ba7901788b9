#!/bin/sh
# hpoctl resume (and cancel --ledger) of a campaign the daemon runs: both
# refused, saying to go through the daemon.  Before, resume was told "ask
# the daemon (hpoctl cancel without --ledger)": a user who wanted the
# campaign to go on was sent to cancel it.
. "$(dirname "$0")/lib.subr"

write_campaign rd 2 1 40
start_daemon
"$HPOCTL" submit "$T/rd.json" >/dev/null
want="hpoctl: $LEDGER: campaign 'rd' (id 1) belongs to the daemon, which runs it, or takes it back when it starts: follow, cancel or change it through the daemon (hpoctl watch, cancel or budget, without --ledger)"
rc=0
"$HPOCTL" resume -q --ledger "$LEDGER" rd >/dev/null 2>"$T/err" || rc=$?
is "resume of the daemon's campaign is refused" "$rc" 1
is "saying to go through the daemon, not to cancel" "$(cat "$T/err")" \
    "$want"
rc=0
"$HPOCTL" cancel --ledger "$LEDGER" rd >/dev/null 2>"$T/err" || rc=$?
is "cancel --ledger of it is refused" "$rc" 1
is "saying the same" "$(cat "$T/err")" "$want"
is "the campaign still runs" "$(sql "select state from campaigns")" running
check "the daemon cancels it" "$HPOCTL" cancel rd
check "and it ends" wait_campaign rd 60
check "the daemon stops" stop_daemon
done_testing
