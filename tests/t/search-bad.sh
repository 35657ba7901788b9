#!/bin/sh
# Search and stopper settings that would do nothing or not what they say
# are refused or said by hpoctl check, naming the file and the key: a
# stopper key that another stopper reads ("leader" given to "asha" was
# silently ignored), a rung stopper whose max_resource leaves it no rung
# or whose first rung is past the last epoch, a median stopper whose grace
# period is, or whose warm-up of trials is not below max_trials (or, of a
# scaling campaign, a batch size's tuning trials: they stopped no trial), a grid that the engine cannot build (hpoctl check
# said ok, hpoctl run then failed without naming the file), and a grid
# larger than budget.max_trials, of which only the first points run; a
# float range too wide for a double, a number past one.
. "$(dirname "$0")/lib.subr"

# spec NAME SPACE SEARCH [TRIALS]: $T/NAME.json, a minicosmo campaign.
spec() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.14},
 "space": $2, "fixed": {"epochs": 3},
 "search": $3,
 "budget": {"max_trials": ${4:-4}, "max_parallel": 1}}
JSON
}
LR='{"lr": {"type": "float", "min": 0.001, "max": 0.1, "scale": "log"}}'

# refused NAME MESSAGE: hpoctl check refuses $T/NAME.json with MESSAGE.
refused() {
	if "$HPOCTL" -f "$CONF" check "$T/$1.json" >/dev/null 2>"$T/err"; then
		not_ok "refused: $1"
	else
		check "refused: $1" grep -qF -- "$T/$1.json: $2" "$T/err"
	fi
}

stopper() {
	spec "$1" "$LR" "{\"algorithm\": \"random\", \"stopper\": $2}"
}
stopper leader '{"algorithm": "asha", "leader": 2}'
refused leader 'search.stopper.leader: not read by the "asha" stopper, which would ignore it (it reads min_resource, max_resource, eta)'
stopper slack '{"algorithm": "median", "slack": 0.5}'
refused slack 'search.stopper.slack: not read by the "median" stopper, which would ignore it (it reads warmup_trials, warmup_steps)'
stopper eta '{"algorithm": "target", "eta": 4}'
refused eta 'search.stopper.eta: not read by the "target" stopper'
stopper none '{"algorithm": "none", "min_resource": 2}'
refused none 'search.stopper.min_resource: not read by the "none" stopper, which would ignore it (it reads no other key)'
stopper hbok '{"algorithm": "hyperband", "min_resource": 1, "max_resource": 3, "eta": 3}'
check "hyperband's own keys are accepted" "$HPOCTL" -f "$CONF" check "$T/hbok.json"
stopper tgtok '{"algorithm": "target", "max_resource": 3, "warmup_trials": 2, "warmup_steps": 1, "slack": 0.1, "leader": 3, "leader_running": 0}'
check "target's own keys are accepted" "$HPOCTL" -f "$CONF" check "$T/tgtok.json"

stopper rungless '{"algorithm": "hyperband", "min_resource": 3, "max_resource": 3}'
refused rungless 'search.stopper.max_resource: must be > min_resource (3): hyperband has no rung at or past max_resource, so it would have none and stop no trial'
stopper asharungless '{"algorithm": "asha", "min_resource": 2, "max_resource": 2}'
refused asharungless 'search.stopper.max_resource: must be > min_resource (2): asha has no rung'

stopper tgtw0 '{"algorithm": "target", "warmup_trials": 0}'
refused tgtw0 'search.stopper.warmup_trials: must be >= 1 for target'

