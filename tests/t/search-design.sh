#!/bin/sh
# The start-up of mtpe, cmtpe and auto through the real engine on the
# replay backend, eight trials at a time: the first wave, eight
# suggestions made before any result, is the campaign's scrambled Sobol'
# design (sobol's own points with the same seed), so its learning rates
# fall one in each eighth of their log range; the same spec run again
# makes the same trials.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# A synthetic table: 16 learning rates x 6 batch sizes, 12 epochs; the
# loss depends on the learning rate alone (0.005 to 0.03 reach the target
# 0.2 by epoch 8); an epoch takes 5120 / batch_size virtual seconds.
replay_window 16

# campaign NAME ALGORITHM SEED: 24 trials over the table, 8 at a time.
campaign() {
	replay_spec "$1" "$2" "$3" 24 8 "$REPLAY_SPACE" 12 ', "target": 0.2'
}
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
