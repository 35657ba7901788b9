#!/bin/sh
# make-replay-table.sh: record the learning curves the replay backend
# answers from, by running the real minicosmo proxy trainer over a grid of
# configurations and seeds, one run at a time (5 to 10 minutes on one
# core of the development machine).
#
#   tests/bench/make-replay-table.sh [BUILD [OUT]]
#
# Grid: lr in 8 log-spaced values from 0.001 to 0.2, batch_size 32, 64
# and 128, momentum 0.85 and 0.95, seeds 0, 1 and 2 (144 runs; LRS, BSS,
# MOMS and SEEDS in the environment replace these lists),
# each 12 epochs with 1 warm-up epoch on 512 training and 256 validation
# samples, no target (the full curve; the replay backend stops a run at
# the campaign's target as the trainer would).  Per run the table keeps
# the exit status (2: diverged), the wall seconds before the first epoch
# (start_s: the process's wall time minus its epochs), and per epoch the
# seconds from the end of the previous epoch's evaluation to the end of
# this one's (epoch_s) and eval_error (values).
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${2:-$TOP/tests/bench/minicosmo-replay.json}
PROG=$TOP/$BUILD/minicosmo
EPOCHS=12
LRS=${LRS:-"0.001 0.002 0.005 0.01 0.02 0.05 0.1 0.2"}
BSS=${BSS:-"32 64 128"}
MOMS=${MOMS:-"0.85 0.95"}
SEEDS=${SEEDS:-"0 1 2"}
T=$(mktemp -d /tmp/hpod-replay.XXXXXX)
trap 'rm -rf "$T"' EXIT
[ -x "$PROG" ] || { echo "make-replay-table: $PROG: not built" >&2; exit 1; }

{
	printf '{"format": "hpod-replay-1", "workload": "minicosmo",\n'
	printf ' "metric": "eval_error", "goal": "min",\n'
	printf ' "made": "tests/bench/make-replay-table.sh on %s, %s",\n' \
	    "$(uname -n)" "$(date -u +%Y-%m-%d)"
	printf ' "params": [{"name": "lr", "scale": "log"}, {"name": "batch_size", "scale": "log"}, {"name": "momentum", "scale": "linear"}],\n'
	printf ' "fixed": {"epochs": %d, "warmup_epochs": 1, "train_samples": 512, "eval_samples": 256},\n' "$EPOCHS"
	printf ' "runs": ['
	sep=
	n=0
	for lr in $LRS; do for bs in $BSS; do for m in $MOMS; do for seed in $SEEDS; do
		t0=$(date +%s.%N)
		rc=0
		"$PROG" --lr "$lr" --batch-size "$bs" --momentum "$m" \
		    --seed "$seed" --epochs "$EPOCHS" --warmup-epochs 1 \
		    --train-samples 512 --eval-samples 256 >"$T/log" \
		    2>/dev/null || rc=$?
		t1=$(date +%s.%N)
		printf '%s\n  ' "$sep"
		sep=,
		# time_ms of each epoch_start and eval_error line, in order.
		sed -n 's/.*"time_ms": \([0-9]*\), "event_type": "[A-Z_]*", "key": "\(epoch_start\|eval_error\)", "value": \([^,]*\),.*/\2 \1 \3/p' \
		    "$T/log" | awk -v lr="$lr" -v bs="$bs" -v m="$m" \
		    -v seed="$seed" -v rc="$rc" -v wall="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" '
			BEGIN { n = 0 }
			$1 == "epoch_start" && first == "" { first = $2 }
			$1 == "eval_error" {
				if (last == "") last = first
				s[n] = ($2 - last) / 1000; v[n] = $3; n++
				total += s[n - 1]; last = $2
			}
			END {
				start = wall - total; if (start < 0) start = 0
				printf "{\"x\": [%s, %s, %s], \"seed\": %s, \"status\": %d, \"start_s\": %.3f, \"epoch_s\": [", lr, bs, m, seed, rc, start
				for (i = 0; i < n; i++) printf "%s%.3f", (i ? ", " : ""), s[i]
				printf "], \"values\": ["
				for (i = 0; i < n; i++) printf "%s%.5f", (i ? ", " : ""), v[i]
				printf "]}"
			}'
		n=$((n + 1))
		echo "make-replay-table: run $n: lr $lr batch $bs momentum $m seed $seed: exit $rc" >&2
	done; done; done; done
	printf '\n]}\n'
} >"$T/table.json"
mv "$T/table.json" "$OUT"
echo "make-replay-table: wrote $OUT" >&2
