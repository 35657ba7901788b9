#!/bin/sh
# A pilot campaign whose engine a failed ledger commit drops cannot hand
# its pilots' jobs over (hpod_lost): its engine is kept, stopped, until
# hpod's next start takes the campaign back.  Until then no control
# request reaches it: a budget or a cancel is answered with an error that
# says it is stopped and when it is taken back (before, a cancel was
# answered "cancelling" and a budget "changed" by an engine that would
# never act on them), and ping counts it apart.  hpod runs with
# HPOD_TEST_PAUSE=before-commit on a ledger on a small tmpfs; the test
# fills it at a budget request of the pilot campaign, frees it, waits for
# hpod to take back what it can, asks, then restarts hpod: the campaign
# is taken back, its trial, running all along, ends completed.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/tmpfs.subr"

small_ledger "a pilot campaign after a failed commit"

# The trial waits for $T/go, then says eval_error VALUE.
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
os.unlink(filler)
# hpod takes back what it can 2 s after the failure.
for _ in range(300):
    if "cannot be written" not in json.loads(
            ask("wait", {"cmd": "ping"}, write=False))["output"]:
        break
    time.sleep(0.2)
ask("ping", {"cmd": "ping"}, write=False)
ask("budget", {"cmd": "budget", "campaign": "pf", "max_trials": 2})
ask("cancel", {"cmd": "cancel", "campaign": "pf"})
ask("cancel-trial", {"cmd": "cancel", "campaign": "1", "trial": 0})
PY
grep -v '^wait	' "$T/replies" | sed 's/^/# /'

reply() {
	awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$T/replies"
}
# stopped NAME: the reply to NAME is ok:false saying pf is stopped.
stopped() {
	reply "$1" | jq -r '.ok, ((.error // "") | contains("campaign '"'pf'"' (id 1) is stopped since a commit of ledger '"'$LEDGER'"' failed"))' |
	    tr '\n' ' '
}
is "the pilot campaign is submitted" "$(reply submit | jq -r .ok)" true
is "a budget whose commit fails gets ok: false naming the ledger" \
    "$(reply budget-full | jq -r '.ok, ((.error // "") | contains("ledger '"'$LEDGER'"'"))' | tr '\n' ' ')" \
    "false true "
is "once the ledger can be written, ping counts pf stopped, not running" \
    "$(reply ping | jq -r .output | grep -o '[0-9]* campaigns running.*, ledger')" \
    "0 campaigns running, 1 stopped until hpod restarts, ledger"
is "a budget then says pf is stopped" "$(stopped budget)" "false true "
check "and when it is taken back" \
    sh -c "printf '%s' '$(reply budget | jq -r .error)' | grep -q 'taken back only at the next start of hpod'"
is "so does a cancel" "$(stopped cancel)" "false true "
is "and a cancel of its trial, by the campaign's id" \
    "$(stopped cancel-trial)" "false true "
is "nothing of them is in the ledger" \
    "$(sql "select count(*) from events where kind in ('budget', 'cancel')") $(sql "select max_trials from campaigns")" \
    "0 1"
is "its trial runs on in its pilot" \
    "$(sql "select count(*) from attempts where started > 0 and ended is null")" 1
check "hpod stops cleanly" stop_daemon
start_daemon
is "the next start takes pf back" \
    "$("$HPOCTL" ping | grep -o '[0-9]* campaigns running[^,]*')" \
    "1 campaigns running"
touch "$T/go"
check "pf ends" wait_campaign pf 60
is "its one trial completed in its one attempt, in its pilot" \
    "$(sql "select c.state || ' ' || t.state || ' ' || count(a.id) || ' ' || (a.job_id like '%.p%') from campaigns c join trials t on t.campaign_id = c.id join attempts a on a.trial_id = t.id")" \
    "finished completed 1 1"
check "hpod stops cleanly again" stop_daemon
is "the ledger is intact" "$(sql "pragma integrity_check")" ok
done_testing
