#!/bin/sh
# hpoctl export without --ledger reads the ledger of the daemon it talks
# to (-s, HPOD_SOCKET or the configuration's socket), as status and report
# do, not the configuration's; with no daemon it reads the configuration's
# and says so when the campaign is not there.
. "$(dirname "$0")/lib.subr"

write_campaign ex 2 1 1
"$HPOCTL" -f "$CONF" run -q "$T/ex.json" >/dev/null || true
check "the campaign is in the daemon's ledger" \
    test "$(sql "select count(*) from campaigns where name = 'ex'")" -eq 1
start_daemon

# No -f: the configuration's ledger is the default one, not the daemon's.
export XDG_STATE_HOME="$T/xdg"
rc=0
"$HPOCTL" export --format optuna -o "$T/a.db" ex 2>"$T/err.txt" || rc=$?
is "export with HPOD_SOCKET only: exits 0" "$rc" 0
sed 's/^/#   /' "$T/err.txt"
check "... and writes the study" test -s "$T/a.db"
rc=0
env -u HPOD_SOCKET "$HPOCTL" -s "$SOCK" export --format optuna \
    -o "$T/b.db" ex 2>"$T/err.txt" || rc=$?
is "export with -s only: exits 0" "$rc" 0
sed 's/^/#   /' "$T/err.txt"
rc=0
"$HPOCTL" export --format optuna -o "$T/c.db" nosuch 2>"$T/err.txt" || rc=$?
is "a campaign the daemon's ledger lacks: exits 1" "$rc" 1
is "... naming the ledger it read" "$(cat "$T/err.txt")" \
    "hpoctl: no campaign 'nosuch' in the ledger of the daemon at $SOCK, $LEDGER"

# No daemon: the configuration's ledger, and the message says so.
stop_daemon
rc=0
"$HPOCTL" -f "$CONF" export --format optuna -o "$T/d.db" nosuch \
    2>"$T/err.txt" || rc=$?
is "no daemon, the configuration's ledger: exits 1" "$rc" 1
is "... naming the ledger it read and why" "$(cat "$T/err.txt")" \
    "hpoctl: no campaign 'nosuch' in the configuration's ledger (no daemon answers at $SOCK; give --ledger), $LEDGER"
rc=0
"$HPOCTL" -f "$CONF" export --format optuna -o "$T/e.db" ex \
    2>"$T/err.txt" || rc=$?
is "... and exports a campaign that is there" "$rc" 0
done_testing
