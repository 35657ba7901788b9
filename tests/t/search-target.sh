#!/bin/sh
# The target stopper and the time-to-target ranking through the real
# engine on the replay backend: trials stuck at chance or too slow to
# reach the target are stopped, none that would have reached it is (nor
# before the grace period with the leader rule off); auto
# picks the target stopper when the campaign has a target and says why;
# objective.rank time_to_target runs; bad keys are refused by name.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# A synthetic table: 12 learning rates x 2 batch sizes, 12 epochs of 10
# virtual seconds, target eval_error <= 0.2: lr < 0.003 stays at chance
# (0.9), lr < 0.02 falls slowly (never under 0.5), the others fall fast
# and reach the target by epoch 5 to 7.  A trial's lr maps to the table's
# nearest: 0.0187 (slow) below 0.024, 0.0285 (fast) above.
replay_table "$T/table.json" "$(log_lrs 12 2)" "32 64" 12 10 '
	if (lr < 0.003) v = 0.9
	else if (lr < 0.02) v = 0.9 - 0.03 * e
	else v = 0.1 + 0.8 / (e * (b == 64 ? 0.7 : 1))'
SPACE='
    "lr": {"type": "float", "min": 0.001, "max": 0.1, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}'

# campaign NAME ALGORITHM STOPPER [RANK]: 30 trials over the table.
campaign() {
	replay_spec "$1" "$2" 5 30 2 "$SPACE" 12 \
	    ", \"target\": 0.2${4:+, \"rank\": \"$4\"}" "${3:+, \"stopper\": $3}"
}
count() {
	sql "select count(*) from trials where campaign_id = $(cid "$1") and $2"
}

campaign tgt random '{"algorithm": "target"}'
check "a target-stopper campaign is accepted" "$HPOCTL" -f "$CONF" check "$T/tgt.json"
"$HPOCTL" -f "$CONF" run "$T/tgt.json" >"$T/tgt.out" 2>&1
check "trials are pruned by target" grep -q "pruned by target at epoch" "$T/tgt.out"
is "30 trials" "$(count tgt 1)" 30
np=$(count tgt "state = 'pruned'")
check "the stuck and slow trials are stopped ($np pruned)" test "$np" -ge 5
is "none that would reach the target is stopped" \
    "$(count tgt "state = 'pruned' and json_extract(params_json, '\$.lr') >= 0.024")" 0
# pruned_before NAME STEP: trials of campaign NAME pruned before STEP.
pruned_before() {
	sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $(cid "$1") and t.state = 'pruned' and (select max(step) from metrics m where m.attempt_id = a.id and m.key = 'eval_error') < $2"
}
# The leader rule (leader 2 by default) may stop a trial from the epoch
# after the warm-up (2) on, when it is worse than another trial was by
# half its epoch: a stuck one (0.9) at epoch 2 behind a slow one's 0.87
# at epoch 1.
is "none stopped before the epoch after the warm-up (2)" \
    "$(pruned_before tgt 2)" 0
np=$(pruned_before tgt 4)
check "the leader rule stops some before the grace period ($np)" \
    test "$np" -ge 1
# A pruned attempt's reason is the stopper's: which rule, at which epoch
# (its last point), not the backend's "cancelled"; hpoctl trials shows it.
reasons() {
	sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $(cid "$1") and a.state = 'pruned' and $2"
}
is "every pruned attempt's reason names the epoch of its last point" \
    "$(reasons tgt "a.reason = 'pruned by target at epoch ' || (select cast(max(step) as int) from metrics m where m.attempt_id = a.id and m.key = 'eval_error') || ' (eval_error ' || substr(a.reason, instr(a.reason, '(eval_error ') + 12)")" \
    "$(count tgt "state = 'pruned'")"
is "those stopped before the grace period by the leader rule" \
    "$(reasons tgt "a.reason like '%; rule: leader)' and (select max(step) from metrics m where m.attempt_id = a.id) < 4")" \
    "$(pruned_before tgt 4)"
"$HPOCTL" -f "$CONF" trials --ledger "$LEDGER" -t pruned -O trial,reason tgt >"$T/trials.txt"
check "hpoctl trials -O reason shows the rule" \
    grep -Eq '^[0-9]+ +pruned by target at epoch [0-9]+ \(eval_error [0-9.]+; rule: (leader|extrapolation)\)$' "$T/trials.txt"
campaign tgt0 random '{"algorithm": "target", "leader": 0}'
"$HPOCTL" -f "$CONF" run -q "$T/tgt0.json" >/dev/null 2>&1
np=$(count tgt0 "state = 'pruned'")
check "leader 0: some trials are stopped ($np)" test "$np" -ge 1
is "leader 0: each by extrapolation or the reference curves" \
    "$(reasons tgt0 "(a.reason like '%; rule: extrapolation)' or a.reason like '%; rule: reference curves)')")" "$np"
is "leader 0: none stopped before the grace period (warm-up 1 + 3 epochs)" \
    "$(pruned_before tgt0 4)" 0
is "leader 0: none that would reach the target is stopped" \
    "$(count tgt0 "state = 'pruned' and json_extract(params_json, '\$.lr') >= 0.024")" 0
is "every trial that ran to the end of a fast lr reached the target" \
    "$(count tgt "state = 'completed' and json_extract(params_json, '\$.lr') >= 0.024 and reached = 0")" 0

# power_law: a table whose slow runs flatten out at 0.3 as a power law
# (0.3 + 0.5 / sqrt(epoch)): the straight line at their fastest rate keeps
# hoping until epoch 7, the most hopeful power law stops them at 5 (the
# unit test test_search_target.c works the same curve out).
replay_table "$T/flat.json" "$(log_lrs 12 2)" "32 64" 12 10 '
	if (lr < 0.003) v = 0.9
	else if (lr < 0.02) v = 0.3 + 0.5 / sqrt(e)
	else v = 0.1 + 0.8 / (e * (b == 64 ? 0.7 : 1))'
