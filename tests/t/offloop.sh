#!/bin/sh
# Reports off the event loop: hpod answers report, trials and status
# requests on worker threads with read-only ledger connections of their
# own, so that a slow report never stalls the loop.  While eight HTML
# reports of a large campaign are being computed, a ping from another
# client is answered first (answered on the loop, it would wait for them); requests pipelined on one connection are
# still answered in their order; the replies are those of the ledger.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

N=${OFFLOOP_TRIALS:-4000}
replay_big "$N"
check "a $N-trial replay campaign runs in the foreground" \
    "$HPOCTL" -f "$CONF" run -q "$T/big.json"
start_daemon

# Eight clients ask for the HTML report at once; once hpod has read the
# first request, a ninth pings.  Print each reply and the order in which
# their first bytes came (a report of megabytes may end after a ping that
# started later).
python3 - "$SOCK" >"$T/order" <<'PY'
import json, select, socket, sys, time
path = sys.argv[1]
def conn(req):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    s.sendall((json.dumps(req) + "\n").encode())
    return s
reps = [conn({"cmd": "report", "campaign": "big", "format": "html"})
    for _ in range(8)]
time.sleep(0.02)
ping = conn({"cmd": "ping"})
names = {ping: "ping"}
names.update({s: "report" for s in reps})
bufs = {s: b"" for s in names}
left = set(names)
first = []
while left:
    r, _, _ = select.select(list(left), [], [], 600)
    if not r:
        print("timeout")
        break
    for s in r:
        b = s.recv(1 << 20)
        if b and not bufs[s]:
            first.append(names[s])
        bufs[s] += b
        if not b or bufs[s].endswith(b"\n"):
            rep = json.loads(bufs[s]) if bufs[s] else {}
            print(names[s], "ok" if rep.get("ok") and
                ("</html>" in rep.get("output", "") or names[s] == "ping")
                else "bad")
            left.discard(s)
print("first bytes:", " ".join(first))
PY
is "the ping is answered before the eight reports" \
    "$(sed -n 's/^first bytes: \([a-z]*\).*/\1/p' "$T/order")" "ping"
check "the ping's reply is right" grep -q '^ping ok$' "$T/order"
is "every report comes, complete" "$(grep -c '^report ok$' "$T/order")" 8

# Pipelined on one connection: a report, then a ping, then trials.
python3 - "$SOCK" >"$T/pipe" <<'PY'
import json, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
for r in ({"cmd": "report", "campaign": "big", "format": "json"},
    {"cmd": "ping"}, {"cmd": "trials", "campaign": "big", "format": "csv"}):
    s.sendall((json.dumps(r) + "\n").encode())
s.shutdown(socket.SHUT_WR)
data = b""
while True:
    b = s.recv(1 << 20)
    if not b:
        break
    data += b
for line in data.decode().splitlines():
    rep = json.loads(line)
    out = rep.get("output", "")
    print("report" if out.startswith("{") else "ping" if
        out.startswith("hpod ") else "trials" if "," in out else "other")
PY
is "pipelined replies keep the order of the requests" \
    "$(tr '\n' ' ' <"$T/pipe")" "report ping trials "

# The replies are the ledger's.
"$HPOCTL" trials big >"$T/t-daemon"
"$HPOCTL" trials --ledger "$LEDGER" big >"$T/t-ledger"
check "trials through hpod are those of the ledger" \
    cmp "$T/t-daemon" "$T/t-ledger"
"$HPOCTL" status >"$T/s-daemon"
"$HPOCTL" status --ledger "$LEDGER" >"$T/s-ledger"
check "and so is the status" cmp "$T/s-daemon" "$T/s-ledger"
rc=0
"$HPOCTL" report nosuch 2>"$T/err" || rc=$?
is "a report of no campaign fails" "$rc" 1
check "and says which" grep -q "no campaign 'nosuch'" "$T/err"
check "hpod stops cleanly" stop_daemon
done_testing
