#!/bin/sh
# mtpe's model on partial curves through the real engine on the replay
# backend, eight trials at a time: the suggestions after the first wave
# come from the model fitted on the running trials' curves (sobol's
# points before), made while fewer trials had ended than the model's
# start-up count (the ledger's creation times against the attempts' end
# times), and they go more often than sobol's to the learning rates
# whose curves lead.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# A synthetic table: 16 learning rates x 6 batch sizes, 12 epochs; the
# loss depends on the learning rate alone (0.005 to 0.03 lead from epoch
# 2 on and reach the target 0.2 by epoch 8); an epoch takes
# 5120 / batch_size virtual seconds.
replay_window 16

# campaign NAME ALGORITHM SEED: 24 trials over the table, 8 at a time.
campaign() {
	replay_spec "$1" "$2" "$3" 24 8 "$REPLAY_SPACE" 12 ', "target": 0.2'
}
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
