#!/bin/sh
# A control reply is sent only once what it reports is committed: hpod
# runs campaigns whose trials end one after the other (so that the
# engines' batched ledger writes are open now and then when a request
# comes), and answers submit, budget and cancel --trial requests with
# HPOD_TEST_PAUSE=after-reply, so that it stops itself right after
# queueing each reply.  While it is stopped there, no write transaction
# may be open: another connection takes the ledger's write lock at once.
# Then hpod is SIGKILLed right after the reply to a submit, eight times,
# restarted each time: every campaign it reported is in the ledger.
#
# REPLY_ROUNDS sets the number of requests (default 60).
. "$(dirname "$0")/lib.subr"

ROUNDS=${REPLY_ROUNDS:-60}
echo "local_cpus = 4" >>"$CONF"

# spec NAME TRIALS: quick trials, four at a time, a target none reaches.
spec() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.0001},
 "space": {"lr": {"type": "float", "min": 0.001, "max": 0.5, "scale": "log"},
           "batch_size": {"type": "choice", "values": [16, 32]}},
 "fixed": {"epochs": 1, "warmup_epochs": 0, "train_samples": 32,
           "eval_samples": 16},
 "search": {"algorithm": "random", "seed": 3},
 "budget": {"max_trials": $2, "max_parallel": 4},
 "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"}}
JSON
}
spec busy 100000

HPOD_TEST_PAUSE=after-reply "$HPOD" -d -v -f "$CONF" 2>>"$T/hpod.log" &
DPID=$!

# Each request is answered with the daemon stopped at after-reply: take
# the write lock from here (no waiting), then let it go on.  Prints one
# line per request: its command, "free" or "held", the reply's ok.
PYTHONPATH="$TOP/tests/t" python3 - "$SOCK" "$LEDGER" "$DPID" "$T" "$ROUNDS" \
    >"$T/rounds" <<'PY'
import json, os, signal, sqlite3, sys, time
from paused import connect, stopped
path, ledger, pid, tdir, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])

def lock():
    db = sqlite3.connect(ledger, timeout=0, isolation_level=None)
    try:
        db.execute("begin immediate")
        db.execute("rollback")
        return "free"
    except sqlite3.OperationalError:
        return "held"
    finally:
        db.close()

s = connect(path)
f = s.makefile("rb")

def ask(req):
    s.sendall((json.dumps(req) + "\n").encode())
    while not stopped(pid):
        time.sleep(0.002)
    held = lock()
    os.kill(pid, signal.SIGCONT)
    rep = json.loads(f.readline())
    print(req["cmd"], held, "ok" if rep.get("ok") else rep.get("error"), flush=True)
    return rep

ask({"cmd": "submit", "spec": json.load(open(tdir + "/busy.json"))})
for i in range(rounds):
    if i % 2 == 0:
        ask({"cmd": "budget", "campaign": "busy", "max_trials": 100000 + i})
    else:
        ask({"cmd": "cancel", "campaign": "busy", "trial": i // 2})
    time.sleep(0.05 * (i % 5))
PY
awk '{ print $1, $2 }' "$T/rounds" | sort | uniq -c | sed 's/^/# /'
is "no write transaction open when a reply is sent ($ROUNDS requests)" \
    "$(awk '$2 == "held"' "$T/rounds" | wc -l)" 0
is "the submit and every budget request succeeded" \
    "$(awk '$1 != "cancel" && $3 != "ok"' "$T/rounds" | wc -l)" 0

# submit_paused NAME: submit campaign NAME to the daemon $DPID, which
# stops itself after the reply; print the reply.
submit_paused() {
	PYTHONPATH="$TOP/tests/t" python3 - "$SOCK" "$T/$1.json" "$DPID" <<'PY'
import json, sys
from paused import connect
s = connect(sys.argv[1])
s.sendall((json.dumps({"cmd": "submit", "spec": json.load(open(sys.argv[2]))}) + "\n").encode())
print(s.makefile("rb").readline().decode().strip())
PY
}

# SIGKILLed right after each submit's reply, while "busy" runs on.
KILLS=8
for k in $(seq 1 $KILLS); do
	spec "k$k" 1
	if [ "$k" -gt 1 ]; then
		HPOD_TEST_PAUSE=after-reply "$HPOD" -d -v -f "$CONF" \
		    2>>"$T/hpod.log" &
		DPID=$!
		sleep "0.$(( (k * 3) % 10 ))"
	fi
	submit_paused "k$k" >>"$T/replies"
	kill_daemon
done
is "every submit was told it succeeded" \
    "$(grep -c "campaign 'k[0-9]*' submitted as id" "$T/replies")" "$KILLS"
is "and each of them is in the ledger after the kill" \
    "$(sql "select count(*) from campaigns where name like 'k%'")" "$KILLS"
done_testing
