#!/bin/sh
# control-mem.sh BUILD [N]: the daemon's memory under a client that sends
# N (default 200) requests for a ~430 kB trials table and never reads the
# replies, against one that reads them: prints hpod's resident set before
# and after (kB), and how many replies the client got once it read.
# Figures, not a test: see README, "Reliability".
set -eu
BUILD=$(cd "${1:-build}" && pwd)
N=${2:-200}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/hpod-bench.XXXXXX)
trap 'kill $DPID 2>/dev/null; wait $DPID 2>/dev/null; rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH="$TOP/workloads"
"$TOP/tests/bench/make-big-campaign.sh" "$T"
printf 'socket = %s/s/sock\nledger = %s/l.db\nrun_dir = %s/runs\n' "$T" "$T" "$T" \
    >"$T/c.conf"
"$BUILD/hpoctl" -f "$T/c.conf" run -q "$T/big.json" >/dev/null
"$BUILD/hpod" -d -f "$T/c.conf" 2>"$T/hpod.log" &
DPID=$!
for _ in $(seq 1 50); do
	HPOD_SOCKET="$T/s/sock" "$BUILD/hpoctl" ping >/dev/null 2>&1 && break
	sleep 0.1
done
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$DPID/status"; }
before=$(rss)
python3 - "$T/s/sock" "$N" "$DPID" <<'PY'
import socket, sys, time
path, n, pid = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def rss():
    for l in open("/proc/%s/status" % pid):
        if l.startswith("VmRSS:"):
            return int(l.split()[1])
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(path)
s.setblocking(False)
req = b'{"cmd": "trials", "campaign": "big", "format": "json"}\n'
sent = 0
for _ in range(n):
    try:
        s.send(req)
        sent += 1
    except BlockingIOError:
        break
peak = 0
for _ in range(50):		# 10 s, not reading
    time.sleep(0.2)
    peak = max(peak, rss())
s.setblocking(True)
s.shutdown(socket.SHUT_WR)
data = b""
while True:
    b = s.recv(1 << 20)
    if not b:
        break
    data += b
print("requests sent %d; hpod's peak RSS while the client did not read: %d kB;"
      " replies once it read: %d" % (sent, peak, data.count(b"\n")))
PY
echo "hpod's RSS before: $before kB, after: $(rss) kB"
