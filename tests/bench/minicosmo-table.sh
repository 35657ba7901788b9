#!/bin/sh
# make bench-proxy: the proxy trainer's measured behaviour.  For each
# learning rate and global batch size, over seeds 0-2 (8 epochs, warm-up
# 1, target 0.14): the best eval_error per seed and the first epoch that
# met the target ("-": never; "div": diverged, exit 2).
set -eu
BUILD=${1:-build}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/hpod-proxy.XXXXXX)
trap 'rm -rf "$T"' EXIT
LRS="0.0001 0.001 0.003 0.01 0.03 0.1 0.3"
BSS="16 32 64 128"
for lr in $LRS; do for bs in $BSS; do for seed in 0 1 2; do
	echo "$lr $bs $seed"
done; done; done | T="$T" B="$TOP/$BUILD" xargs -P "$(nproc)" -n 3 sh -c '
	out="$T/$1-$2-$3"
	rc=0
	"$B/minicosmo" --lr "$1" --batch-size "$2" --seed "$3" --epochs 8 \
	    --target 0.14 >"$out.log" 2>/dev/null || rc=$?
	if [ "$rc" -eq 2 ]; then echo div >"$out"; exit 0; fi
	grep -o "\"key\": \"eval_error\", \"value\": [0-9.e-]*, \"metadata\": {[^}]*\"epoch_num\": [0-9]*" "$out.log" |
	    sed "s/.*\"value\": \([0-9.e-]*\),.*\"epoch_num\": \([0-9]*\)/\1 \2/" |
	    awk "BEGIN { b = 9; hit = \"-\" } { if (\$1 < b) b = \$1; if (\$1 <= 0.14 && hit == \"-\") hit = \$2 }
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
		printf " %s |" "$(cat "$T/$lr-$bs-0" "$T/$lr-$bs-1" "$T/$lr-$bs-2" | tr '\n' ' ' | sed 's/ $//')"
	done
	printf "\n"
done
