#!/bin/sh
# Constraints between two parameters of a workload ("constraints" in
# hpod-workload(5)): the proxies refuse a batch larger than their training
# set (exit 64 on every trial), so hpoctl check refuses a campaign that
# sets such a pair, or whose space or batch_sizes can give one, naming
# the file and the key; before, it said ok.
. "$(dirname "$0")/lib.subr"

# The rule is the trainers' own: equal is taken, one more is refused.
for p in minicosmo minicam; do
	rc=0
	"$BUILD/$p" --train-samples 64 --batch-size 64 --epochs 1 \
	    --eval-samples 16 >/dev/null 2>"$T/err" || rc=$?
	is "$p: a batch of the training set's size trains" "$rc" 0
	rc=0
	"$BUILD/$p" --train-samples 64 --batch-size 65 --epochs 1 \
	    --eval-samples 16 >/dev/null 2>"$T/err" || rc=$?
	is "$p: a batch one larger is refused" "$rc" 64
	check "... naming --batch-size" grep -q "batch-size" "$T/err"
done

write_campaign ok 2 1 2
check "a campaign within the constraint passes" "$HPOCTL" check "$T/ok.json"

# refused NAME JQ-FILTER EXPECTED-MESSAGE: the campaign ok.json as the
# filter changes it is refused, with the message.
refused() {
	jq "$2" "$T/ok.json" >"$T/$1.json"
	rc=0
	"$HPOCTL" check "$T/$1.json" >/dev/null 2>"$T/err.txt" || rc=$?
	is "$1: refused" "$rc" 1
	is "$1: the message" "$(cat "$T/err.txt")" "hpoctl: $T/$1.json: $3"
}
W="for workload 'minicosmo' ($TOP/workloads/minicosmo.json)"
DRAW="; the space can draw such a pair, and every trial of it would fail"
refused fixed-batch '.fixed.batch_size = 2048 | del(.space.batch_size) |
    del(.fixed.train_samples)' \
    "fixed.batch_size: 2048 is not legal $W: with train_samples 1024 (the workload's default) it breaks constraints[0], batch_size <= train_samples"
refused fixed-train '.fixed.train_samples = 16 | .fixed.batch_size = 32 |
    del(.space.batch_size)' \
    "fixed.batch_size: 32 is not legal $W: with train_samples 16 (fixed.train_samples) it breaks constraints[0], batch_size <= train_samples"
refused choice '.space.batch_size.values = [32, 512]' \
    "space.batch_size.values[1]: 512 is not legal $W: with train_samples 256 (fixed.train_samples) it breaks constraints[0], batch_size <= train_samples$DRAW"
refused range '.space.batch_size = {"type": "int", "min": 16, "max": 300}' \
    "space.batch_size.max: 300 is not legal $W: with train_samples 256 (fixed.train_samples) it breaks constraints[0], batch_size <= train_samples$DRAW"
refused train-range '.space.train_samples = {"type": "int", "min": 48, "max": 512} |
    del(.fixed.train_samples) | .fixed.batch_size = 64 | del(.space.batch_size)' \
    "space.train_samples.min: 48 is not legal $W: with batch_size 64 (fixed.batch_size) it breaks constraints[0], batch_size <= train_samples$DRAW"
refused scaling 'del(.space.batch_size) | .batch_sizes = [64, 128, 512] |
    .scaling = {"lr_rule": "sqrt", "trials_per_batch": 1, "seeds": 1} |
    .budget.max_trials = 6' \
    "batch_sizes[2]: 512 is not legal $W: with train_samples 256 (fixed.train_samples) it breaks constraints[0], batch_size <= train_samples$DRAW"
jq '.space.batch_size.values = [32, 256]' "$T/ok.json" >"$T/edge.json"
check "a choice up to train_samples passes" "$HPOCTL" check "$T/edge.json"

# The workload spec's own key: its errors name the file and the key.
# wl NAME JQ-FILTER EXPECTED-MESSAGE
mkdir -p "$T/wl"
wl() {
	jq "$2" "$TOP/workloads/minicosmo.json" >"$T/wl/$1.json"
	jq --arg w "$T/wl/$1.json" '.workload = $w' "$T/ok.json" >"$T/c-$1.json"
	rc=0
	"$HPOCTL" check "$T/c-$1.json" >/dev/null 2>"$T/err.txt" || rc=$?
	is "workload $1: refused" "$rc" 1
	check "workload $1: the message" grep -qF "$T/wl/$1.json: $3" "$T/err.txt" ||
	    sed 's/^/#   /' "$T/err.txt"
}
wl op '.constraints = [["batch_size", "=<", "train_samples"]]' \
    'constraints[0][1]: expected one of <=, <, >=, >'
wl name '.constraints = [["batch_size", "<=", "samples"]]' \
    "constraints[0][2]: 'samples' is not a tunable parameter"
wl shape '.constraints = [["batch_size", "<="]]' \
    'constraints[0]: expected [parameter, operator, parameter]'
wl self '.constraints = [["batch_size", "<", "batch_size"]]' \
    'constraints[0]: compares batch_size with itself'
wl defaults '.defaults.batch_size = 2048' \
    'defaults: batch_size 2048 and train_samples 1024 break constraints[0] (batch_size <= train_samples)'
done_testing
