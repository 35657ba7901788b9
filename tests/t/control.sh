#!/bin/sh
# The control socket under clients that misbehave (hpod(8), CONTROL
# SOCKET): a client that half-closes after its request (as socat does)
# still gets the whole of a large reply; 1,000 pipelined pings get 1,000
# replies; a client that never reads its replies is not read from past an
# output limit, so the daemon's memory stays bounded, and it still gets
# every reply once it reads; connections beyond the cap are told so and
# closed, and the daemon serves on.
. "$(dirname "$0")/lib.subr"

# A finished replay campaign of 2,000 trials: its trials table in JSON is
# ~430 kB, larger than a Unix socket's buffers.
"$TOP/tests/bench/make-big-campaign.sh" "$T"
"$HPOCTL" -f "$CONF" run -q "$T/big.json" >/dev/null
"$HPOCTL" trials --ledger "$LEDGER" --format json big >"$T/trials.json"
size=$(wc -c <"$T/trials.json")
check "the trials table is larger than a socket buffer ($size bytes)" \
    test "$size" -gt 300000

# The client: python3, one socket, as each case needs.
cat >"$T/client.py" <<'PY'
import json, os, select, socket, sys

path, case = sys.argv[1], sys.argv[2]
TRIALS = b'{"cmd": "trials", "campaign": "big", "format": "json"}\n'
PING = b'{"cmd": "ping"}\n'

def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s

def read_all(s):
    data = b""
    while True:
        b = s.recv(1 << 16)
        if not b:
            return data
        data += b

def parse(l):
    try:
        return json.loads(l)
    except ValueError:
        return {"ok": False, "error": "bad reply line"}

def lines(data):
    return [parse(l) for l in data.split(b"\n") if l]

if case == "halfclose":
    # One request, then shut the write side down, then read to EOF.
    s = connect()
    s.sendall(TRIALS)
    s.shutdown(socket.SHUT_WR)
    r = lines(read_all(s))
    print(len(r), r[0]["ok"] if r else "-")
    sys.stdout.write(r[0].get("output", "") if r else "")
elif case == "pipeline":
    # 1,000 pings in one write, half-closed or not.
    for half in (True, False):
        s = connect()
        s.sendall(PING * 1000)
        if half:
            s.shutdown(socket.SHUT_WR)
            data = read_all(s)
        else:
            data = b""
            while data.count(b"\n") < 1000:
                b = s.recv(1 << 16)
                if not b:
                    break
                data += b
        r = lines(data)
        print(len(r), sum(1 for x in r if x.get("ok")))
elif case == "noread":
    # 20 large requests (each padded to 100 kB) sent by a thread, none of
    # the replies read; when told (a line on stdin), say how much of the
    # requests the daemon has taken from the socket, then read every reply.
    import fcntl, struct, termios, threading
    n = 20
    req = TRIALS[:-2] + b', "pad": "' + b"x" * 100000 + b'"}\n'
    s = connect()
    sent = [0]
    def send():
        for _ in range(n):
            s.sendall(req)
            sent[0] += len(req)
    t = threading.Thread(target=send)
    t.start()
    sys.stdout.write("started\n")
    sys.stdout.flush()
    sys.stdin.readline()
    outq = struct.unpack("i", fcntl.ioctl(s, termios.TIOCOUTQ, b"\0" * 4))[0]
    total = n * len(req)
    print("unread" if sent[0] < total or outq > 0 else "all-read",
          total, sent[0], outq)
    sys.stdout.flush()
    data = b""
    while data.count(b"\n") < n:
        b = s.recv(1 << 16)
        if not b:
            break
        data += b
    t.join()
    r = lines(data)
    print(len(r), sum(1 for x in r if x.get("ok")))
elif case == "nul":
    # A spec string with \u0000 in a submit: refused, not cut short.
    s = connect()
    s.sendall(b'{"cmd": "submit", "path": "z.json", "spec": {"name": '
              b'"a\\u0000/../x", "workload": "minicosmo"}}\n')
    s.shutdown(socket.SHUT_WR)
    r = lines(read_all(s))
    print(r[0].get("error") if r else "-")
elif case == "toolong":
    # A request line longer than 16 MiB: told so, then closed.
    import threading
    s = connect()
    def send():
        try:
            s.sendall(b"x" * (17 << 20))
        except (BrokenPipeError, ConnectionResetError):
            pass
    t = threading.Thread(target=send)
    t.start()
    r = lines(read_all(s))
    t.join()
    print(len(r), r[0].get("error") if r else "-")
elif case == "many":
    # More clients at once than the daemon serves.
    n = int(sys.argv[3])
    conns = [connect() for _ in range(n)]
    served = refused = 0
    for s in conns:
        try:
            s.sendall(PING)
        except (BrokenPipeError, ConnectionResetError):
            pass	# a refused client is closed once told
        r = json.loads(s.makefile("rb").readline())
        if r.get("ok"):
            served += 1
        elif "too many clients" in r.get("error", ""):
            refused += 1
    print(served, refused)
PY

start_daemon
# Replies through a half-closed connection.
python3 "$T/client.py" "$SOCK" halfclose >"$T/half.out" || true
is "half-closed: one reply, ok" "$(head -n 1 "$T/half.out")" "1 True"
tail -n +2 "$T/half.out" >"$T/half.json"
check "  the whole trials table, as hpoctl reads it from the ledger" \
    cmp "$T/half.json" "$T/trials.json"

# Pipelined requests.
python3 "$T/client.py" "$SOCK" pipeline >"$T/pipe.out" || true
is "1,000 pipelined pings, half-closed: 1,000 ok replies" \
    "$(sed -n 1p "$T/pipe.out")" "1000 1000"
is "1,000 pipelined pings, read as they come: 1,000 ok replies" \
    "$(sed -n 2p "$T/pipe.out")" "1000 1000"

# A client that does not read its replies: past the output limit the
# daemon leaves its requests in the socket (where they block the client),
# so its memory does not grow with them; it serves others meanwhile.
mkfifo "$T/go"
python3 "$T/client.py" "$SOCK" noread <"$T/go" >"$T/noread.out" &
CPID=$!
exec 3>"$T/go"
for _ in $(seq 1 100); do
	[ -s "$T/noread.out" ] && break
	sleep 0.1
done
check "a client that does not read: others are still served" "$HPOCTL" ping
echo >&3
for _ in $(seq 1 100); do
	[ "$(wc -l <"$T/noread.out")" -ge 2 ] && break
	sleep 0.1
done
set -- $(sed -n 2p "$T/noread.out")
is "  its requests are left unread in the socket ($3 of $2 bytes sent)" \
    "$1" unread
exec 3>&-
rc=0
wait "$CPID" || rc=$?
is "  once it reads: every request answered" \
    "$(sed -n 3p "$T/noread.out")" "20 20"

is "a NUL character in a request is refused" \
    "$(python3 "$T/client.py" "$SOCK" nul || true)" \
    "request: a NUL character is not allowed"
is "  and nothing was recorded" "$(sql 'select count(*) from campaigns')" 1

is "a request line over 16 MiB: one reply, the error" \
    "$(python3 "$T/client.py" "$SOCK" toolong || true)" "1 request too long"

# Connections beyond the cap.
python3 "$T/client.py" "$SOCK" many 70 >"$T/many.out" || true
is "70 clients at once: 64 served, 6 told to retry" "$(cat "$T/many.out")" \
    "64 6"
check "the daemon serves on" "$HPOCTL" ping
check "the daemon stops" stop_daemon
done_testing
