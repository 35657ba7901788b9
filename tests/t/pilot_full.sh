#!/bin/sh
# A pilot campaign whose engine a failed ledger commit drops is taken
# back from the ledger once it can be written, as any campaign, without
# a restart of hpod: the engine hands its pilots' jobs over
# (sched_pilot_release: the inner backend holds them for the next
# adopter), its pilot backend goes with it (the agents lose hpod, keep
# their trials running and call again), and the campaign taken back
# adopts the pilots and, from the agents' hellos, the trials in them.
# Before, the engine stayed stopped until hpod's next start, and a
# budget or cancel reached it and was never acted on.  hpod runs with
# HPOD_TEST_PAUSE=before-commit on a ledger on a small tmpfs; the test
# fills it at a budget request of the pilot campaign, frees it, waits
# for hpod to take pf back, raises its budget (which must now reach it),
# and lets its trials end: two, completed, one attempt each, both in the
# one pilot, the first running all along.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/tmpfs.subr"

small_ledger "a pilot campaign after a failed commit"

# The trials wait for $T/go, then say eval_error VALUE.
cat >"$T/bin/nap.sh" <<SH
until [ -e "$T/go" ]; do sleep 0.2; done
printf ':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": 1}}\n' "\$1"
SH
cat >"$T/pf.json" <<JSON
{"name": "pf", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.2},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "resources": {"cpus_per_task": 1},
 "dispatch": "pilot", "pilot": {"count": 1, "cpus": 1}}
JSON

HPOD_TEST_PAUSE=before-commit "$HPOD" -d -v -f "$CONF" 2>>"$T/hpod.log" &
DPID=$!

python3 - "$SOCK" "$LEDGER" "$DPID" "$T" >"$T/replies" <<'PY'
import json, os, signal, sys, time
import paused
path, ledger, pid, tdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
filler = tdir + "/small/filler"

s = paused.connect(path)
f = s.makefile("rb")

def ask(name, req, write=True, between=None):
    s.sendall((json.dumps(req) + "\n").encode())
    if write:
        for _ in range(10000):
            if paused.stopped(pid):
                break
            time.sleep(0.002)
        else:
            print(name + "\tnot stopped at before-commit", flush=True)
            return None
        if between:
            between()
        os.kill(pid, signal.SIGCONT)
    line = f.readline().decode().rstrip("\n")
    print(name + "\t" + line, flush=True)
    return line

ask("submit", {"cmd": "submit", "spec": json.load(open(tdir + "/pf.json"))})
for _ in range(300):
    if paused.query(ledger, "select count(*) from attempts where started > 0")[0][0]:
        break
    time.sleep(0.1)
ask("budget-full", {"cmd": "budget", "campaign": "pf", "max_trials": 2},
    between=lambda: paused.fill(filler))
ask("ping-full", {"cmd": "ping"}, write=False)
os.unlink(filler)
# hpod takes back what it can 2 s after the failure, then 4 s, ...
for _ in range(300):
    if "cannot be written" not in json.loads(
            ask("wait", {"cmd": "ping"}, write=False))["output"]:
        break
    time.sleep(0.2)
ask("ping", {"cmd": "ping"}, write=False)
ask("budget", {"cmd": "budget", "campaign": "pf", "max_trials": 2})
PY
grep -v '^wait	' "$T/replies" | sed 's/^/# /'

reply() {
	awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$T/replies"
}
# running NAME: the count of campaigns running in ping's reply NAME, and
# whatever it says after it.
running() {
	reply "$1" | jq -r .output | sed -n 's/.*, \([0-9]* campaigns running[^,]*\),.*/\1/p'
}
is "the pilot campaign is submitted" "$(reply submit | jq -r .ok)" true
is "a budget whose commit fails gets ok: false naming the ledger" \
    "$(reply budget-full | jq -r '.ok, ((.error // "") | contains("ledger '"'$LEDGER'"'"))' | tr '\n' ' ')" \
    "false true "
is "while the disk is full hpod follows no campaign" \
    "$(running ping-full)" "0 campaigns running"
is "once it can be written, hpod has taken pf back, without a restart" \
    "$(running ping)" "1 campaigns running"
check "its pilot was re-adopted" grep -q "campaign pf: pilot .*: re-adopted" "$T/hpod.log"
is "a budget now reaches it" "$(reply budget | jq -r .output)" \
    "campaign 'pf' (id 1): budget changed"
is "its first trial ran on in its pilot" \
    "$(sql "select count(*) from attempts where started > 0 and ended is null")" 1
touch "$T/go"
check "pf ends" wait_campaign pf 60
is "two trials completed, one attempt each (the failed budget not done, the next one done)" \
    "$(sql "select c.state || ' ' || group_concat(t.number || ':' || t.state || ':' || (select count(*) from attempts a where a.trial_id = t.id), ' ') from campaigns c join trials t on t.campaign_id = c.id")" \
    "finished 0:completed:1 1:completed:1"
is "both ran in the one pilot, as PILOT.p1 and PILOT.p2" \
    "$(sql "select count(*) || ' ' || group_concat(a.job_id = p.job_id || '.p' || (t.number + 1), ' ') from attempts a join trials t on t.id = a.trial_id, pilots p")" \
    "2 1 1"
is "the pilot ended, with its time" \
    "$(sql "select count(*) from pilots where ended > started")" 1
is "one hpod throughout" "$(grep -c 'listening on' "$T/hpod.log")" 1
check "hpod stops cleanly" stop_daemon
is "the ledger is intact" "$(sql "pragma integrity_check")" ok
done_testing
