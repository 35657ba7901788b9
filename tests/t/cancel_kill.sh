#!/bin/sh
# A cancel hpod answered is recorded in the ledger before it is acted on
# (an event of kind "cancel", committed before the reply), so that it
# holds after a crash too: hpod runs with HPOD_TEST_PAUSE=after-reply and
# is SIGKILLed right after the cancel's reply is queued, before its
# engine has cancelled anything (that happens at its next tick).  The
# restarted hpod must take the campaign back cancelled: its running
# trial is cancelled, nothing more is submitted, the campaign ends
# cancelled.  Before, it took the campaign back running, and the trial
# the client was told was being cancelled ran on.  A cancel --trial is
# recorded as kind "cancel_trial", which cancels no campaign, but that
# trial, also when hpod was killed before it was sent.
. "$(dirname "$0")/lib.subr"

nap_workload
echo 'sleep 300' >"$T/bin/nap.sh"

# nap_campaign NAME TRIALS: $T/NAME.json, a campaign of TRIALS nap
# trials, one at a time.
nap_campaign() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": $2, "max_parallel": 1},
 "resources": {"cpus_per_task": 1}}
JSON
}
nap_campaign ck 3

# started NAME [TRIAL]: the query of the count of campaign NAME's
# attempts (of its trial TRIAL) that have started.
started() {
	echo "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1'${2:+ and t.number = $2} and a.started > 0"
}

# kill_at_cancel NAME REQUEST: start hpod with HPOD_TEST_PAUSE=after-reply,
# submit $T/NAME.json, let hpod on at the submit's reply, wait for its
# trial to start, send the cancel REQUEST (JSON) and SIGKILL hpod at its
# reply instead.  The replies go to $T/replies, "submit<TAB>LINE" and
# "cancel<TAB>LINE".
kill_at_cancel() {
	HPOD_TEST_PAUSE=after-reply "$HPOD" -d -v -f "$CONF" 2>>"$T/hpod.log" &
	DPID=$!
	PYTHONPATH="$TOP/tests/t" python3 - "$SOCK" "$LEDGER" "$DPID" \
	    "$T/$1.json" "$2" "$(started "$1")" >"$T/replies" <<'PY'
import json, os, signal, sys, time
import paused
path, ledger, pid, specf, cancel, q = sys.argv[1:7]
pid = int(pid)
s = paused.connect(path)
f = s.makefile("rb")

def ask(name, req, sig=signal.SIGCONT):
    s.sendall((json.dumps(req) + "\n").encode())
    for _ in range(10000):
        if paused.stopped(pid):
            break
        time.sleep(0.002)
    else:
        print(name + "\tnot stopped at after-reply", flush=True)
        return
    print(name + "\t" + f.readline().decode().rstrip("\n"), flush=True)
    os.kill(pid, sig)

spec = json.load(open(specf))
ask("submit", {"cmd": "submit", "spec": spec})
for _ in range(300):
    if paused.query(ledger, q)[0][0]:
        break
    time.sleep(0.1)
ask("cancel", json.loads(cancel), signal.SIGKILL)
PY
	wait "$DPID" 2>/dev/null || true
	DPID=
	sed 's/^/# /' "$T/replies"
}

kill_at_cancel ck '{"cmd": "cancel", "campaign": "ck"}'


# until_count N SECONDS QUERY: wait_count, failing if the count never
# gets to N.
until_count() {
	for _ in $(seq 1 $(( $2 * 10 ))); do
		[ "$(sql "$3")" -ge "$1" ] && return 0
		sleep 0.1
	done
	return 1
}
reply() {
	awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$T/replies"
}
is "the campaign is submitted" "$(reply submit | jq -r .ok)" true
is "the cancel is answered" "$(reply cancel | jq -r .output)" \
    "campaign 'ck' (id 1): cancelling"
is "and recorded before the reply" \
    "$(sql "select count(*) from events where kind = 'cancel'")" 1
is "hpod was killed before anything was cancelled: its trial runs" \
    "$(sql "select state from trials") $(sql "select count(*) from attempts where ended is null")" \
    "running 1"
start_daemon
check "the restarted hpod ends the campaign" wait_campaign ck 30
is "cancelled, as the reply said, its one trial and attempt cancelled" \
    "$(sql "select c.state || ' ' || group_concat(t.state || ':' || a.state, ' ') from campaigns c join trials t on t.campaign_id = c.id join attempts a on a.trial_id = t.id")" \
    "cancelled cancelled:cancelled"
# ([n]: the pattern must not match the shell that runs pgrep.)
check "its job no longer runs" sh -c "! pgrep -f '$T/bin/[n]ap.sh' >/dev/null"
check "hpod stops cleanly" stop_daemon

# A trial's cancel is not the campaign's.
nap_campaign ct 2
start_daemon
check "a second campaign is submitted" "$HPOCTL" submit "$T/ct.json"
check "its trial 0 starts" until_count 1 30 "$(started ct)"
check "cancel --trial 0" "$HPOCTL" cancel --trial 0 ct
check "its trial 1 starts" until_count 1 30 "$(started ct 1)"
is "recorded as cancel_trial" \
    "$(sql "select e.kind || ' ' || e.message from events e join campaigns c on c.id = e.campaign_id where c.name = 'ct' and e.kind like 'cancel%'")" \
    "cancel_trial trial 0 cancelled on request"
