#!/bin/sh
# A failed trial says why in the log: the last non-blank line of its
# stderr follows "failed: exit N, no METRIC reported" (control bytes as
# '?', cut to 159 bytes).  Before, the log said only "failed: exit 64,
# no eval_error reported" of a trial whose program refused its
# arguments, and the reason was in RUN_DIR/.../stderr alone.  One that
# reported a value says how it ended too: "failed: signal 9, best ...",
# not "failed, best ..." of a workload killed by a signal.  And the
# report's winning run of a campaign whose workload has no batch size said
# "(batch size 0, tuning)"; it names no batch size now.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
case $1 in
1) echo "starting" >&2; echo "nap: --value '1': must be in [2, 3]" >&2
   printf '\n  \n' >&2; exit 64 ;;
2) printf 'nap:\tcolour \033[31mred\n' >&2; exit 3 ;;
3) awk 'BEGIN { for (i = 0; i < 3000; i++) printf "x"; print "" }' >&2
   exit 4 ;;
4) echo "fine" >&2; echo ':::MLLOG {"key": "eval_error", "value": 0.5}' ;;
5) echo ':::MLLOG {"key": "eval_error", "value": 0.7}'; echo "dying" >&2
   kill -KILL $$ ;;
esac
SH
cat >"$T/fw.json" <<JSON
{"name": "fw", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "choice", "values": [1, 2, 3, 4, 5]}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 5, "max_parallel": 1}}
JSON
"$HPOCTL" -f "$CONF" run "$T/fw.json" >/dev/null 2>"$T/run.log" || true
line() {
	grep "fw: trial $1: " "$T/run.log" | grep -v ': {' | sed 's/^.*hpoctl: //'
}
is "its program's last word is in a failed trial's line" "$(line 0)" \
    "fw: trial 0: failed: exit 64, no eval_error reported; stderr: nap: --value '1': must be in [2, 3]"
is "control bytes are shown as '?'" "$(line 1)" \
    "fw: trial 1: failed: exit 3, no eval_error reported; stderr: nap:?colour ?[31mred"
x=$(printf '%159s' '' | tr ' ' x)
is "a long line is cut" "$(line 2)" \
    "fw: trial 2: failed: exit 4, no eval_error reported; stderr: $x"
is "a completed trial's stderr is not shown" "$(line 3)" \
    "fw: trial 3: completed, best eval_error 0.5"
is "a failed trial that reported says the signal that killed it" \
    "$(line 4)" \
    "fw: trial 4: failed: signal 9, best eval_error 0.7; stderr: dying"
# The nap workload has no batch size: the report does not make up one.
is "the winning run of a campaign of no batch size names none" \
    "$("$HPOCTL" report --ledger "$LEDGER" fw | sed -n 's/^\(winning run: trial [0-9]* ([^)]*)\).*/\1/p')" \
    "winning run: trial 3 (tuning)"
done_testing
