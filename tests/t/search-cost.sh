#!/bin/sh
# cmtpe (cost-aware mtpe) through the real engine on the replay backend:
# the seconds per epoch of each trial come from its points' times in the
# ledger, and of suggestions of about equal promise cmtpe makes the
# cheaper ones; the same spec run again makes the same trials; auto
# chooses cmtpe and says why.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# A synthetic table: 12 learning rates x 6 batch sizes, 12 epochs.  The
# loss depends on the learning rate alone (0.005 to 0.03 reach the target
# 0.2 by epoch 8, the others stay above 0.5); an epoch takes 5120 /
# batch_size virtual seconds, 320 at 16 down to 10 at 512 (32-fold).
replay_window 12

# campaign NAME ALGORITHM: 40 trials over the table, 2 at a time, the
# target stopper (what auto picks here).
campaign() {
	replay_spec "$1" "$2" 5 40 2 "$REPLAY_SPACE" 12 ', "target": 0.2' \
	    ', "stopper": {"algorithm": "target"}'
}
# per_epoch CAMPAIGN: mean seconds per epoch of its trials after the
# first 10, from the ledger's points.
per_epoch() {
	sql "select cast(avg(s) as int) from (select (max(m.time) - min(m.time)) / (max(m.step) - min(m.step)) as s from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id where t.campaign_id = $(cid "$1") and t.number >= 10 and m.key = 'eval_error' group by a.id having count(*) > 1)"
}

campaign cm cmtpe
check "a cmtpe campaign is accepted" "$HPOCTL" -f "$CONF" check "$T/cm.json"
"$HPOCTL" -f "$CONF" run -q "$T/cm.json" >/dev/null 2>&1
campaign m mtpe
"$HPOCTL" -f "$CONF" run -q "$T/m.json" >/dev/null 2>&1
campaign r random
"$HPOCTL" -f "$CONF" run -q "$T/r.json" >/dev/null 2>&1
is "cmtpe: 40 trials" "$(sql "select count(*) from trials where campaign_id = $(cid cm)")" 40
cme=$(per_epoch cm) me=$(per_epoch m) re=$(per_epoch r)
echo "# seconds per epoch after the first 10 trials: cmtpe $cme, mtpe $me, random $re"
check "cmtpe's trials cost at most 0.75x random's per epoch ($cme, $re)" \
    test $((cme * 4)) -le $((re * 3))
check "cmtpe's campaign reaches the target" \
    test "$(sql "select count(*) from trials where campaign_id = $(cid cm) and reached = 1")" -ge 1
A=$(cid cm)
"$HPOCTL" -f "$CONF" run -q "$T/cm.json" >/dev/null 2>&1
is "cmtpe, run again: the same trials" "$(trials "$(cid cm)")" "$(trials "$A")"

campaign auto auto
sed -i 's/, "stopper": {"algorithm": "target"}//' "$T/auto.json"
"$HPOCTL" -f "$CONF" run "$T/auto.json" >"$T/auto.out" 2>&1
check "auto chooses cmtpe and says why" \
    grep -q "search: auto chose cmtpe: .*; of equal promise, the cheaper per epoch" "$T/auto.out"
is "auto suggests what cmtpe does" "$(trials "$(cid auto)")" "$(trials "$A")"

done_testing
