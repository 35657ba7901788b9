#!/bin/sh
# The program runs in its attempt directory, where hpo-trial keeps
# result.json.  A program that writes a result.json of its own there (a
# common name for a trainer's results) lost it: hpo-trial's record
# replaced it when the program ended.  Now the program's file is kept as
# result.json.workload, and hpo-trial's record is written as before.
. "$(dirname "$0")/lib.subr"

TRIAL="$BUILD/hpo-trial"
mkdir -p "$T/a" "$T/b"
rc=0
# The backends start it in the attempt directory.
(cd "$T/a" && "$TRIAL" -d "$T/a" -t tok-a -- sh -c \
    'echo "{\"acc\": 0.9}" >result.json; exit 3') 2>"$T/err" || rc=$?
is "the program's exit status is hpo-trial's" "$rc" 3
is "the program's result.json is kept aside" \
    "$(cat "$T/a/result.json.workload" 2>/dev/null)" '{"acc": 0.9}'
is "hpo-trial's own record is in result.json" \
    "$(jq -r '"\(.token) \(.state) \(.exit_code)"' "$T/a/result.json")" \
    "tok-a exited 3"
is "  and in hpo-trial.json, which the program left alone" \
    "$(cat "$T/a/hpo-trial.json")" "$(cat "$T/a/result.json")"
is "and it says so" "$(cat "$T/err")" \
    "hpo-trial: the program wrote its own result.json; kept as '$T/a/result.json.workload'"
# A program that leaves result.json alone: nothing else is made.
(cd "$T/b" && "$TRIAL" -d "$T/b" -t tok-b -- true) 2>"$T/err"
is "a program that writes none: no result.json.workload" \
    "$(ls "$T/b" | tr '\n' ' ')" "ended hpo-trial.json result.json "
is "  and nothing said" "$(cat "$T/err")" ""
done_testing
