#!/bin/sh
# A ledger that cannot be written is still read: on a read-only file
# system (an archived campaign, a snapshot) or in another user's
# directory, SQLite cannot create the WAL index (-shm) a reader needs, and
# `hpoctl status|trials|report --ledger` failed with "read schema version:
# unable to open database file" (or "attempt to write a readonly
# database").  A ledger closed cleanly (no -wal beside it) is read as an
# immutable file.  Needs root (mount).
. "$(dirname "$0")/lib.subr"

if [ "$(id -u)" != 0 ]; then
	ok "# skip needs root (mount)"
	done_testing
	exit
fi
trap 'rc=$?; umount "$T/ro" 2>/dev/null || true; cleanup "$rc"' EXIT

write_campaign ro 2 2 1
check "a campaign runs" "$HPOCTL" run -q --ledger "$LEDGER" \
    --run-dir "$RUNS" "$T/ro.json"
is "no -wal is left beside the closed ledger" \
    "$(ls "$T/state" | grep -c -- '-wal$' || true)" 0

mkdir "$T/ro"
mount --bind "$T/state" "$T/ro"
mount -o remount,bind,ro "$T/ro"
check "the copy is read-only" sh -c "! touch '$T/ro/x' 2>/dev/null"
for c in status trials report; do
	if "$HPOCTL" $c --ledger "$T/ro/ledger.db" --format json ro \
	    >"$T/$c.ro" 2>"$T/$c.err"; then
		ok "$c reads the read-only ledger"
	else
		not_ok "$c reads the read-only ledger"
		sed 's/^/#   /' "$T/$c.err"
	fi
done
check "watch --ledger of the finished campaign ends" timeout 20 \
    "$HPOCTL" watch --ledger "$T/ro/ledger.db" ro
is "nothing was written beside it" "$(ls "$T/ro" | sort | tr '\n' ' ')" \
    "ledger.db runs "
umount "$T/ro"
# The wall time of a finished campaign is fixed: the same figures.
for c in status trials report; do
	"$HPOCTL" $c --ledger "$LEDGER" --format json ro >"$T/$c.rw"
	check "$c says what it says of the writable ledger" \
	    cmp -s "$T/$c.rw" "$T/$c.ro"
done

# A ledger that is not hpod's stays refused, read-only or not.
sqlite3 "$T/state/other.db" "create table foo (a); pragma journal_mode = wal;" \
    >/dev/null
mount --bind "$T/state" "$T/ro"
mount -o remount,bind,ro "$T/ro"
if "$HPOCTL" status --ledger "$T/ro/other.db" >/dev/null 2>"$T/o.err"; then
	not_ok "another program's database is refused"
else
	is "another program's database is refused" "$(cat "$T/o.err")" \
	    "hpoctl: ledger '$T/ro/other.db': not an hpod ledger"
fi
done_testing