# pruned_at NAME RULE: the epochs at which campaign NAME's trials of a
# slow lr were pruned by RULE, distinct, ascending.
pruned_at() {
	sql "select group_concat(s) from (select distinct (select cast(max(step) as int) from metrics m where m.attempt_id = a.id and m.key = 'eval_error') s from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $(cid "$1") and t.state = 'pruned' and a.reason like '%rule: $2)%' and json_extract(t.params_json, '\$.lr') between 0.003 and 0.02 order by s)"
}
for pl in true false; do
	campaign "flat$pl" random "{\"algorithm\": \"target\", \"leader\": 0, \"power_law\": $pl}"
	"$HPOCTL" -f "$CONF" run -q "$T/flat$pl.json" >/dev/null 2>&1
	is "power_law $pl: none that would reach the target is stopped" \
	    "$(count "flat$pl" "state = 'pruned' and json_extract(params_json, '\$.lr') >= 0.024")" 0
done
is "power_law: the flattening runs stopped at epoch 5 by the power law" \
    "$(pruned_at flattrue 'power law')" 5
is "the line alone: stopped at epoch 7 by the extrapolation" \
    "$(pruned_at flatfalse extrapolation)" 7
is "the line alone never says power law" "$(pruned_at flatfalse 'power law')" ""
replay_table "$T/table.json" "$(log_lrs 12 2)" "32 64" 12 10 '
	if (lr < 0.003) v = 0.9
	else if (lr < 0.02) v = 0.9 - 0.03 * e
	else v = 0.1 + 0.8 / (e * (b == 64 ? 0.7 : 1))'

campaign auto auto ''
"$HPOCTL" -f "$CONF" run "$T/auto.json" >"$T/auto.out" 2>&1
check "auto says it chose the target stopper and why" \
    grep -q "stopper: auto chose target: the campaign has a target (eval_error <= 0.2) and trials end at epoch 12, so a trial stops when its curve cannot reach the target by then or it is twice as slow as the campaign's leader" "$T/auto.out"
check "auto's trials are pruned by target" grep -q "pruned by target" "$T/auto.out"
# The report says what searched and stopped, and for auto what it chose
# and why, as the run did (it said neither before).
"$HPOCTL" -f "$CONF" report --ledger "$LEDGER" auto >"$T/auto.rep"
check "the report says what auto chose to search with and why" \
    grep -q "^search: auto chose cmtpe: the budget and 2 parameters leave a joint model room to act" "$T/auto.rep"
check "... and to stop with" \
    grep -q "^stopper: auto chose target: the campaign has a target (eval_error <= 0.2) and trials end at epoch 12" "$T/auto.rep"
"$HPOCTL" -f "$CONF" report --ledger "$LEDGER" --format json auto >"$T/auto.json.rep"
is "the JSON report has the search and the stopper auto chose" \
    "$(jq -r '.search | "\(.algorithm) \(.stopper) \(.auto | .[0:16])"' "$T/auto.json.rep")" \
    "auto target auto chose cmtpe"
"$HPOCTL" -f "$CONF" report --ledger "$LEDGER" tgt >"$T/tgt.rep"
is "a named search and stopper are in the report" \
    "$(grep -E '^(search|stopper):' "$T/tgt.rep" | tr '\n' ' ')" "search: random stopper: target "

campaign ttt mtpe '{"algorithm": "target", "slack": 0.5}' time_to_target
"$HPOCTL" -f "$CONF" run -q "$T/ttt.json" >/dev/null 2>&1
is "time_to_target: 30 trials" "$(count ttt 1)" 30
check "time_to_target: trials reach the target" test "$(count ttt "reached = 1")" -ge 1

# refused DESCRIPTION MESSAGE: hpoctl check refuses bad.json with MESSAGE.
refused() {
	if "$HPOCTL" -f "$CONF" check "$T/bad.json" 2>"$T/err.txt"; then
		not_ok "refused: $1"
	else
		check "refused: $1" grep -qF -- "$T/bad.json: $2" "$T/err.txt"
	fi
}
campaign bad random '{"algorithm": "target"}' fastest
refused "an unknown objective.rank" \
    'objective.rank: expected "value" or "time_to_target", got "fastest"'
campaign bad random '{"algorithm": "target", "slack": -1}'
refused "a negative slack" 'search.stopper.slack: -1 is out of range'
campaign bad random '{"algorithm": "target", "leader": 0.5}'
refused "a leader between 0 and 1" \
    'search.stopper.leader: must be 0 (off) or >= 1, got 0.5'
campaign bad random '{"algorithm": "target", "leader_running": 0.5}'
refused "a leader_running between 0 and 1" \
    'search.stopper.leader_running: must be 0 (as leader) or >= 1, got 0.5'
campaign bad random '{"algorithm": "target", "power_law": "yes"}'
refused "a power_law that is not true or false" \
    'search.stopper.power_law: expected true or false, got a string'
sed 's/"fixed": {"epochs": 12}/"fixed": {}/; s/"batch_size": {"type"/"epochs": {"type": "choice", "values": [6, 12]}, "batch_size": {"type"/' \
    "$T/tgt.json" >"$T/bad.json"
refused "target with tuned epochs and no max_resource" \
    'search.stopper.max_resource: required for target (the epochs a trial ends at'
sed 's/"metric": "eval_error", "goal": "min", "target": 0.2/"metric": "train_loss", "goal": "min"/' \
    "$T/tgt.json" >"$T/bad.json"
refused "the target stopper without a target" \
    'search.stopper: target: needs the campaign'"'"'s target'

done_testing
