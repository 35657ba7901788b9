#!/bin/sh
# Search and early stopping through the real engine: stopper keys are
# validated; a TPE campaign interrupted by a daemon restart suggests
# exactly what an uninterrupted run suggests; an ASHA campaign prunes
# trials, cancels their jobs, and counts their cost.
. "$(dirname "$0")/lib.subr"

# tpe_campaign NAME STOPPER: a sequential TPE campaign of 13 short trials.
tpe_campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {
    "lr": {"type": "float", "min": 0.001, "max": 0.5, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}
  },
  "fixed": {"epochs": $3, "warmup_epochs": 0, "train_samples": 256, "eval_samples": 128},
  "search": {"algorithm": "tpe", "seed": 11$2},
  "budget": {"max_trials": 13, "max_parallel": 1},
  "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"}
}
JSON
}

# bad_stopper JSON MESSAGE: hpoctl check refuses the stopper with MESSAGE.
bad_stopper() {
	tpe_campaign bad ", \"stopper\": $1" 3
	if "$HPOCTL" -f "$CONF" check "$T/bad.json" 2>"$T/err.txt"; then
		not_ok "refused: $1"
	else
		check "refused: $1" grep -qF -- "$T/bad.json: $2" "$T/err.txt"
	fi
}

bad_stopper '{"algorithm": "pbt"}' 'search.stopper.algorithm: expected one of "none", "asha", "hyperband", "median", "target", got "pbt"'
bad_stopper '{"algorithm": "hyperband"}' 'search.stopper.max_resource: required for hyperband'
bad_stopper '{"algorithm": "asha", "eta": 1}' 'search.stopper.eta: 1 is out of range [2, 100]'
bad_stopper '{"algorithm": "asha", "min_resource": 4, "max_resource": 2}' 'search.stopper.max_resource: must be >= min_resource (4)'
bad_stopper '{"algorithm": "median", "patience": 2}' 'search.stopper.patience: unknown key'
bad_stopper '{"min_resource": 2}' 'search.stopper.algorithm: required'
tpe_campaign good ', "stopper": {"algorithm": "hyperband", "max_resource": 27}' 3
check "a hyperband stopper is accepted" "$HPOCTL" -f "$CONF" check "$T/good.json"

# Restart equivalence: the same campaign run straight through in the
# foreground, and in the daemon stopped and restarted in its TPE phase.
tpe_campaign straight "" 3
"$HPOCTL" -f "$CONF" run -q "$T/straight.json" >/dev/null 2>"$T/straight.err"
is "uninterrupted run: 13 finished trials" \
    "$(sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'straight' and t.state in ('completed', 'failed')")" 13
tpe_campaign restarted "" 3
start_daemon
"$HPOCTL" submit "$T/restarted.json" >/dev/null
wait_count 12 30 "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'restarted'"
check "SIGTERM during trial 11 or later" stop_daemon
start_daemon
check "the campaign finishes after the restart" wait_campaign restarted 120
check "the daemon stops" stop_daemon
params() {
	sql "select group_concat(params_json, ' ') from (select t.params_json from trials t join campaigns c on c.id = t.campaign_id where c.name = '$1' order by t.number)"
}
is "interrupted and uninterrupted runs suggest the same 13 points" \
    "$(params restarted)" "$(params straight)"

# ASHA on the local backend: poor trials are cancelled at a rung.
tpe_campaign pruning ', "stopper": {"algorithm": "asha", "min_resource": 1, "eta": 3}' 9
"$HPOCTL" -f "$CONF" run --format json "$T/pruning.json" >"$T/pruning.out" \
    2>"$T/pruning.err"
npruned=$(sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'pruning' and t.state = 'pruned'")
check "some trials were pruned ($npruned)" test "$npruned" -gt 0
is "their attempts ended pruned" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pruning' and a.state = 'pruned'")" "$npruned"
is "pruned trials were not retried" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pruning' and a.number > 0")" 0
check "every pruned trial stopped at a rung (1 or 3)" sh -c "grep 'pruned by asha' '$T/pruning.err' | grep -qv 'at epoch [13] '; test \$? -eq 1"
is "the report counts them" "$(jq .trials.pruned "$T/pruning.out")" "$npruned"
is "and their attempts" "$(jq .cost.pruned_attempts "$T/pruning.out")" "$npruned"
check "their CPU-hours are part of the cost" jq -e \
    '.cost.pruned_cpu_hours > 0 and .cost.pruned_cpu_hours < .cost.cpu_hours' \
    "$T/pruning.out"
done_testing
