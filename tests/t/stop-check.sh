#!/bin/sh
# tests/bench/stop_check.py, the stopper-rule check of "Sixty seeds one
# at a time" in tests/bench/RESULTS.md: on a three-run table its counts are the
# ones worked out by hand below, its rule gives the verdicts of the real
# target stopper in a replayed campaign's ledger, and bad input is
# refused.
. "$(dirname "$0")/lib.subr"
PY="python3 $TOP/tests/bench/stop_check.py"

# Target 0.2, runs end at epoch 20.  W falls to 0.29 by epoch 3, stays
# there to epoch 13, then falls 0.02 an epoch to 0.15 at epoch 20: it
# reaches the target.  target.c's rate (at least the mean rate since
# epoch 1, 0.61 / 12 at epoch 13) keeps it; the rate over the last 10
# epochs alone is 0.001 at epoch 12 (0.3 at epoch 2 to 0.29) and stops
# it there.  L stays at chance (0.9): no rate, stopped at the grace
# epoch, 17 of its 20 epochs saved (7 with a grace of 13).  F diverged
# (null values) and is never judged.
w=$(awk 'BEGIN { printf "0.9, 0.3"; for (e = 3; e <= 13; e++) printf ", 0.29"
    for (e = 14; e <= 20; e++) printf ", %.2f", 0.27 - 0.02 * (e - 14) }')
l=$(awk 'BEGIN { printf "0.9"; for (e = 2; e <= 20; e++) printf ", 0.9" }')
cat >"$T/t.json" <<JSON
{"format": "hpod-replay-1", "workload": "w", "metric": "eval_error",
 "goal": "min", "params": [{"name": "x"}], "fixed": {},
 "runs": [
  {"x": [1], "status": 0, "start_s": 0, "values": [$w]},
  {"x": [2], "status": 0, "start_s": 0, "values": [$l]},
  {"x": [3], "status": 1, "start_s": 0, "values": [0.9, null, null]}]}
JSON
is "target.c's rule keeps the late winner" \
    "$($PY "$T/t.json" 0.2 20 3)" \
    "t.json: rule target, slack 0, grace 3: 3 runs, 1 reach the target, 0 of them stopped, 17 epochs saved on the others"
is "the recent rate alone stops it" \
    "$($PY "$T/t.json" 0.2 20 3 recent)" \
    "t.json: rule recent, slack 0, grace 3: 3 runs, 1 reach the target, 1 of them stopped, 17 epochs saved on the others"
is "a later grace saves less" \
    "$($PY "$T/t.json" 0.2 20 13)" \
    "t.json: rule target, slack 0, grace 13: 3 runs, 1 reach the target, 0 of them stopped, 7 epochs saved on the others"
# At epoch 12 the recent rate is 0.001 with 8 epochs left, and at 13
# it is 0 (epoch 3 to 13 flat): no slack keeps the winner.
is "slack 9 still stops it" \
    "$($PY "$T/t.json" 0.2 20 3 recent 9)" \
    "t.json: rule recent, slack 9, grace 3: 3 runs, 1 reach the target, 1 of them stopped, 17 epochs saved on the others"

# The rule is the stopper's: auto (the target stopper, grace 3, its
# leader rule K 2 from epoch 1, the one after a warm-up of 0) on the
# CIFAR-10 table, one at a time, through the real engine and replay
# backend; every trial up to the fifth to reach the target was stopped
# where the rule says, or not at all.  Without the leader rule, or with
# it judging from epoch 4 only, the rule disagrees with the ledger.
export HPOD_WORKLOAD_PATH="$TOP/workloads:$TOP/tests/bench/workloads"
TARGET_SET= BUDGET_SET=
. "$TOP/tests/bench/search.subr"
profile cifar10-cnn
hpod_run auto 0 1 >"$T/r.txt"
if $PY ledger "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" 3 >"$T/out"; then
	ok "the ledger's verdicts are the rule's"
else
	not_ok "the ledger's verdicts are the rule's"
	sed 's/^/#   /' "$T/out"
fi
n=$(sed -n 's/^\([0-9]*\) trials compared, \1 agree$/\1/p' "$T/out")
check "it compared at least the 5 trials that reached the target ($n)" \
    test "${n:-0}" -ge 5
if $PY ledger "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" 3 0 >"$T/out0"; then
	not_ok "without the leader rule the rule disagrees with the ledger"
else
	ok "without the leader rule the rule disagrees with the ledger"
fi
if $PY ledger "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" 3 2 4 >"$T/out4"; then
	not_ok "the leader rule from epoch 4 disagrees with the ledger"
else
	ok "the leader rule from epoch 4 disagrees with the ledger"
fi

# Bad input is refused with its reason.
sed 's/"goal": "min"/"goal": "max"/' "$T/t.json" >"$T/max.json"
if $PY "$T/max.json" 0.2 20 3 2>"$T/err"; then
	not_ok "a table to maximize is refused"
else
	is "a table to maximize is refused" "$(cat "$T/err")" \
	    "stop_check.py: $T/max.json: goal must be min"
fi
# The power law (target.c's power_law): the late winner W's fall from
# 0.9 makes every fit hopeful, so it keeps W too.  P flattens out at
# 0.3 as 0.3 + 0.5 / sqrt(epoch), 40 epochs: the line stops it at 28 (12
# epochs saved), the power law at 17 (23), as the stopper itself does
# (tests/unit/test_search_target.c, the same curve).
is "the power law keeps the late winner" \
    "$($PY "$T/t.json" 0.2 20 3 power)" \
    "t.json: rule power, slack 0, grace 3: 3 runs, 1 reach the target, 0 of them stopped, 17 epochs saved on the others"
p=$(awk 'BEGIN { for (e = 1; e <= 40; e++) printf "%s%.6f", (e > 1 ? ", " : ""), 0.3 + 0.5 / sqrt(e) }')
cat >"$T/p.json" <<JSON
{"format": "hpod-replay-1", "workload": "w", "metric": "eval_error",
 "goal": "min", "params": [{"name": "x"}], "fixed": {},
 "runs": [{"x": [1], "status": 0, "start_s": 0, "values": [$p]}]}
JSON
for r in "target 12" "power 23" "both 23"; do
	is "a curve flattening at 0.3: rule ${r% *} saves ${r#* }" \
	    "$($PY "$T/p.json" 0.2 40 3 "${r% *}")" \
	    "p.json: rule ${r% *}, slack 0, grace 3: 1 runs, 0 reach the target, 0 of them stopped, ${r#* } epochs saved on the others"
done
if $PY "$T/t.json" 0.2 20 3 linear 2>"$T/err"; then
	not_ok "an unknown rule is refused"
else
	is "an unknown rule is refused" "$(cat "$T/err")" \
	    "stop_check.py: RULE must be target, recent, power or both, got linear"
fi
done_testing
