#!/bin/sh
# mtpe over a long replayed campaign is reproducible: past 4,096 trials
# in its bad group the joint kernels are merged into grid cells
# (search/mtpe_grid.c), and the same spec replayed twice records the same
# trials, the same points to the last digit, the same states, values and
# costs.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

N=${REPLAY_MTPE_TRIALS:-4400}
replay_big "$N"
sed 's/"algorithm": "random"/"algorithm": "mtpe"/' "$T/big.json" \
    >"$T/mtpe.json"
check "a $N-trial mtpe replay campaign runs" \
    "$HPOCTL" -f "$CONF" run -q "$T/mtpe.json"
check "and runs again" "$HPOCTL" -f "$CONF" run -q "$T/mtpe.json"
A=$(sql "select min(id) from campaigns where name = 'big'")
B=$(sql "select max(id) from campaigns where name = 'big'")
check "two campaigns" test "$A" -lt "$B"
is "each ran $N trials" \
    "$(sql "select count(*) from trials where campaign_id = $A")|$(sql "select count(*) from trials where campaign_id = $B")" \
    "$N|$N"
# rows CAMPAIGN: every trial's number, point, state and best, in order.
rows() {
	sql "select number, params_json, state, best from trials where campaign_id = $1 order by number" | md5sum
}
is "the same trials, points, states and bests" "$(rows "$B")" "$(rows "$A")"
is "the same cost" \
    "$(sql "select sum(ended - started) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $B")" \
    "$(sql "select sum(ended - started) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $A")"
npts=$(sql "select count(distinct params_json) from trials where campaign_id = $A")
check "mtpe explored ($npts distinct points)" test "$npts" -gt 100
done_testing
