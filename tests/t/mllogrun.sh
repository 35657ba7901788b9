#!/bin/sh
# The engine's tailer on the real logs with faults of tests/fixtures/
# mllog-faults/ (a workload that prints one): the NaN evaluation is no
# error and never meets the target, the truncated log's partial curve and
# the garbage log's good lines are recorded, bad lines are warned with
# FILE:LINE, and no attempt is aborted.
. "$(dirname "$0")/lib.subr"

FIX="$TOP/tests/fixtures/mllog-faults"
cat >"$T/printlog.json" <<JSON
{
  "name": "printlog",
  "description": "prints a result log of the fault fixtures",
  "program": "/bin/cat",
  "args": ["$FIX/{log}"],
  "defaults": {"log": "deepcam-nan.txt"},
  "objective": {"metric": "eval_accuracy", "goal": "max", "target": 0.82}
}
JSON
cat >"$T/logs.json" <<JSON
{
  "name": "logs",
  "workload": "printlog.json",
  "space": {"log": {"type": "choice", "values": ["deepcam-nan.txt",
      "deepcam-truncated.txt", "cosmoflow-garbage.txt"]}},
  "search": {"algorithm": "grid"},
  "budget": {"max_trials": 3, "max_parallel": 1},
  "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"},
  "retry": {"limit": 0}
}
JSON
rc=0
"$HPOCTL" -f "$CONF" run "$T/logs.json" >"$T/out.txt" 2>"$T/err.txt" || rc=$?
is "the campaign runs to its end" "$rc" 0
# trial LOG: state, attempt state, reached, eval_accuracy points recorded.
trial() {
	sql "select t.state, a.state, t.reached, (select count(*) from metrics m
	    where m.attempt_id = a.id and m.key = 'eval_accuracy')
	    from trials t join attempts a on a.trial_id = t.id
	    where t.params_json like '%$1%'"
}
evals() { grep -c '"key": "eval_accuracy"' "$FIX/$1" || true; }
is "NaN log: completed, reached, every finite evaluation recorded" \
    "$(trial deepcam-nan)" "completed|completed|1|$(( $(evals deepcam-nan.txt) - 1 ))"
check "  the NaN line is no error" sh -c \
    "! grep -q 'stdout:62:' '$T/err.txt'"
is "truncated log: completed, not reached, its partial curve recorded" \
    "$(trial deepcam-truncated)" \
    "completed|completed|0|$(evals deepcam-truncated.txt)"
check "  its half-written last line warned with FILE:LINE" grep -q \
    "trial-0001/attempt-0/stdout:95: bad JSON after ':::MLLOG'; line ignored" \
    "$T/err.txt"
is "garbage log: completed" "$(trial cosmoflow-garbage)" "completed|completed|0|0"
is "  each bad line warned with FILE:LINE" \
    "$(sed -n 's/.*trial-0002\/attempt-0\/stdout:\([0-9]*\): .*line ignored$/\1/p' \
    "$T/err.txt" | tr '\n' ' ')" "101 202 303 "
done_testing
