#!/bin/sh
# The proxy trainers minicosmo and minicam: a good configuration reaches
# its target and says so, a too large learning rate diverges (exit 2) and
# a too small one stalls, both reported as aborted runs; the same seed
# gives the same log, another seed another one; the MLLOG lines carry the
# keys of the MLPerf HPC references.
. "$(dirname "$0")/lib.subr"

# A sanitizer build runs its trainers without the sanitizers as hpod's
# workload and keeps them sanitized in sanitized/ (Makefile): test those.
P=$BUILD
if ldd "$BUILD/hpod" | grep -q libasan; then
	P=$BUILD/sanitized
	for p in minicosmo minicam; do
		check "the sanitizer build's $p here is sanitized" \
		    sh -c "ldd '$P/$p' | grep -q libasan"
	done
fi

# mllog FILE: the MLLOG events of a log as JSON lines, without time_ms.
mllog() {
	sed -n 's/^:::MLLOG //p' "$1" | jq -c 'del(.time_ms)'
}

# value FILE KEY: the values of KEY, one a line.
value() {
	mllog "$1" | jq -r --arg k "$2" 'select(.key == $k) | .value'
}

# status FILE: the status of run_stop.
status() {
	mllog "$1" | jq -r 'select(.key == "run_stop") | .metadata.status'
}

# proxy NAME METRIC GOAL TARGET GOOD BAD SLOW: the tests of one trainer;
# GOOD, BAD and SLOW are argument lists (split on blanks).
proxy() {
	p=$1 metric=$2 goal=$3 target=$4 good=$5 bad=$6 slow=$7
	bin="$P/$p"
	# shellcheck disable=SC2086
	{
	rc=0; "$bin" $good --seed 1 --target "$target" >"$T/$p.good" \
	    2>"$T/$p.err" || rc=$?
	is "$p: a good configuration exits 0" "$rc" 0
	is "$p: and stops with status success" "$(status "$T/$p.good")" success
	last=$(value "$T/$p.good" "$metric" | tail -n 1)
	check "$p: its last $metric $last meets the target $target" \
	    awk -v v="$last" -v t="$target" -v g="$goal" \
	    'BEGIN { exit !(g == "min" ? v <= t : v >= t) }'
	n=$(value "$T/$p.good" "$metric" | wc -l)
	prev=$(value "$T/$p.good" "$metric" | sed -n "$((n - 1))p")
	check "$p: it stops at the first evaluation on target" \
	    awk -v v="${prev:-x}" -v t="$target" -v g="$goal" -v n="$n" \
	    'BEGIN { exit !(n == 1 || (g == "min" ? v > t : v < t)) }'
	is "$p: submission_benchmark" \
	    "$(value "$T/$p.good" submission_benchmark)" "$p"
	is "$p: global_batch_size is the batch size" \
	    "$(value "$T/$p.good" global_batch_size)" \
	    "$(echo " $good " | sed 's/.* --batch-size \([0-9]*\) .*/\1/')"
	is "$p: seed" "$(value "$T/$p.good" seed)" 1
	is "$p: one run_start" \
	    "$(mllog "$T/$p.good" | jq -r 'select(.key == "run_start") | .event_type')" \
	    INTERVAL_START
	is "$p: an epoch_start and an epoch_stop per evaluation" \
	    "$(mllog "$T/$p.good" | jq -r 'select(.key == "epoch_start" or .key == "epoch_stop") | .key' | sort | uniq -c | awk '{ printf "%s ", $1 }')" \
	    "$n $n "
	is "$p: every $metric has epoch_num 1, 2, ..." \
	    "$(mllog "$T/$p.good" | jq -r --arg k "$metric" 'select(.key == $k) | .metadata.epoch_num' | tr '\n' ' ')" \
	    "$(seq 1 "$n" | tr '\n' ' ')"
	is "$p: run_stop comes last" \
	    "$(mllog "$T/$p.good" | tail -n 1 | jq -r .key)" run_stop

	"$bin" $good --seed 1 --target "$target" >"$T/$p.again" 2>/dev/null
	is "$p: the same seed gives the same log" \
	    "$(mllog "$T/$p.again" | md5sum)" "$(mllog "$T/$p.good" | md5sum)"
	"$bin" $good --seed 3 --target "$target" >"$T/$p.other" 2>/dev/null
	check "$p: another seed gives other $metric values" test \
	    "$(value "$T/$p.other" "$metric" | head -n 1)" != \
	    "$(value "$T/$p.good" "$metric" | head -n 1)"

	rc=0; "$bin" $bad --target "$target" >"$T/$p.bad" 2>"$T/$p.err" ||
	    rc=$?
	is "$p: a too large learning rate diverges: exit 2" "$rc" 2
	is "$p: and stops with status aborted" "$(status "$T/$p.bad")" aborted
	check "$p: and says so" grep -q "^$p: diverged at epoch 1 (loss " \
	    "$T/$p.err"

	rc=0; "$bin" $slow --target "$target" >"$T/$p.slow" 2>/dev/null ||
	    rc=$?
	is "$p: a too small learning rate stalls: exit 0" "$rc" 0
	is "$p: and stops with status aborted" "$(status "$T/$p.slow")" aborted
	rc=0; "$bin" --train-samples 16 --eval-samples 8 --batch-size 8 \
	    --epochs 1 >"$T/$p.notarget" 2>/dev/null || rc=$?
	is "$p: without a target: status aborted, exit 0" \
	    "$rc $(status "$T/$p.notarget")" "0 aborted"
	}
	rc=0; "$bin" --lr 0 2>"$T/$p.err" >/dev/null || rc=$?
	is "$p: bad usage exits 64" "$rc" 64
	check "$p: naming the option" grep -q "^$p: --lr '0': must be > 0" \
	    "$T/$p.err"
}

