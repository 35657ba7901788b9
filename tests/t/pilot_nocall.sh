#!/bin/sh
# A campaign cancelled while its pilot runs but its agent has not called
# hpod (here: hpoctl in a network namespace whose loopback is down, so no
# agent can ever call): the pilot is cancelled at once.  Before, only the
# pilots not yet started were cancelled and the connected ones drained;
# this one sat idle, billed, until its time limit (45 s here), and the
# campaign with it.
. "$(dirname "$0")/lib.subr"

if [ "$(id -u)" != 0 ] || ! unshare --net true 2>/dev/null; then
	ok "# SKIP an agent that cannot call: needs root and unshare --net"
	done_testing
	exit 0
fi
write_campaign nc 2 1 1 0.01
jq '. * {"dispatch": "pilot", "resources": {"time_limit": "00:00:20"},
    "pilot": {"count": 1, "cpus": 1, "time_limit": "00:00:45"}}' \
    "$T/nc.json" >"$T/nc.tmp" && mv "$T/nc.tmp" "$T/nc.json"
unshare --net "$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" \
    "$T/nc.json" >/dev/null 2>"$T/nc.err" &
fg=$!
for _ in $(seq 1 300); do
	[ "$(sql "select count(*) from pilots where started > 0" \
	    2>/dev/null)" = 1 ] && break
	sleep 0.1
done
is "the pilot started" "$(sql "select count(*) from pilots
    where started > 0")" 1
kill -TERM "$fg"
rc=0
wait "$fg" || rc=$?
is "the cancelled campaign ends (exit status 2)" "$rc" 2
is "its pilot was cancelled, not left to its time limit" \
    "$(sql "select state from pilots")" cancelled
is "the campaign is cancelled" "$(sql "select state from campaigns")" \
    cancelled
done_testing