check "hpod stops" stop_daemon
start_daemon
is "after a restart the campaign runs on: its trial 1 is taken back, not cancelled" \
    "$(sql "select group_concat(t.number || ':' || t.state, ' ') from trials t join campaigns c on c.id = t.campaign_id where c.name = 'ct'")" \
    "0:cancelled 1:running"
is "and hpod follows it" "$("$HPOCTL" ping | grep -o '[0-9]* campaigns running')" \
    "1 campaigns running"
"$HPOCTL" cancel ct >/dev/null
check "ct ends once cancelled" wait_campaign ct 30
check "hpod stops cleanly again" stop_daemon

# goes_on NAME: restart hpod after it was killed at the cancel of trial 0
# of campaign NAME: it starts trial 1, trial 0 is cancelled as the reply
# said and the campaign goes on, until it is cancelled whole.
goes_on() {
	start_daemon
	check "$1: the restarted hpod starts trial 1" until_count 1 30 \
	    "$(started "$1" 1)"
	is "$1: trial 0 was cancelled, as the reply said; the campaign goes on" \
	    "$(sql "select c.state || ' ' || group_concat(t.number || ':' || t.state, ' ') from trials t join campaigns c on c.id = t.campaign_id where c.name = '$1'")" \
	    "running 0:cancelled 1:running"
	"$HPOCTL" cancel "$1" >/dev/null
	check "$1 ends once cancelled" wait_campaign "$1" 30
	check "$1: hpod stops cleanly" stop_daemon
}

# A trial's cancel answered, then hpod killed before it was sent: the
# restarted hpod cancels that trial, and the campaign goes on.
nap_campaign cx 2
kill_at_cancel cx '{"cmd": "cancel", "campaign": "cx", "trial": 0}'
is "cx: the trial's cancel is answered" "$(reply cancel | jq -r .output)" \
    "campaign 'cx' (id 3): cancelling trial 0"
is "cx: hpod was killed before it was sent: trial 0 runs" \
    "$(sql "select t.state from trials t join campaigns c on c.id = t.campaign_id where c.name = 'cx' and t.number = 0")" \
    running
is "cx: the cancel is recorded with its trial's number as data" \
    "$(sql "select e.trial from events e join campaigns c on c.id = e.campaign_id where c.name = 'cx' and e.kind = 'cancel_trial'")" 0
# What resume does is read from the number, never from the message.
sqlite3 "$LEDGER" "update events set message = 'reworded' where kind = 'cancel_trial'"
goes_on cx

# The same in a ledger of schema 8, as an older hpod left it: its
# cancel_trial event has the trial's number in its message only.  The
# restarted hpod migrates it and cancels that trial.
nap_campaign cy 2
kill_at_cancel cy '{"cmd": "cancel", "campaign": "cy", "trial": 0}'
sqlite3 "$LEDGER" "alter table events drop column trial;
    alter table attempts drop column suspended;
    alter table attempts drop column suspended_at;
    alter table pilots drop column suspended;
    alter table pilots drop column suspended_at;
    alter table metrics drop column late;
    alter table attempts drop column run_start;
    alter table attempts drop column pending_reason; pragma user_version = 8"
is "cy: a schema-8 ledger, the cancel in its message" \
    "$(sql "pragma user_version") $(sql "select e.message from events e join campaigns c on c.id = e.campaign_id where c.name = 'cy' and e.kind = 'cancel_trial'")" \
    "8 trial 0 cancelled on request"
goes_on cy

# A trial's cancel answered, hpod killed before it was sent, and its
# attempt lost meanwhile: trial 1 of a campaign run in one pilot of one
# CPU waits for the pilot's slot, never handed to it (no job id), so the
# restarted hpod cannot take it back (it is ended lost, which would be
# retried).  The recorded cancel is applied first: trial 1 gets no new
# attempt, and ends cancelled, the campaign going on.
nap_campaign cp 3
jq '.budget.max_parallel = 2 | . + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1}}' \
    "$T/cp.json" >"$T/cp.tmp" && mv "$T/cp.tmp" "$T/cp.json"
kill_at_cancel cp '{"cmd": "cancel", "campaign": "cp", "trial": 1}'
is "cp: the trial's cancel is answered" "$(reply cancel | jq -r .output)" \
    "campaign 'cp' (id 5): cancelling trial 1"
is "cp: trial 1 waits for the pilot, with no job id" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'cp' and t.number = 1 and a.job_id is null and a.ended is null")" 1
# The pilot's agent (its job id, the local backend's pid) is stopped
# until the campaign is cancelled: trial 0, which it runs, is cancelled
# while the agent is away, and the cancel is sent when it calls again
# (before, only a cancel to a connected agent was sent: trial 0 ran on
# and the campaign never ended).
agent=$(sql "select p.job_id from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'cp'")
check "cp: its pilot's agent is stopped" kill -STOP "$agent"
start_daemon
check "cp: the restarted hpod takes the campaign back" until_count 1 30 \
    "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'cp' and t.number = 1 and t.state not in ('pending', 'running')"
"$HPOCTL" cancel cp >/dev/null
sleep 1
kill -CONT "$agent"
check "cp ends once cancelled" wait_campaign cp 30
is "cp: trial 1 ended cancelled, in its one attempt, lost: never retried" \
    "$(sql "select t.state || ' ' || group_concat(a.number || ':' || a.state, ' ') from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'cp' and t.number = 1")" \
    "cancelled 0:lost"
check "hpod stops cleanly at last" stop_daemon
done_testing
