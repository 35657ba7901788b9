#!/bin/sh
# The start-up of mtpe, cmtpe and auto through the real engine on the
# replay backend, eight trials at a time: the first wave, eight
# suggestions made before any result, is the campaign's scrambled Sobol'
# design (sobol's own points with the same seed), so its learning rates
# fall one in each eighth of their log range; the same spec run again
# makes the same trials.
. "$(dirname "$0")/lib.subr"

# A synthetic table: 16 learning rates x 6 batch sizes, 12 epochs; the
# loss depends on the learning rate alone (0.005 to 0.03 reach the target
# 0.2 by epoch 8); an epoch takes 5120 / batch_size virtual seconds.
awk 'BEGIN {
	printf "{\"format\": \"hpod-replay-1\", \"workload\": \"minicosmo\",\n"
	printf " \"metric\": \"eval_error\", \"goal\": \"min\",\n"
	printf " \"params\": [{\"name\": \"lr\", \"scale\": \"log\"}, {\"name\": \"batch_size\", \"scale\": \"log\"}],\n"
	printf " \"fixed\": {\"epochs\": 12},\n \"runs\": ["
	n = 0
	for (i = 0; i < 16; i++) for (b = 16; b <= 512; b *= 2) {
		lr = 0.001 * 10 ^ (i * 2 / 15)
		printf "%s\n  {\"x\": [%.6g, %d], \"seed\": 0, \"start_s\": 5, ", n++ ? "," : "", lr, b
		printf "\"status\": 0, \"epoch_s\": ["
		for (e = 1; e <= 12; e++)
			printf "%s%d", (e > 1 ? ", " : ""), 5120 / b
		printf "], \"values\": ["
		for (e = 1; e <= 12; e++) {
			if (lr >= 0.005 && lr <= 0.03) v = 0.1 + 0.8 / e
			else v = 0.9 - 0.03 * e
			printf "%s%.6f", (e > 1 ? ", " : ""), v
		}
		printf "]}"
	}
	printf "\n]}\n"
}' >"$T/table.json"

# campaign NAME ALGORITHM SEED: 24 trials over the table, 8 at a time.
campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": 0.2},
  "space": {
    "lr": {"type": "float", "min": 0.001, "max": 0.1, "scale": "log"},
    "batch_size": {"type": "int", "min": 16, "max": 512, "scale": "log"}
  },
  "fixed": {"epochs": 12},
  "search": {"algorithm": "$2", "seed": $3},
  "budget": {"max_trials": 24, "max_parallel": 8},
  "resources": {"gpus_per_node": 1, "time_limit": "01:00:00"},
  "backend": "replay",
  "replay": {"table": "$T/table.json"},
  "retry": {"limit": 0}
}
JSON
}
cid() { sql "select id from campaigns where name = '$1' order by id desc limit 1"; }
# first8 CAMPAIGN: the parameters of its first eight trials.
first8() {
	sql "select group_concat(params_json, '; ') from (select params_json from trials where campaign_id = $1 order by number limit 8)"
}
# eighths CAMPAIGN: the eighth of lr's log range each of its first eight
# trials falls in, sorted and distinct.
eighths() {
	sql "select json_extract(params_json, '$.lr') from trials where campaign_id = $1 order by number limit 8" |
	    awk '{ printf "%d\n", int(8 * log($1 / 0.001) / log(100)) }' |
	    sort -un | tr '\n' ' '
}

for seed in 3 11; do
	for alg in mtpe cmtpe auto sobol; do
		campaign "$alg$seed" "$alg" "$seed"
		"$HPOCTL" -f "$CONF" run -q "$T/$alg$seed.json" >/dev/null 2>&1
	done
	is "seed $seed: 24 trials" \
	    "$(sql "select count(*) from trials where campaign_id = $(cid "auto$seed")")" 24
	S=$(first8 "$(cid "sobol$seed")")
	for alg in mtpe cmtpe auto; do
		is "seed $seed: $alg's first wave is sobol's first 8 points" \
		    "$(first8 "$(cid "$alg$seed")")" "$S"
		is "seed $seed: $alg's first 8 learning rates, one in each eighth" \
		    "$(eighths "$(cid "$alg$seed")")" "0 1 2 3 4 5 6 7 "
	done
done
A=$(cid auto3)
"$HPOCTL" -f "$CONF" run -q "$T/auto3.json" >/dev/null 2>&1
is "auto, run again: the same trials" \
    "$(sql "select group_concat(params_json, '; ') from (select params_json from trials where campaign_id = $(cid auto3) order by number)")" \
    "$(sql "select group_concat(params_json, '; ') from (select params_json from trials where campaign_id = $A order by number)")"

done_testing
