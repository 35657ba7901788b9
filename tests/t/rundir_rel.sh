#!/bin/sh
# `hpoctl run --run-dir DIR` with a relative DIR: the attempts' directories
# are recorded absolute, and a pilot campaign runs.  Before, the ledger
# recorded "runs/1-rr/trial-0000/attempt-0" (meaningless to a resume or a
# cancel --ledger from another directory), and the pilot agent, which
# starts in its own directory, looked for "runs/1-rr/pilot.json" there
# forever: no trial ever ran, and the pilot sat idle, billed, until its
# time limit.
. "$(dirname "$0")/lib.subr"

write_campaign rr 2 2 1 0.01
# Short time limits: without the fix, the stray pilot ends within a minute.
jq '. * {"dispatch": "pilot", "resources": {"time_limit": "00:00:30"},
    "pilot": {"count": 1, "cpus": 2, "time_limit": "00:01:00"}}' \
    "$T/rr.json" >"$T/rr.tmp" && mv "$T/rr.tmp" "$T/rr.json"
rc=0
(cd "$T" && timeout -k 5 60 "$HPOCTL" run -q --format json --ledger rel.db \
    --run-dir rel-runs rr.json >rr.out 2>rr.err) || rc=$?
is "a pilot campaign under a relative --run-dir ends" "$rc" 0
is "its trials ran" "$(jq '.trials.completed + .trials.failed' \
    "$T/rr.out" 2>/dev/null)" 2
is "every attempt's directory is recorded absolute" \
    "$(sqlite3 -readonly "$T/rel.db" \
    "select count(*) from attempts where dir not like '$T/rel-runs/%'")" 0
check "and is there" test -f "$T/rel-runs/1-rr/trial-0000/attempt-0/result.json"
done_testing
