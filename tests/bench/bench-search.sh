#!/bin/sh
# make bench-search: how cheaply each search method finds a configuration
# that reaches the target, replayed from recorded tables of real learning
# curves through the real engine, search, stopper and ledger (hpoctl run,
# replay backend), and Optuna 3.1 (Debian's python3-optuna, always
# /usr/bin/python3) over the same tables through
# tests/bench/optuna_replay.py.
#
#   tests/bench/bench-search.sh [BUILD]
#
# TABLES names the tables (default "minicosmo cifar10-cnn mnist-conv
# mnist-cnn"):
# - minicosmo: tests/bench/minicosmo-replay.json, 144 runs of the
#   minicosmo proxy (make-replay-table.sh); lr log-uniform in [0.001,
#   0.2], batch_size in {32, 64, 128}, momentum uniform in [0.85, 0.95];
#   target eval_error <= 0.12, budget 150 GPU-seconds, 12 epochs;
# - cifar10-cnn: tests/bench/cifar10-cnn-replay.json, 265 real runs of a
#   3-layer CNN on CIFAR-10 (Klein et al. 2017; lcnet-to-replay.py,
#   LICENSE-data.md); lr log-uniform in [1e-6, 1], batch_size and three
#   layer widths log-uniform integers in [32, 512] and [16, 1024]; target
#   validation error <= 0.185 (14% of the runs reach it), budget 200
#   GPU-hours, 40 epochs;
# - mnist-conv: tests/bench/mnist-conv-replay.json, the full grid of 162
#   real runs of a 2-convolution network on MNIST (H. Cho's tf-hpo,
#   tfhpo-to-replay.py, LICENSE-data.md); conv1_depth and conv2_depth
#   log-uniform integers in [2, 512], fc_depth in {512, 1024}; target
#   validation error <= 0.007 (25 of the runs reach it), budget 2.4
#   GPU-hours (22% of the grid's 10.7, as CIFAR-10's 200 of 921), 85
#   points of 100 training steps ("epochs" here);
# - mnist-cnn: tests/bench/mnist-cnn-replay.json, the full grid of 200
#   real runs of another MNIST network of the same author (tf-hpo's log
#   of 2016-08-11, tfhpo-to-replay.py, LICENSE-data.md); L1 and L2
#   (convolution filters) log-uniform integers in [2, 1024], L3 (fully
#   connected units) in {512, 1024}; target error on 512 test images
#   <= 0.0215 (31 of the runs reach it, 15.5%), budget 4,187
#   GPU-seconds (22% of the grid's 19,031), 156 points of 1,280
#   training samples ("epochs" here).
# Each table's target was chosen before any search ran on it so that
# about 14-15% of its runs reach it (a run reaches it when any of its
# points does): 14.0% of CIFAR-10's; on the two MNIST grids, whose
# errors come in steps, the smallest recorded value that at least 14%
# reach (one step below: 11% of mnist-conv's runs, 13.5% of
# mnist-cnn's).  Each budget is 22% of the GPU-time of the whole table.
# Every method gets the same space, target, budget (no new trial once the
# GPU-seconds spent reach it, 1 GPU per trial) and SEEDS seeds (default
# 20), at each PARALLEL trials at a time (default "1 8": suggestions made
# while the others run).  The optuna-* methods are Optuna's RandomSampler,
# TPESampler (defaults) or, as optuna-mtpe, TPESampler(multivariate=True,
# constant_liar=True), with its SuccessiveHalvingPruner (+asha) or
# HyperbandPruner (+hyperband) set as hpod's stoppers are here
# (min_resource 1, reduction factor 3, max_resource the epochs).
# RESULTS=DIR keeps each method's per-seed lines in DIR; LEDGERS=DIR
# keeps each hpod campaign's ledger there (search.subr's hpod_run) for
# tests/bench/wall_split.py.
#
# Per method it prints the fraction of seeds that reached the target, and
# the median over the seeds of the cost, in epochs and GPU-hours, of every
# trial until the first one reached it (">" when fewer than half the
# seeds reached it) with a bootstrap 90% interval of that median (2000
# resamples of the seeds; ">" for a bound no seed reached).  A median
# inside another method's interval is a tie.
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
TABLES=${TABLES:-"minicosmo cifar10-cnn mnist-conv mnist-cnn"}
SEEDS=${SEEDS:-20}
PARALLEL=${PARALLEL:-"1 8"}
METHODS=${METHODS:-"random sobol tpe tpe+asha mtpe mtpe+asha auto optuna-random optuna-tpe optuna-tpe+asha optuna-mtpe optuna-mtpe+asha"}
HPOCTL=$TOP/$BUILD/hpoctl
# TARGET and BUDGET from the environment apply to every table; unset,
# each table has its own (not the previous table's).
TARGET_SET=${TARGET:-} BUDGET_SET=${BUDGET:-}
T=$(mktemp -d /tmp/hpod-bench.XXXXXX)
trap 'rm -rf "$T"' EXIT
export HPOD_WORKLOAD_PATH=$TOP/workloads:$TOP/tests/bench/workloads

