#!/bin/sh
# A refused `hpoctl run`, `resume`, `check` or `export` leaves the file
# system as it found it: no ledger (nor -wal, -shm) where none was, and a
# ledger that was there untouched.  The ledger a refused run created is
# removed only under SQLite's exclusive lock, when it holds no campaign
# (ledger/discard.c, tests/unit/test_ledger_discard.c).
. "$(dirname "$0")/lib.subr"

write_campaign ok 1 1 1
sed 's/"budget"/"budgte"/' "$T/ok.json" >"$T/badkey.json"
sed 's/minicosmo/nosuch/' "$T/ok.json" >"$T/nowl.json"
# A Slurm campaign with no Slurm configuration: the spec is good, the
# backend cannot start.
sed 's/"resources": {/"backend": "slurm", "resources": {/' "$T/ok.json" \
    >"$T/slurm.json"
export SLURM_CONF="$T/none.conf"

# refused DESCRIPTION COMMAND...: the command fails and leaves no ledger.
refused() {
	desc=$1
	shift
	rm -rf "$T/state"
	rc=0
	"$HPOCTL" -f "$CONF" "$@" >/dev/null 2>"$T/err.txt" || rc=$?
	is "$desc: refused" "$rc" 1
	left=$(ls "$T/state" 2>/dev/null | grep '^ledger' || true)
	is "$desc: no ledger left" "$left" ""
}
refused "run, bad key" run -q "$T/badkey.json"
refused "run, missing workload" run -q "$T/nowl.json"
refused "run, backend refused" run -q "$T/slurm.json"
refused "resume, no such campaign" resume -q nope
refused "check, bad key" check "$T/badkey.json"
refused "export, no ledger" export --format optuna -o "$T/x.json" nope

# A ledger that was there is kept as it was.
"$HPOCTL" -f "$CONF" run -q "$T/ok.json" >/dev/null 2>&1
before=$(sql 'SELECT count(*) FROM campaigns')
"$HPOCTL" -f "$CONF" run -q "$T/slurm.json" >/dev/null 2>&1 || true
"$HPOCTL" -f "$CONF" resume -q nope >/dev/null 2>&1 || true
check "a ledger that was there is kept" test -s "$LEDGER"
is "its campaigns are all there" "$(sql 'SELECT count(*) FROM campaigns')" \
    "$before"

# A ledger in which a campaign was recorded is never removed by a refused
# run (test_ledger_discard: nor by the run that created it, nor while
# another process has it open).
rm -rf "$T/state"
"$HPOCTL" -f "$CONF" run -q "$T/ok.json" >/dev/null 2>&1
"$HPOCTL" -f "$CONF" run -q "$T/slurm.json" >/dev/null 2>&1 || true
is "a refused run keeps a ledger with a campaign" \
    "$(sql 'SELECT count(*) FROM campaigns')" 1
done_testing
