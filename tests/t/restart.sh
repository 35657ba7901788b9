#!/bin/sh
# Restart: hpod stopped mid-campaign leaves its trials running; started
# again, it re-adopts them from the ledger and their result.json, never
# duplicating or losing one.
. "$(dirname "$0")/lib.subr"

start_daemon
write_campaign rs 4 2 12
"$HPOCTL" submit "$T/rs.json" >/dev/null
wait_count 2 10 "select count(*) from attempts where started is not null"
is "two trials are running" \
    "$(sql "select count(*) from attempts where started is not null and ended is null")" 2
check "SIGTERM: the daemon exits 0" stop_daemon
is "the campaign is still running in the ledger" \
    "$(sql "select state from campaigns where name = 'rs'")" running
check "its trials outlive the daemon" trials_alive
start_daemon
check "campaign finishes after the restart" wait_campaign rs 180
is "all four trials completed" \
    "$(sql "select count(*) from trials where state = 'completed'")" 4
is "no trial was submitted twice" \
    "$(sql 'select count(*) from attempts')" 4
is "every attempt ended" \
    "$(sql "select count(*) from attempts where ended is null")" 0
check "re-adoption was logged" grep -q "re-adopted" "$T/hpod.log"
check "the daemon stops" stop_daemon

# A foreground run that died (killed) stays its own: the daemon does not
# take it over behind the user's back.
write_campaign fg 2 2 200 0.0001
"$HPOCTL" -f "$CONF" run "$T/fg.json" >/dev/null 2>"$T/fg.err" &
FG=$!
wait_count 2 10 "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'fg' and a.started is not null"
kill -KILL "$FG"
# The shell reports a job killed by a signal ("Killed") on the stderr of
# the wait that reaps it: that builtin's alone is silenced.
wait "$FG" 2>/dev/null || true
is "the campaign is left to the foreground" \
    "$(sql "select driver || ' ' || state from campaigns where name = 'fg'")" \
    "foreground running"
start_daemon
sleep 1
check "the daemon does not resume it" sh -c "! grep -q \"campaign fg\" '$T/hpod.log'"
check "ping: no campaign running in the daemon" sh -c \
    "'$HPOCTL' ping | grep -q ', 0 campaigns running'"
check "the daemon stops" stop_daemon
done_testing
