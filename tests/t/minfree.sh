#!/bin/sh
# min_free more than the whole file system of the ledger or run directory
# holds (a 1 MiB tmpfs, min_free 64 MiB by default): no trial could ever
# start.  Before, `hpoctl run` said "submissions paused ... new ones start
# when space returns" and waited for ever, and `hpod` took the campaign
# and never ran it; now the campaign is refused at its start, naming
# min_free and the file.  Needs root (mount).
. "$(dirname "$0")/lib.subr"

if [ "$(id -u)" != 0 ]; then
	ok "# skip needs root (mount)"
	done_testing
	exit
fi
mkdir "$T/tiny"
mount -t tmpfs -o size=1m tmpfs "$T/tiny"
trap 'rc=$?; if [ -n "$DPID" ]; then kill -KILL "$DPID" 2>/dev/null || true;
	wait "$DPID" 2>/dev/null || true; DPID=; fi
	umount "$T/tiny" 2>/dev/null || true; cleanup "$rc"' EXIT
LEDGER="$T/tiny/ledger.db"
sed "s|^ledger = .*|ledger = $LEDGER|" "$T/hpod.conf" >"$T/tiny.conf"
CONF="$T/tiny.conf"
write_campaign mf 1 1 1
want="campaign 'mf': min_free (64 MiB) is more than the whole file system of $LEDGER holds (1.0 MiB): no trial could ever start; lower min_free (hpod.conf(5)) or move it"

rc=0
timeout 20 "$HPOCTL" -f "$CONF" run -q "$T/mf.json" >"$T/run.out" \
    2>"$T/run.err" || rc=$?
is "hpoctl run refuses it (exit 1, not a wait)" "$rc" 1
is "and says why" "$(cat "$T/run.err")" "hpoctl: $want"
check "nothing of it is recorded: the ledger it made is removed" \
    test ! -e "$LEDGER"

start_daemon
rc=0
"$HPOCTL" submit "$T/mf.json" >"$T/sub.out" 2>"$T/sub.err" || rc=$?
is "hpod refuses the submit" "$rc" 1
is "with the same reason" "$(cat "$T/sub.err")" "hpoctl: $want"
check "hpod answers on" "$HPOCTL" ping
is "and recorded nothing" "$(sql "select count(*) from campaigns")" 0
stop_daemon

# With min_free = 0 the campaign runs (the file system holds its ledger).
echo "min_free = 0" >>"$CONF"
check "with min_free = 0 it runs" timeout 60 "$HPOCTL" -f "$CONF" run -q \
    "$T/mf.json"
is "its trial completed" "$(sql "select state from trials")" completed
done_testing
