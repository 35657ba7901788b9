#!/bin/sh
# tests/t/pilot_full.sh on Slurm: a pilot campaign whose engine a failed
# ledger commit drops hands its pilot's Slurm job over (the Slurm backend
# follows it on and tells nobody) and is taken back once the ledger can
# be written, without a restart: the pilot is adopted again from the
# controller's view, its agent calls the new listener, and the trial in
# it, running all along, is taken back from its hello.  The ledger is on
# a small tmpfs, hpod stops at before-commit, and the test fills the file
# system at a budget request of the campaign.
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/small" "$T/wl" "$T/bin"
mount -t tmpfs -o size=8m tmpfs "$T/small"
trap 'rc=$?; if [ -n "$DPID" ]; then kill -CONT "$DPID" 2>/dev/null || true;
	kill -KILL "$DPID" 2>/dev/null || true;
	wait "$DPID" 2>/dev/null || true; DPID=; fi
	umount "$T/small" 2>/dev/null || true
	"$CLUSTER" stop "$SC" >/dev/null 2>&1;
	[ -n "${HPOD_TEST_KEEP:-}" ] || rm -rf "$SC"; (exit $rc); cleanup' EXIT
LEDGER="$T/small/ledger.db"
sed "s|^ledger = .*|ledger = $LEDGER|" "$CONF" >"$T/small.conf"
printf 'min_free = 0\n' >>"$T/small.conf"

# The trials wait for $T/go, then say eval_error VALUE.
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
cat >"$T/bin/nap.sh" <<SH
until [ -e "$T/go" ]; do sleep 0.2; done
printf ':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": 1}}\n' "\$1"
SH
cat >"$T/wl/nap.json" <<JSON
{"name": "nap", "program": "sh", "args": ["$T/bin/nap.sh", "{value}"],
 "defaults": {"value": 1}}
JSON
sleep_campaign pf 1 1 1
jq '.workload = "nap" | .objective.target = 0.2 |
    .space = {"value": {"type": "float", "min": 0.3, "max": 0.6}} |
    . + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1, "gpus": 2}}' \
    "$T/pf.json" >"$T/pf.tmp" && mv "$T/pf.tmp" "$T/pf.json"

HPOD_TEST_PAUSE=before-commit "$HPOD" -d -v -f "$T/small.conf" \
    2>>"$T/hpod.log" &
DPID=$!

PYTHONPATH="$TOP/tests/t" python3 - "$SOCK" "$LEDGER" "$DPID" "$T" \
    >"$T/replies" <<'PY'
import json, os, signal, sys, time
import paused
path, ledger, pid, tdir = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
filler = tdir + "/small/filler"

s = paused.connect(path)
f = s.makefile("rb")

def ask(name, req, write=True, between=None):
    s.sendall((json.dumps(req) + "\n").encode())
    if write:
        for _ in range(30000):
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
for _ in range(1200):
    if paused.query(ledger, "select count(*) from attempts where started > 0")[0][0]:
        break
    time.sleep(0.1)
ask("budget-full", {"cmd": "budget", "campaign": "pf", "max_trials": 2},
    between=lambda: paused.fill(filler))
ask("ping-full", {"cmd": "ping"}, write=False)
os.unlink(filler)
for _ in range(600):
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
touch "$T/go"
check "pf ends" wait_sql "select state from campaigns" finished 120
is "two trials completed, one attempt each (the failed budget not done, the next one done)" \
    "$(sql "select c.state || ' ' || group_concat(t.number || ':' || t.state || ':' || (select count(*) from attempts a where a.trial_id = t.id), ' ') from campaigns c join trials t on t.campaign_id = c.id")" \
    "finished 0:completed:1 1:completed:1"
is "both ran in the one pilot, as PILOT.p1 and PILOT.p2" \
    "$(sql "select count(*) || ' ' || group_concat(a.job_id = p.job_id || '.p' || (t.number + 1), ' ') from attempts a join trials t on t.id = a.trial_id, pilots p")" \
    "2 1 1"
pj=$(sql "select job_id from pilots")
is "Slurm ran one pilot job, and it completed" \
    "$(squeue -h -t all -o '%i %T' | awk -v j="$pj" '$1 == j { print $2 }')" COMPLETED
is "the pilot ended, with its time and its node" \
    "$(sql "select count(*) || ' ' || nodes from pilots where ended > started")" "1 1"
is "one hpod throughout" "$(grep -c 'listening on' "$T/hpod.log")" 1
check "hpod stops cleanly" stop_daemon
is "the ledger is intact" "$(sql "pragma integrity_check")" ok
done_testing
