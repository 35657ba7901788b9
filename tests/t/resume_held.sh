#!/bin/sh
# A campaign an older hpod recorded with a spec that today's check refuses
# for a real reason (here a float range whose width overflows a double)
# is taken back held: its running attempts are followed to their end and
# billed, no trial is started, status and report say it is held and why,
# the log says so once, and hpoctl resume of a foreground one refuses it.
# Before, hpod logged "not resumed" and nothing followed its jobs: they
# ran to their end unbilled, their ends never recorded.
. "$(dirname "$0")/lib.subr"

# older NAME: campaign NAME's recorded spec with an lr range whose width
# overflows, as an older hpod accepted it.
older() {
	sqlite3 "$LEDGER" "update campaigns set spec_json = json_set(spec_json,
	    '\$.space.lr', json('{\"type\": \"float\", \"min\": -1e308,
	    \"max\": 1e308}')) where name = '$1'"
}

# Trials that cannot reach their target and run long enough to be taken
# back while they run.
write_campaign held 4 2 200 0.0001
write_campaign broken 1 1 200 0.0001
start_daemon
"$HPOCTL" submit "$T/held.json" >/dev/null
"$HPOCTL" submit "$T/broken.json" >/dev/null
wait_count 3 20 "select count(*) from attempts where started is not null"
kill_daemon
check "its trials run on without a daemon" trials_alive
HELD="select a.id from attempts a join trials t on t.id = a.trial_id where t.campaign_id = 1"
N=$(sql "select count(*) from trials where campaign_id = 1")
check "campaign held has attempts unfinished" \
    test "$(sql "select count(*) from attempts where ended is null and id in ($HELD)")" -ge 1
older held
# A recorded spec that does not parse at all is not taken back, as
# before, but the log names the campaign, the key and what is left.
sqlite3 "$LEDGER" "update campaigns set spec_json = json_set(spec_json,
    '\$.space.lr.type', 'bogus') where name = 'broken'"
jq '.space.lr = {"type": "float", "min": -1e308, "max": 1e308}' \
    "$T/held.json" >"$T/new.json"
rc=0
"$HPOCTL" -f "$CONF" check "$T/new.json" >/dev/null 2>"$T/err" || rc=$?
is "this hpod's check refuses such a spec" "$rc" 1
check "naming the key" grep -q "space.lr: the range" "$T/err"

start_daemon
check "the restarted daemon takes it back held, naming the key" \
    wait_for_log "campaign held (id 1) resumed held: .*space.lr: the range"
check "not 'not resumed'" sh -c "! grep -q 'held.*not resumed' '$T/hpod.log'"
check "one that does not parse: the log names it, the key, what is left" \
    grep -q "campaign broken (id 2) not resumed: .*space.lr.type: .*; its 1 unfinished attempt is not followed" "$T/hpod.log"
wait_count "$N" 120 "select count(*) from attempts where ended is not null and id in ($HELD)"
is "every attempt is followed to its end" \
    "$(sql "select count(*) from attempts where ended is null and id in ($HELD)")" 0
is "each one that ran with its start and end, billed" \
    "$(sql "select count(*) from attempts where started > 0 and ended >= started and id in ($HELD)")" \
    "$(sql "select count(*) from attempts where started > 0 and id in ($HELD)")"
is "one that never ran ended lost, as without a hold" \
    "$(sql "select count(*) from attempts where (started is null or started = 0) and state <> 'lost' and id in ($HELD)")" 0
is "no new trial is started" \
    "$(sql "select count(*) from trials where campaign_id = 1")" "$N"
is "no new attempt either" \
    "$(sql "select count(*) from attempts where id in ($HELD)")" "$N"
is "the campaign stays running, held" \
    "$(sql "select state from campaigns where name = 'held'")" running
"$HPOCTL" status >"$T/status.txt"
check "status says it is held" grep -q "^ *1  held  .* held " "$T/status.txt"
check "and why" grep -q "held: .*space.lr: the range" "$T/status.txt"
is "status in JSON: why" "$("$HPOCTL" status --format json held |
    jq -r '.held' | grep -c 'space.lr: the range')" 1
"$HPOCTL" report held >"$T/report.txt"
check "the report says it is held and why" \
    grep -q "^held: .*space.lr: the range" "$T/report.txt"
is "the report bills every attempt" \
    "$("$HPOCTL" report --format json held | jq '.cost.attempts')" "$N"
is "the log says it once" "$(grep -c 'resumed held' "$T/hpod.log")" 1

