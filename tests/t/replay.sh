#!/bin/sh
# The replay backend: campaigns answered from a table of learning curves
# on a virtual clock, through the real engine, search, stopper and ledger.
# A TPE + ASHA campaign prunes at the rungs, costs exactly the replayed
# epochs, and gives the same trials when run again; lookups take the
# nearest configuration of the table; bad tables and jobs are refused.
. "$(dirname "$0")/lib.subr"

# A synthetic table: 6 learning rates x 2 batch sizes x 2 seeds, 9
# epochs of 10 virtual seconds after 5 s of start-up; lr 0.3 diverges.
awk 'BEGIN {
	printf "{\"format\": \"hpod-replay-1\", \"workload\": \"minicosmo\",\n"
	printf " \"metric\": \"eval_error\", \"goal\": \"min\",\n"
	printf " \"params\": [{\"name\": \"lr\", \"scale\": \"log\"}, {\"name\": \"batch_size\", \"scale\": \"log\"}],\n"
	printf " \"fixed\": {\"epochs\": 9},\n \"runs\": ["
	split("0.001 0.003 0.01 0.03 0.1 0.3", lrs, " ")
	n = 0
	for (i = 1; i <= 6; i++) for (b = 32; b <= 64; b *= 2) for (s = 0; s < 2; s++) {
		lr = lrs[i]
		k = lr * 30 * 32 / b; if (k > 1) k = 1
		printf "%s\n  {\"x\": [%s, %d], \"seed\": %d, \"start_s\": 5, ", n++ ? "," : "", lr, b, s
		if (lr == 0.3) {
			printf "\"status\": 2, \"epoch_s\": [10, 10], \"values\": [0.5, 0.6]}"
			continue
		}
		l = log(lr) / log(10) + 1.5
		printf "\"status\": 0, \"epoch_s\": [10,10,10,10,10,10,10,10,10], \"values\": ["
		for (e = 1; e <= 9; e++)
			printf "%s%.6f", (e > 1 ? ", " : ""), 0.1 + 0.4 * exp(-e * k) + 0.05 * l * l + 0.002 * s
		printf "]}"
	}
	printf "\n]}\n"
}' >"$T/table.json"

# replay_campaign NAME SEARCH STOPPER TRIALS: a campaign over the table.
replay_campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
  "space": {
    "lr": {"type": "float", "min": 0.001, "max": 0.3, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}
  },
  "fixed": {"epochs": 9},
  "search": {"algorithm": "$2", "seed": 5$3},
  "budget": {"max_trials": $4, "max_parallel": 4},
  "resources": {"gpus_per_node": 2, "time_limit": "01:00:00"},
  "backend": "replay",
  "replay": {"table": "table.json"},
  "retry": {"limit": 0}
}
JSON
}

ASHA=', "stopper": {"algorithm": "asha", "min_resource": 1, "eta": 3, "max_resource": 9}'
replay_campaign asha tpe "$ASHA" 60
check "a replay campaign is accepted" "$HPOCTL" -f "$CONF" check "$T/asha.json"
rc=0
"$HPOCTL" -f "$CONF" run -q --format json "$T/asha.json" >"$T/asha.out" || rc=$?
is "60 trials of TPE + ASHA run in the foreground" "$rc" 0
cid() { sql "select id from campaigns where name = '$1' order by id desc limit 1"; }
A=$(cid asha)
is "60 trials" "$(sql "select count(*) from trials where campaign_id = $A")" 60
npruned=$(sql "select count(*) from trials where campaign_id = $A and state = 'pruned'")
check "ASHA pruned trials ($npruned)" test "$npruned" -gt 10
is "every pruned trial's attempt ended pruned" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $A and a.state = 'pruned'")" "$npruned"
is "pruned trials stopped at rung 1 or 3" \
    "$(sql "select count(*) from trials t where t.campaign_id = $A and t.state = 'pruned' and (select max(m.step) from metrics m join attempts a on a.id = m.attempt_id where a.trial_id = t.id) not in (1, 3)")" 0
is "each attempt costs 5 s + 10 s per replayed epoch (virtual clock)" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $A and abs((a.ended - a.started) - (5 + 10 * (select count(*) from metrics m where m.attempt_id = a.id and m.key = 'eval_error'))) > 0.001")" 0
is "the report counts the pruned trials" "$(jq .trials.pruned "$T/asha.out")" "$npruned"
is "the report's GPU-hours: 2 GPUs x the attempts' virtual time" \
    "$(jq '.cost.gpu_hours * 3600 | round' "$T/asha.out")" \
    "$(sql "select cast(round(sum(2 * (a.ended - a.started))) as int) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $A")"
is "pruned GPU-hours: 2 x the pruned attempts' time" \
    "$(jq '.cost.pruned_gpu_hours * 3600 | round' "$T/asha.out")" \
    "$(sql "select cast(round(sum(2 * (a.ended - a.started))) as int) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $A and a.state = 'pruned'")"
check "pruned cost > 0" jq -e '.cost.pruned_gpu_hours > 0' "$T/asha.out"
check "virtual wall time: at least the attempts' time over 4 slots" \
    jq -e '.campaign.wall_s > 60 and .campaign.wall_s >= .cost.elapsed_hours * 900 - 0.001' "$T/asha.out"

# The same spec again: the same trials, states and values.
trials() {
	sql "select group_concat(params_json || ' ' || state || ' ' || coalesce(best, ''), '; ') from (select * from trials where campaign_id = $1 order by number)"
}
"$HPOCTL" -f "$CONF" run -q "$T/asha.json" >/dev/null
is "run again: the same trials" "$(trials "$(cid asha)")" "$(trials "$A")"

