#!/bin/sh
# The example of hpoctl(1) and README.md that scores an attempt's log,
# run as written from the directory above the run directory.  Before, both
# named attempt-1 (a trial's first attempt is attempt-0) and the man page
# 1-grid (the directory is ID-NAME: 1-grid-minicosmo): "No such file".
. "$(dirname "$0")/lib.subr"

write_campaign grid-minicosmo 4 2 1 0.5
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" \
    "$T/grid-minicosmo.json" >/dev/null
man=$(sed -n 's/^\$ hpoctl mllog --target \([^ ]*\) \(runs\/.*stdout\)$/\1 \2/p' \
    "$TOP/man/hpoctl.1")
readme=$(sed -n '/^of the proxy trainer (`hpoctl mllog --target/{N;p;}' \
    "$TOP/README.md" | tr '\n' ' ' |
    sed -n 's/.*--target \([^ ]*\) \(runs\/[^`]*stdout\)`.*/\1 \2/p')
is "README.md gives the man page's example" "$readme" "$man"
set -- $man
rc=0
(cd "$T/state" && "$HPOCTL" mllog --target "$1" "$2") >"$T/out" \
    2>"$T/err" || rc=$?
is "hpoctl(1)'s example runs" "$rc" 0
check "and scores the attempt's log" grep -q "minicosmo .*$2\$" "$T/out"
done_testing