# A restart changes nothing a user sees: the hold is recorded once (a
# 'held' event), and status and the report still say it and why.
HELDEV="select count(*) from events where campaign_id = 1 and kind = 'held'"
is "one 'held' event" "$(sql "$HELDEV")" 1
# resumed N: the log has said N times that held was taken back held (30 s).
resumed() {
	for _ in $(seq 1 150); do
		[ "$(grep -c 'campaign held (id 1) resumed held' \
		    "$T/hpod.log")" -ge "$1" ] && return 0
		sleep 0.2
	done
	return 1
}
for r in 2 3; do
	check "restart: the daemon stops" stop_daemon
	start_daemon
	check "restart: taken back held again ($r times)" resumed "$r"
done
is "still one 'held' event" "$(sql "$HELDEV")" 1
"$HPOCTL" status >"$T/status.txt"
check "status still says it is held" grep -q "^ *1  held  .* held " "$T/status.txt"
check "and why" grep -q "held: .*space.lr: the range \[-1e+308, 1e+308\]" \
    "$T/status.txt"
"$HPOCTL" report held >"$T/report.txt"
check "so does the report" \
    grep -q "^held: .*space.lr: the range \[-1e+308, 1e+308\]" "$T/report.txt"
# Held for another reason: that change is recorded, and shown.
check "the daemon stops" stop_daemon
sqlite3 "$LEDGER" "update campaigns set spec_json = json_set(spec_json,
    '\$.space.lr.min', -1.5e308) where name = 'held'"
start_daemon
check "taken back held for the new reason" resumed 4
check "which the log names" grep -q \
    "campaign held (id 1) resumed held: .*\[-1.5e+308, 1e+308\]" "$T/hpod.log"
is "a second 'held' event" "$(sql "$HELDEV")" 2
is "status in JSON: the new reason" "$("$HPOCTL" status --format json held |
    jq -r '.held' | grep -c 'the range \[-1.5e+308, 1e+308\]')" 1
"$HPOCTL" cancel held >/dev/null
check "a held campaign can be cancelled" wait_campaign held 30
check "the daemon stops" stop_daemon

# A held pilot campaign: its trials in their pilots are followed to their
# end, and then its pilots are let go, not billed idle to their limit.
write_campaign hp 4 2 200 0.0001
jq '. + {"dispatch": "pilot", "pilot": {"count": 2, "cpus": 1}}' \
    "$T/hp.json" >"$T/hp.tmp" && mv "$T/hp.tmp" "$T/hp.json"
HP="select a.id from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'hp'"
HPP="select p.id from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'hp'"
start_daemon
"$HPOCTL" submit "$T/hp.json" >/dev/null
wait_count 2 20 "select count(*) from attempts where started > 0 and job_id like '%.p%' and id in ($HP)"
kill_daemon
older hp
start_daemon
check "a pilot campaign is taken back held" \
    wait_for_log "campaign hp (id [0-9]*) resumed held"
NA=$(sql "select count(*) from attempts where id in ($HP)")
wait_count "$NA" 120 \
    "select count(*) from attempts where ended is not null and id in ($HP)"
is "its attempts are followed to their end" \
    "$(sql "select count(*) from attempts where ended is null and id in ($HP)")" 0
NP=$(sql "select count(*) from pilots where id in ($HPP)")
wait_count "$NP" 60 "select count(*) from pilots where ended > 0 and id in ($HPP)"
is "then its pilots end, with their time" \
    "$(sql "select count(*) from pilots where ended > 0 and started > 0 and ended >= started and id in ($HPP)")" \
    "$NP"
is "no new attempt is started" \
    "$(sql "select count(*) from attempts where id in ($HP)")" "$NA"
"$HPOCTL" cancel hp >/dev/null
check "and it can be cancelled" wait_campaign hp 30
check "the daemon stops" stop_daemon

# A foreground run killed, its spec made older: hpoctl resume refuses it.
write_campaign fg 2 1 200 0.0001
"$HPOCTL" -f "$CONF" run "$T/fg.json" >/dev/null 2>"$T/fg.err" &
FG=$!
wait_count 1 20 "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'fg' and a.started is not null"
kill -KILL "$FG"
wait "$FG" 2>/dev/null || true
older fg
rc=0
"$HPOCTL" -f "$CONF" resume -q fg >/dev/null 2>"$T/res.err" || rc=$?
is "hpoctl resume refuses a held campaign" "$rc" 1
check "saying it is held, naming the key" \
    grep -q "campaign 'fg' is held: .*space.lr: the range" "$T/res.err"
rc=0
"$HPOCTL" -f "$CONF" cancel --ledger "$LEDGER" fg >/dev/null 2>&1 || rc=$?
is "hpoctl cancel --ledger ends it" \
    "$(sql "select state from campaigns where name = 'fg'")" cancelled
done_testing
