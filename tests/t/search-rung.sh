#!/bin/sh
# mtpe's model on partial curves through the real engine on the replay
# backend, eight trials at a time: the suggestions after the first wave
# come from the model fitted on the running trials' curves (sobol's
# points before), made while fewer trials had ended than the model's
# start-up count (the ledger's creation times against the attempts' end
# times), and they go more often than sobol's to the learning rates
# whose curves lead.
. "$(dirname "$0")/lib.subr"

# A synthetic table: 16 learning rates x 6 batch sizes, 12 epochs; the
# loss depends on the learning rate alone (0.005 to 0.03 lead from epoch
# 2 on and reach the target 0.2 by epoch 8); an epoch takes
# 5120 / batch_size virtual seconds.
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
# ended CAMPAIGN NUMBER: how many of its attempts had ended when its
# trial NUMBER was created.
ended() {
	sql "select count(*) from attempts a join trials t on t.id = a.trial_id
	    where t.campaign_id = $1 and a.ended > 0 and a.ended <=
	    (select created from trials where campaign_id = $1 and number = $2)"
}
# params CAMPAIGN NUMBER: the parameters of its trial NUMBER.
params() {
	sql "select params_json from trials where campaign_id = $1 and number = $2"
}
# lead CAMPAIGN: how many of its trials after the first wave have a
# learning rate whose curve leads (0.005 to 0.03).
lead() {
	sql "select count(*) from trials where campaign_id = $1 and number
	    >= 8 and json_extract(params_json, '$.lr') between 0.005 and 0.03"
}

# Two parameters: the model's start-up count is 3 (max(3, d + 1)).
for seed in 3 11; do
	for alg in mtpe sobol; do
		campaign "$alg$seed" "$alg" "$seed"
		"$HPOCTL" -f "$CONF" run -q "$T/$alg$seed.json" >/dev/null 2>&1
	done
	M=$(cid "mtpe$seed") S=$(cid "sobol$seed")
	is "seed $seed: 24 trials" \
	    "$(sql "select count(*) from trials where campaign_id = $M")" 24
	check "seed $seed: trial 8 made when fewer than 3 trials had ended" \
	    test "$(ended "$M" 8)" -lt 3
	check "seed $seed: trial 8 is the model's, not sobol's point" \
	    test "$(params "$M" 8)" != "$(params "$S" 8)"
	LM=$((${LM:-0} + $(lead "$M"))) LS=$((${LS:-0} + $(lead "$S")))
done
check "trials 8 to 23, both seeds: mtpe takes the leading learning rates more often than sobol ($LM, $LS)" \
    test "$LM" -gt "$LS"
A=$(cid mtpe3)
campaign mtpe3 mtpe 3
"$HPOCTL" -f "$CONF" run -q "$T/mtpe3.json" >/dev/null 2>&1
is "mtpe, run again: the same trials" \
    "$(sql "select group_concat(params_json, '; ') from (select params_json from trials where campaign_id = $(cid mtpe3) order by number)")" \
    "$(sql "select group_concat(params_json, '; ') from (select params_json from trials where campaign_id = $A order by number)")"

done_testing
