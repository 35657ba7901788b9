#!/bin/sh
# A control request whose writes cannot be committed is answered with
# that failure, never with a success, and what it asked for is not done:
# hpod's ledger is on a small tmpfs, and hpod runs with
# HPOD_TEST_PAUSE=before-commit, so that it stops itself after each
# submit, budget or cancel request has done its work and before its
# writes are committed.  The test fills the file system right there, then
# lets hpod go on: the COMMIT cannot append to the WAL.  The reply must be
# ok:false naming the ledger, with no "submitted as id N"; a submitted
# campaign must not run (its id is the next campaign's once space
# returns); a budget raised (1 trial to 3) or a cancel whose commit failed
# must not hold either: the campaign, taken back from the ledger once
# space returns, ends its one trial completed, as the ledger and hpoctl
# status say.  hpod must answer on, and submit again once space is back;
# what was committed before (a running campaign, its trial, its attempt)
# must all be there, after a restart too.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/tmpfs.subr"

small_ledger "disk full at commit"

# A workload that says nothing while it runs: no ledger writes while the
# file system is full but those of the requests.  Campaign kept's trials
# wait for $T/go, then say eval_error VALUE (never its target); the
# others sleep long.
cat >"$T/bin/nap.sh" <<SH
case \$PWD in
*/1-kept/*)
	until [ -e "$T/go" ]; do sleep 0.2; done
	printf ':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": 1}}\n' "\$1" ;;
*)	sleep 300 ;;
esac
SH
for c in kept lost after; do
	cat >"$T/$c.json" <<JSON
{"name": "$c", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.2},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "resources": {"cpus_per_task": 1}}
JSON
done

HPOD_TEST_PAUSE=before-commit "$HPOD" -d -v -f "$CONF" 2>>"$T/hpod.log" &
DPID=$!

# Each request (paused.asker): send it; a write request stops hpod at
# before-commit, where fill() runs if asked, then hpod goes on.  Prints
# each reply as "NAME<TAB>LINE"; writes the kept campaign's rows before the fill.
# Two spells of a full disk: the first fills at a budget, the second at
# a cancel; after each, hpod is pinged until it follows kept again.
python3 - "$SOCK" "$LEDGER" "$DPID" "$T" >"$T/replies" <<'PY'
import json, os, sys, time
import paused
path, ledger, pid, tdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
filler = tdir + "/small/filler"

def fill():
    paused.fill(filler)

def query(q):
    return paused.query(ledger, q)

ask = paused.asker(path, pid, 20)

def back(name):
    """Ping until hpod follows one campaign again (up to 60 s)."""
    for _ in range(300):
        out = json.loads(ask(name + "-ping", {"cmd": "ping"}, write=False))
        if "1 campaigns running, ledger %s\n" % ledger == \
                out["output"].split(", ", 2)[2]:
            print(name + "\tTrue", flush=True)
            return
        time.sleep(0.2)
    print(name + "\tFalse", flush=True)

def spec(c):
    return json.load(open(tdir + "/" + c + ".json"))

ask("kept", {"cmd": "submit", "spec": spec("kept")})
for _ in range(300):
    if query("select count(*) from attempts where started > 0")[0][0]:
        break
    time.sleep(0.1)
with open(tdir + "/before", "w") as b:
    for r in query("select c.name, t.number, t.state, a.number, a.state, "
                   "printf('%.3f', a.started) from campaigns c join trials t on "
                   "t.campaign_id = c.id join attempts a on a.trial_id = "
                   "t.id order by a.id"):
        print("|".join(map(str, r)), file=b)
ask("budget", {"cmd": "budget", "campaign": "kept", "max_trials": 3},
    between=fill)
ask("ping-full", {"cmd": "ping"}, write=False)
ask("lost", {"cmd": "submit", "spec": spec("lost")})
ask("cancel-full", {"cmd": "cancel", "campaign": "kept"})
os.unlink(filler)
back("back-budget")
ask("cancel", {"cmd": "cancel", "campaign": "kept"}, between=fill)
ask("ping-cancel", {"cmd": "ping"}, write=False)
os.unlink(filler)
back("back-cancel")
ask("after", {"cmd": "submit", "spec": spec("after")})
ask("ping", {"cmd": "ping"}, write=False)
PY
grep -v -- '-ping	' "$T/replies" | sed 's/^/# /'

# reply NAME: the reply to request NAME.
reply() {
	awk -F '\t' -v n="$1" '$1 == n { print $2 }' "$T/replies"
}
# fails NAME: the reply to NAME is ok:false naming the ledger.
fails() {
	reply "$1" | jq -r '.ok, ((.error // "") | contains("ledger '"'$LEDGER'"'"))' | tr '\n' ' '
}
is "a submit before the disk is full succeeds" \
    "$(reply kept | jq -r .output)" "campaign 'kept' submitted as id 1"
is "a budget whose commit fails gets ok: false naming the ledger" \
    "$(fails budget)" "false true "
check "and says it is not done" \
    sh -c "printf '%s' '$(reply budget | jq -r .error)' | grep -q 'not recorded and not done'"
is "the daemon answers while the disk is full: it follows no campaign and says why" \
    "$(reply ping-full | jq -r .output | grep -o '[0-9]* campaigns running.*cannot be written now')" \
    "0 campaigns running, ledger $LEDGER (cannot be written now"
is "the submit whose commit fails gets ok: false" \
    "$(reply lost | jq -r .ok)" false
err=$(reply lost | jq -r .error)
echo "# $err"
is "its error names the ledger and says the campaign is not submitted" \
    "$(printf '%s' "$err" | grep -cF "campaign 'lost' not submitted: ledger '$LEDGER'")" 1
is "and the reply holds nothing else: no output, no id" \
    "$(reply lost | jq -c 'keys')" '["error","ok"]'
is "no client is told it was submitted" \
    "$(grep -c "'lost' submitted as id" "$T/replies")" 0
is "a cancel while the campaigns wait to be taken back says why it cannot" \
    "$(fails cancel-full)" "false true "
is "once space is back, hpod takes kept back" "$(reply back-budget)" True
is "a cancel whose commit fails gets ok: false naming the ledger" \
    "$(fails cancel)" "false true "
is "its campaign is dropped, not cancelling on" \
    "$(reply ping-cancel | jq -r .output | grep -o '[0-9]* campaigns running')" \
    "0 campaigns running"
is "once space is back, hpod takes kept back again" \
    "$(reply back-cancel)" True
is "a submit once space is back succeeds" \
    "$(reply after | jq -r .output)" "campaign 'after' submitted as id 2"
is "then two campaigns run: kept and after, not lost" \
    "$(reply ping | jq -r .output | grep -o '[0-9]* campaigns running')" \
    "2 campaigns running"
is "the ledger holds kept and after, not lost" \
    "$(sql "select group_concat(n, ' ') from (select id || ':' || name || ':' || state as n from campaigns order by id)")" \
    "1:kept:running 2:after:running"
check "lost's run directory holds no trial" \
    test -z "$(ls -A "$RUNS/2-lost" 2>/dev/null)"
is "kept's trial and attempt committed before the failure are intact" \
    "$(sql "select c.name, t.number, t.state, a.number, a.state, printf('%.3f', a.started) from campaigns c join trials t on t.campaign_id = c.id join attempts a on a.trial_id = t.id where c.name = 'kept' order by a.id")" \
    "$(cat "$T/before")"
check "kept's trial was running before the failure" grep -q '^kept|0|running|0|' "$T/before"
check "hpod logged the failed commits" \
    test "$(grep -c "control: .*database or disk is full" "$T/hpod.log")" -ge 3

# kept's trial may end now: the budget of 1 trial and no cancel hold.
touch "$T/go"
check "kept ends" wait_campaign kept 60
is "kept finished its one trial, completed in its one attempt (old budget, not cancelled)" \
    "$(sql "select c.state || ' ' || group_concat(t.number || ':' || t.state || ':' || (select count(*) from attempts a where a.trial_id = t.id), ' ') from campaigns c join trials t on t.campaign_id = c.id where c.name = 'kept'")" \
    "finished 0:completed:1"
is "its recorded budget is the old one" \
    "$(sql "select max_trials || ' ' || json_extract(spec_json, '\$.budget.max_trials') from campaigns where name = 'kept'")" \
    "1 1"
is "no budget or cancel of the failed commits is in the ledger" \
    "$(sql "select count(*) from events where kind in ('budget', 'cancel')")" 0
is "hpoctl status agrees with the ledger" \
    "$("$HPOCTL" status --format json kept | jq -r '[.state, .trials] | map(tostring) | join(" ")')" \
    "finished 1"
wait_count 2 30 "select count(*) from attempts where started > 0"
check "hpod stops cleanly" stop_daemon
is "the ledger is intact" "$(sql "pragma integrity_check")" ok

start_daemon
is "after a restart, after is taken back, nothing else" \
    "$("$HPOCTL" ping | grep -o '[0-9]* campaigns running')" \
    "1 campaigns running"
is "and the trials are those committed: one each" \
    "$(sql "select group_concat(n, ' ') from (select c.name || ':' || (select count(*) from trials t where t.campaign_id = c.id) as n from campaigns c order by c.id)")" \
    "kept:1 after:1"
done_testing