proxy minicosmo eval_error min 0.3 \
    "--train-samples 128 --eval-samples 32 --batch-size 8 --lr 0.03 --epochs 4" \
    "--train-samples 128 --eval-samples 32 --batch-size 8 --lr 0.5 --epochs 2" \
    "--train-samples 64 --eval-samples 32 --batch-size 8 --lr 0.00001 --epochs 2"
proxy minicam eval_accuracy max 0.6 \
    "--train-samples 128 --eval-samples 32 --batch-size 4 --lr 0.03 --epochs 4" \
    "--train-samples 128 --eval-samples 32 --batch-size 8 --lr 3 --warmup-epochs 0 --epochs 2" \
    "--train-samples 64 --eval-samples 32 --batch-size 8 --lr 0.00001 --epochs 2"

# minicam's options reach the trainer and are logged as DeepCAM logs them.
"$P/minicam" --train-samples 64 --eval-samples 16 --batch-size 8 \
    --epochs 1 --optimizer lamb --decay multistep --weight-decay 0.01 \
    >"$T/lamb.log"
is "minicam --optimizer lamb: opt_name LAMB" "$(value "$T/lamb.log" opt_name)" \
    LAMB
is "minicam --decay multistep: scheduler_type" \
    "$(value "$T/lamb.log" scheduler_type)" multistep
is "minicam --weight-decay: opt_weight_decay" \
    "$(value "$T/lamb.log" opt_weight_decay)" 0.01
rc=0; "$P/minicam" --optimizer sgd 2>"$T/err" >/dev/null || rc=$?
is "minicam --optimizer sgd: exit 64" "$rc" 64
check "  with the legal values" grep -q \
    "^minicam: --optimizer 'sgd': must be adam, adamw or lamb$" "$T/err"

# minicosmo scales its learning rate from a base batch size as CosmoFlow.
"$P/minicosmo" --train-samples 64 --eval-samples 16 --batch-size 64 \
    --epochs 1 --warmup-epochs 0 --lr 0.01 --lr-scaling linear \
    --base-batch-size 16 \
    >"$T/scaled.log"
is "minicosmo --lr-scaling linear: peak rate logged" \
    "$(value "$T/scaled.log" opt_base_learning_rate)" 0.04
is "  and the scale factor" \
    "$(value "$T/scaled.log" opt_learning_rate_warmup_factor)" 4
"$P/minicosmo" --train-samples 64 --eval-samples 16 --batch-size 64 \
    --epochs 1 --warmup-epochs 0 --lr 0.01 --lr-scaling sqrt \
    --base-batch-size 16 \
    >"$T/sqrt.log"
is "minicosmo --lr-scaling sqrt: peak rate logged" \
    "$(value "$T/sqrt.log" opt_base_learning_rate)" 0.02
check "  and training differs from linear scaling" test \
    "$(value "$T/sqrt.log" eval_error)" != "$(value "$T/scaled.log" eval_error)"
done_testing
