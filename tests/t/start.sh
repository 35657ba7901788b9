#!/bin/sh
# hpod without -d: it goes to the background only once its ledger and
# socket are open, so a start-up failure reaches the shell with exit 1 and
# its reason on stderr, and a good start exits 0 with the daemon serving.
. "$(dirname "$0")/lib.subr"

# The ledger's directory is a file: the ledger cannot be opened.
: >"$T/notadir"
sed "s|^ledger = .*|ledger = $T/notadir/ledger.db|" "$CONF" >"$T/bad.conf"
rc=0
"$HPOD" -f "$T/bad.conf" 2>"$T/err.txt" || rc=$?
is "an unopenable ledger: exit 1" "$rc" 1
check "  the reason names the ledger" grep -q "$T/notadir" "$T/err.txt"
check "  no daemon was left behind" sh -c "! pgrep -f '[h]pod -f $T/bad.conf'"

# A good start: exit 0, and the daemon answers.
rc=0
"$HPOD" -f "$CONF" 2>"$T/err.txt" || rc=$?
is "a good start: exit 0" "$rc" 0
is "  nothing on stderr" "$(cat "$T/err.txt")" ""
check "  the daemon answers at once" "$HPOCTL" ping
DPID=$(pgrep -f "[h]pod -f $CONF" || true)

# A second daemon on the same socket (with a ledger of its own, or the
# ledger's lock would refuse it first) is refused, exit 1.
sed "s|^ledger = .*|ledger = $T/other.db|" "$CONF" >"$T/other.conf"
rc=0
"$HPOD" -f "$T/other.conf" 2>"$T/err.txt" || rc=$?
is "a second daemon on a live socket: exit 1" "$rc" 1
check "  the reason names the socket" grep -q "$SOCK" "$T/err.txt"

# The first one still serves, and stops on SIGTERM.
check "the first daemon still answers" "$HPOCTL" ping
if [ -n "$DPID" ]; then
	kill -TERM "$DPID"
	for _ in $(seq 1 100); do
		kill -0 "$DPID" 2>/dev/null || break
		sleep 0.1
	done
	check "it stops on SIGTERM" sh -c "! kill -0 $DPID 2>/dev/null"
	DPID=
else
	not_ok "the daemon's process was found"
fi

done_testing