# A stopper that starts past the last epoch (fixed.epochs 3) stops nothing.
stopper past '{"algorithm": "asha", "min_resource": 4}'
refused past 'search.stopper.min_resource: 4 is past the last epoch a trial reaches (3, fixed.epochs), so asha would stop no trial'
stopper hbpast '{"algorithm": "hyperband", "min_resource": 5, "max_resource": 20}'
refused hbpast 'search.stopper.min_resource: 5 is past the last epoch a trial reaches (3, fixed.epochs), so hyperband would stop no trial'
stopper medpast '{"algorithm": "median", "warmup_steps": 4, "warmup_trials": 1}'
refused medpast 'search.stopper.warmup_steps: 4 is past the last epoch a trial reaches (3, fixed.epochs), so median would stop no trial'
# Median judges a trial once warmup_trials others completed: with
# max_trials 4 it needs fewer than 4 (its default is 5).
stopper medwarm '{"algorithm": "median"}'
refused medwarm 'search.stopper.warmup_trials: 5 (the default) is not below budget.max_trials (4): median judges a trial only once 5 others have completed, so it would stop no trial'
stopper medwarm4 '{"algorithm": "median", "warmup_trials": 4}'
refused medwarm4 'search.stopper.warmup_trials: 4 is not below budget.max_trials (4)'
stopper medok '{"algorithm": "median", "warmup_trials": 3}'
check "a median warm-up of max_trials - 1 is accepted" "$HPOCTL" -f "$CONF" check "$T/medok.json"
# A scaling campaign's median judges a trial against its batch size's
# tuning trials only: max_trials 12, 2 batch sizes less 2 confirmation
# runs each leave a batch size 4 at most, so 4 stops none there.
scaled() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "minicosmo",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.14},
 "space": $LR, "fixed": {"epochs": 3},
 "batch_sizes": [16, 32],
 "scaling": {"lr_rule": "linear", "trials_per_batch": 3, "seeds": 2,
     "min_successes": 1},
 "search": {"algorithm": "random", "stopper": $2},
 "budget": {"max_trials": 12, "max_parallel": 1}}
JSON
}
scaled scalewarm '{"algorithm": "median", "warmup_trials": 4}'
refused scalewarm 'search.stopper.warmup_trials: 4 is not below the tuning trials a batch size has at most (4: budget.max_trials 12 / 2 batch sizes - 2 confirmation runs): median judges a trial only against the completed ones of its batch size, so it would stop no trial'
scaled scaleok '{"algorithm": "median", "warmup_trials": 3}'
check "a scaling median warm-up below a batch size's trials is accepted" \
    "$HPOCTL" -f "$CONF" check "$T/scaleok.json"
stopper ashaok '{"algorithm": "asha", "min_resource": 3}'
check "a first rung at the last epoch is accepted" "$HPOCTL" -f "$CONF" check "$T/ashaok.json"

spec wide '{"train_samples": {"type": "int", "min": 64, "max": 5000}}' \
    '{"algorithm": "grid"}'
refused wide "search.algorithm: grid: parameter 'train_samples' has 4937 integer values; set steps"

spec cut '{"batch_size": {"type": "choice", "values": [16, 32, 64]}, "lr": {"type": "float", "min": 0.01, "max": 0.1}}' \
    '{"algorithm": "grid"}' 4
"$HPOCTL" -f "$CONF" check "$T/cut.json" >"$T/check.out"
check "hpoctl check says a grid of 15 points is cut to max_trials 4" \
    grep -qF "$T/cut.json: note: grid: 15 points but budget.max_trials is 4: only the first 4 in grid order run (the last parameter varies fastest, the first, batch_size, slowest), 11 never do" "$T/check.out"
"$HPOCTL" -f "$CONF" run "$T/cut.json" >/dev/null 2>"$T/run.err"
check "and so does hpoctl run" grep -qF "cut: grid: 15 points but budget.max_trials is 4" "$T/run.err"
is "whose first 4 points are batch size 16" \
    "$(sql "select group_concat(distinct batch_size) from trials")" 16
spec whole '{"batch_size": {"type": "choice", "values": [16, 32]}}' \
    '{"algorithm": "grid"}' 4
"$HPOCTL" -f "$CONF" check "$T/whole.json" >"$T/check.out"
is "a grid within max_trials gets no note" "$(grep -c note "$T/check.out" || true)" 0
# A float range whose width overflows a double: the models' kernels
# collapsed to 0 and repeated points; a number past a double (1e400 reads
# as infinity) was "expected a number, got a number".
nap_workload
nap() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": $2}, "search": {"algorithm": "mtpe", "seed": ${3:-1}},
 "budget": {"max_trials": 4}}
JSON
}
nap huge '{"type": "float", "min": -1e308, "max": 1e308}'
refused huge 'space.value: the range [-1e+308, 1e+308] is wider than the largest number (its width max - min overflows); narrow it or use scale "log"'
nap wide '{"type": "float", "min": 0, "max": 1e308}'
check "a range as wide as a double holds is accepted" "$HPOCTL" -f "$CONF" check "$T/wide.json"
nap inf '{"type": "float", "min": 0, "max": 1e400}'
refused inf 'space.value.max: expected a number, got a number too large for a double'
nap infc '{"type": "choice", "values": [1, 1e400]}'
refused infc 'space.value.values[1]: expected a number or a string, got a number too large for a double'
nap infs '{"type": "float", "min": 0, "max": 1}' 1e400
refused infs 'search.seed: expected a number, got a number too large for a double'
done_testing