# Epochs of 10.1 s: the replayed MLLOG lines carry times in whole
# milliseconds, yet two replays of one spec, started at different
# fractions of a second, give the same metric times (so the same time
# and cost to target) to the last digit: the virtual clock starts on a
# whole second.
sed 's/"epoch_s": \[10,10,10,10,10,10,10,10,10\]/"epoch_s": [10.1,10.1,10.1,10.1,10.1,10.1,10.1,10.1,10.1]/' \
    "$T/table.json" >"$T/frac.json"
sed 's/"name": "asha"/"name": "frac"/; s/table.json/frac.json/' "$T/asha.json" >"$T/frac1.json"
durations() {
	sql "select group_concat(printf('%.17g', m.time - a.started), ' ') from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id where t.campaign_id = $1 order by t.number, m.key, m.step"
}
"$HPOCTL" -f "$CONF" run -q "$T/frac1.json" >/dev/null
F1=$(cid frac)
sleep 0.4
"$HPOCTL" -f "$CONF" run -q "$T/frac1.json" >/dev/null
is "fractional epochs: the same metric times to the last digit when run again" \
    "$(durations "$(cid frac)")" "$(durations "$F1")"
is "the virtual clock starts on a whole second" \
    "$(sql "select count(*) from campaigns where name = 'frac' and started != cast(started as int)")" 0

# Nearest configuration: 0.0012 -> 0.001, 0.05 -> 0.03 and 0.25 -> 0.3
# (log scale).
cat >"$T/near.json" <<JSON
{
  "name": "near", "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {"lr": {"type": "choice", "values": [0.0012, 0.05, 0.25]},
            "batch_size": {"type": "choice", "values": [64]}},
  "fixed": {"epochs": 9, "seed": 1},
  "search": {"algorithm": "grid"},
  "budget": {"max_trials": 3},
  "backend": "replay", "replay": {"table": "$T/table.json"}
}
JSON
"$HPOCTL" -f "$CONF" run -q "$T/near.json" >/dev/null
N=$(cid near)
first() {
	sql "select printf('%.6f', m.value) from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id where t.campaign_id = $N and t.number = $1 and m.step = 1"
}
table_first() {
	jq -r --argjson lr "$1" '.runs[] | select(.x[0] == $lr and .x[1] == 64 and .seed == 1) | .values[0] | . * 1000000 | round / 1000000 | tostring' "$T/table.json" | xargs printf '%.6f'
}
is "lr 0.0012 replays lr 0.001 (seed 1)" "$(first 0)" "$(table_first 0.001)"
is "lr 0.05 replays lr 0.03 (seed 1)" "$(first 1)" "$(table_first 0.03)"
is "lr 0.25 replays the diverging lr 0.3: failed, exit 2, after 2 epochs" \
    "$(sql "select t.state || ' ' || a.exit_code || ' ' || (select max(step) from metrics m where m.attempt_id = a.id) from trials t join attempts a on a.trial_id = t.id where t.campaign_id = $N and t.number = 2")" \
    "failed 2 2.0"

# A job that lacks a parameter of the table, or differs in a fixed value.
sed 's/"fixed": {"epochs": 9}/"fixed": {"epochs": 12}/' "$T/asha.json" >"$T/epochs.json"
sed -i 's/"name": "asha"/"name": "epochs"/; s/"max_trials": 60/"max_trials": 1/' "$T/epochs.json"
"$HPOCTL" -f "$CONF" run "$T/epochs.json" >/dev/null 2>"$T/epochs.err" || true
check "a job with other epochs than the table's fails to submit" \
    grep -q "replay: epochs is 12 here but the table was made with 9" "$T/epochs.err"
sed 's/"name": "lr"/"name": "lrx"/' "$T/table.json" >"$T/table2.json"
sed 's/table.json/table2.json/; s/"name": "asha"/"name": "nolr"/; s/"max_trials": 60/"max_trials": 1/' \
    "$T/asha.json" >"$T/nolr.json"
"$HPOCTL" -f "$CONF" run "$T/nolr.json" >/dev/null 2>"$T/nolr.err" || true
check "a job without a table parameter fails to submit" \
    grep -q "replay: the job has no value of 'lrx'" "$T/nolr.err"
echo '{"metric": "eval_error", "params": [], "runs": []}' >"$T/bad.json"
sed 's/table.json/bad.json/; s/"name": "asha"/"name": "badtable"/' "$T/asha.json" >"$T/badtable.json"
"$HPOCTL" -f "$CONF" run "$T/badtable.json" >/dev/null 2>"$T/badtable.err" || true
check "a malformed table is refused, naming the file and key" \
    grep -q "bad.json: params: expected a non-empty array" "$T/badtable.err"
sed 's/table.json/none.json/' "$T/asha.json" >"$T/none.json.spec"
"$HPOCTL" -f "$CONF" check "$T/none.json.spec" >/dev/null 2>"$T/none.err" || true
check "a missing table is refused by check" \
    grep -q "replay.table: $T/none.json: No such file" "$T/none.err"
start_daemon
"$HPOCTL" submit "$T/asha.json" >/dev/null 2>"$T/submit.err" || true
check "the daemon refuses replay campaigns" \
    grep -q "'replay' runs only in the foreground" "$T/submit.err"
check "the daemon stops" stop_daemon
done_testing
