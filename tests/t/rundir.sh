#!/bin/sh
# A run_dir that is a file, not a directory, is refused saying so; before,
# the refusal said "run directory FILE/1-rd exists already (left by a
# campaign of another ledger?)", which sent the user looking for an old
# campaign.  A run directory of the campaign's id and name that does exist
# is still refused as one left by another ledger (tests/t/faults.sh).
. "$(dirname "$0")/lib.subr"

write_campaign rd 1 1 1
touch "$T/afile"
rc=0
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$T/afile" "$T/rd.json" \
    >/dev/null 2>"$T/err" || rc=$?
is "a run_dir that is a file is refused" "$rc" 1
is "saying it is not a directory" "$(cat "$T/err")" \
    "hpoctl: campaign 'rd': run_dir $T/afile: Not a directory"
check "nothing of the campaign is kept: the ledger it made is removed" \
    test ! -e "$LEDGER"
mkdir "$T/runs2"
touch "$T/runs2/1-rd"
rc=0
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$T/runs2" "$T/rd.json" \
    >/dev/null 2>"$T/err" || rc=$?
is "a file where the campaign's directory goes is refused" "$rc" 1
check "as a run directory that exists already" grep -q \
    "run directory $T/runs2/1-rd exists already" "$T/err"
done_testing