. "$TOP/tests/bench/search.subr"

# stats FILE: reach rate, then median and bootstrap 90% interval of the
# epochs ($2) and of the GPU-seconds ($3) to target, unreached as inf.
stats() {
	awk -v n="$SEEDS" '
		function med(a, m,  i, j, t, b) {
			for (i = 0; i < m; i++) b[i] = a[i]
			for (i = 1; i < m; i++) {
				t = b[i]
				for (j = i - 1; j >= 0 && b[j] > t; j--) b[j + 1] = b[j]
				b[j + 1] = t
			}
			return m % 2 ? b[int(m / 2)] : (b[m / 2 - 1] + b[m / 2]) / 2
		}
		function boot(a, m,  r, i, s, st, t, j) {
			srand(1)
			for (r = 0; r < 2000; r++) {
				for (i = 0; i < m; i++) s[i] = a[int(rand() * m)]
				st[r] = med(s, m)
			}
			for (i = 1; i < 2000; i++) {
				t = st[i]
				for (j = i - 1; j >= 0 && st[j] > t; j--) st[j + 1] = st[j]
				st[j + 1] = t
			}
			return st[100] " " st[1899]
		}
		{ reached += $1; ep[NR - 1] = $2 == "inf" ? 1e300 : $2
		  g[NR - 1] = $3 == "inf" ? 1e300 : $3; tr += $5 }
		END { print reached / n, med(ep, n), boot(ep, n), med(g, n),
		    boot(g, n), tr / n }' "$1"
}

if printf '%s' "$METHODS" | grep -q optuna &&
    ! /usr/bin/python3 -c 'import optuna' 2>/dev/null; then
	echo "bench-search: /usr/bin/python3 cannot import optuna (apt-get install python3-optuna)" >&2
	exit 1
fi
for tb in $TABLES; do
	profile "$tb"
	for par in $PARALLEL; do
		echo
		echo "table $tb: target eval_error <= $TARGET, budget $(awk -v b="$BUDGET" 'BEGIN { printf "%g", b / 3600 }') GPU-hours per seed, $SEEDS seeds, $par trial(s) at a time"
		echo
		printf '| method | reached | epochs to target, median [90%% CI] | GPU-hours to target, median [90%% CI] | trials (mean) |\n'
		printf '|---|---|---|---|---|\n'
		for m in $METHODS; do
			: >"$T/$m.txt"
			s=0
			while [ "$s" -lt "$SEEDS" ]; do
				case $m in
				optuna-*) /usr/bin/python3 -W ignore \
				    "$TOP/tests/bench/optuna_replay.py" "$TABLE" \
				    "$TARGET" "$BUDGET" "$s" "${m#optuna-}" \
				    "$SPACE" "$par" "$EPOCHS" ;;
				*) hpod_run "$m" "$s" "$par" ;;
				esac >>"$T/$m.txt"
				s=$((s + 1))
			done
			[ -z "${RESULTS:-}" ] ||
			    cp "$T/$m.txt" "$RESULTS/$tb-p$par-$m.txt"
			stats "$T/$m.txt" | awk -v m="$m" '
			    function e(x) { return x >= 1e299 ? ">" : sprintf("%.0f", x) }
			    function h(x) { return x >= 1e299 ? ">" : sprintf("%.4g", x / 3600) }
			    { printf "| %s | %.0f%% | %s [%s-%s] | %s [%s-%s] | %.0f |\n",
			        m, $1 * 100, e($2), e($3), e($4), h($5), h($6), h($7), $8 }'
		done
	done
done
