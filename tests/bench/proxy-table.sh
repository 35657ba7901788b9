#!/bin/sh
# make bench-proxy: a proxy trainer's measured behaviour.
#
#   tests/bench/proxy-table.sh [BUILD] PROXY
#
# For each learning rate and global batch size, over seeds 0-2, runs
# PROXY (minicosmo or minicam) for 8 epochs with its target and prints a
# Markdown table whose cells hold, per seed, the best value of the metric
# before the run stopped and the first epoch that met the target ("-":
# never; "div": diverged, exit 2).  LRS, BSS and SEEDS in the environment
# replace the default lists.
set -eu
BUILD=${1:-build}
PROXY=${2:-minicosmo}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
case $PROXY in
minicosmo)
	METRIC=eval_error GOAL=min TARGET=0.14
	LRS=${LRS:-"0.0001 0.001 0.003 0.01 0.03 0.1 0.3"}
	BSS=${BSS:-"16 32 64 128"}
	ARGS="--warmup-epochs 1" ;;
minicam)
	METRIC=eval_accuracy GOAL=max TARGET=0.70
	LRS=${LRS:-"0.001 0.003 0.01 0.03 0.1 0.3 1"}
	BSS=${BSS:-"8 16 32 64"}
	ARGS="--warmup-epochs 1 --optimizer adam" ;;
*)
	echo "proxy-table.sh: unknown proxy '$PROXY'" >&2
	exit 64 ;;
esac
SEEDS=${SEEDS:-"0 1 2"}
T=$(mktemp -d /tmp/hpod-proxy.XXXXXX)
trap 'rm -rf "$T"' EXIT

echo "$PROXY: 8 epochs, $ARGS, target $METRIC $([ $GOAL = min ] &&
    echo '<=' || echo '>=') $TARGET, seeds $SEEDS"
echo
for lr in $LRS; do for bs in $BSS; do for seed in $SEEDS; do
	echo "$lr $bs $seed"
done; done; done | T="$T" B="$TOP/$BUILD/$PROXY" A="$ARGS" M="$METRIC" \
    G="$GOAL" X="$TARGET" xargs -P "$(nproc)" -n 3 sh -c '
	out="$T/$1-$2-$3"
	rc=0
	# shellcheck disable=SC2086
	"$B" --lr "$1" --batch-size "$2" --seed "$3" --epochs 8 $A \
	    --target "$X" >"$out.log" 2>/dev/null || rc=$?
	if [ "$rc" -eq 2 ]; then echo div >"$out"; exit 0; fi
	grep -o "\"key\": \"$M\", \"value\": [0-9.e-]*, \"metadata\": {[^}]*\"epoch_num\": [0-9]*" "$out.log" |
	    sed "s/.*\"value\": \([0-9.e-]*\),.*\"epoch_num\": \([0-9]*\)/\1 \2/" |
	    awk -v g="$G" -v x="$X" "BEGIN { b = g == \"min\" ? 1e9 : -1e9; hit = \"-\" }
		{ if (g == \"min\" ? \$1 < b : \$1 > b) b = \$1
		  if ((g == \"min\" ? \$1 <= x : \$1 >= x) && hit == \"-\") hit = \$2 }
		END { printf \"%.3f/%s\n\", b, hit }" >"$out"
' run
printf "| lr \\\\ batch |"
for bs in $BSS; do printf " %s |" "$bs"; done
printf "\n|---|"
for bs in $BSS; do printf -- "---|"; done
printf "\n"
for lr in $LRS; do
	printf "| %s |" "$lr"
	for bs in $BSS; do
		cells=
		for seed in $SEEDS; do
			cells="$cells $(cat "$T/$lr-$bs-$seed")"
		done
		printf "%s |" "$cells"
	done
	printf "\n"
done
