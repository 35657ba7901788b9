#!/bin/sh
# A trainer that diverges logs its objective as NaN or Infinity (Python's
# json writes them): that is no value, never the best nor on target, no
# error either (tests/t/mllogrun.sh), and nothing is recorded of it; but
# a trial that logged nothing else ends "no finite eval_error reported
# (N NaN or infinite)".  Before, it ended "completed: exit 0, no
# eval_error reported", as if the trainer had logged nothing.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
ml() {
	echo ":::MLLOG {\"key\": \"${3:-eval_error}\", \"value\": $1, \"metadata\": {\"epoch_num\": $2}}"
}
case $1 in
1) ml NaN 1; ml -Infinity 2; ml 0.5 3 ;;
2) ml NaN 1 ;;
3) ml 2.5 1 train_loss; ml 0.4 1 eval_err ;;
esac
SH
cat >"$T/np.json" <<JSON
{"name": "np", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "choice", "values": [1, 2, 3]}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 3, "max_parallel": 1}}
JSON
"$HPOCTL" -f "$CONF" run "$T/np.json" >/dev/null 2>"$T/run.log" || true
is "NaN and -Infinity are no error" "$(grep -c 'line ignored' "$T/run.log" || true)" 0
is "the finite point after them is the trial's best" \
    "$(sql "select best, best_step from trials where number = 0")" "0.5|3.0"
is "only it is recorded" "$(sql "select count(*) from metrics where key = 'eval_error'")" 1
is "a trial of NaN alone says it logged one" \
    "$(grep -c 'np: trial 1: completed: exit 0, no finite eval_error reported (1 NaN or infinite)$' "$T/run.log" || true)" 1
is "and has no best" "$(sql "select coalesce(best, 'null') from trials where number = 1")" null
# A trainer that logs its objective under another key: the trial says
# which, an eval_ one first, where it said only "no eval_error reported".
is "a trial of another key says which it logged" \
    "$(grep -c 'np: trial 2: completed: exit 0, no eval_error reported (it logged eval_err: is objective.metric the key it logs?)$' "$T/run.log" || true)" 1
done_testing
