#!/bin/sh
# Warm start ("prior"): a TPE campaign started from an Optuna study that
# `hpoctl export --format optuna` wrote, or from another campaign of a
# ledger, reads the priors before its first suggestion: it differs from a
# cold start, is the same when run again and the same from either source.
# The priors are recorded in the ledger's priors table, are none of the
# campaign's trials and cost it nothing, and the reports say so.  Through
# the daemon, stopped and restarted mid-campaign, the same priors give the
# same first trial and stay recorded.  Another
# space, another direction or another search are refused, naming the file
# and the key; values outside the space are skipped with a warning.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# A replay table (virtual clock): 6 learning rates x 2 batch sizes.
replay_warm

# campaign NAME TRIALS PRIOR [SPACE] [ALGORITHM] [GOAL]: write $T/NAME.json.
campaign() {
	warm_spec "$1" table.json "$2" "$3" "${4:-$REPLAY_SPACE}" "${5:-tpe}" \
	    "${6:-min}"
}
run() { "$HPOCTL" -f "$CONF" run -q "$T/$1.json" >"$T/$1.out" 2>"$T/$1.err"; }
first() { sql "select params_json from trials where campaign_id = $(cid "$1") and number = 0"; }
params() { sql "select group_concat(params_json, ' ') from (select params_json from trials where campaign_id = $(cid "$1") order by number)"; }

campaign src 14 ""
check "the source campaign runs 14 TPE trials" run src
"$HPOCTL" export --format optuna --ledger "$LEDGER" -o "$T/study.db" src
NSRC=$(sql "select count(*) from trials where campaign_id = $(cid src) and state in ('completed', 'pruned', 'failed')")
is "its 14 trials finished" "$NSRC" 14

OPT="{\"optuna\": \"$T/study.db\", \"study\": \"src\"}"
campaign warm 3 "$OPT"
# The same study named relative to the spec's directory.
campaign warm2 3 '{"optuna": "study.db", "study": "src"}'
campaign cold 3 ""
check "a campaign warm-started from the exported study runs" run warm
sed 's/^/#   /' "$T/warm.err"
check "the same spec runs again (the study named relative to it)" run warm2
check "the cold start runs" run cold
W=$(cid warm)
is "the 14 priors are recorded with it" \
    "$(sql "select count(*) from priors where campaign_id = $W")" 14
# rows QUERY: the prior or trial rows of a query (number, lr, batch, value).
rows() { sql "select group_concat(r, ' ') from (select printf('%d:%.15g:%d:%.15g', n, json_extract(pj, '\$.lr'), json_extract(pj, '\$.batch_size'), v) as r from ($1) order by n)"; }
is "in the study's order and with its values" \
    "$(rows "select number as n, params_json as pj, value as v from priors where campaign_id = $W")" \
    "$(rows "select number as n, params_json as pj, best as v from trials where campaign_id = $(cid src)")"
check "its first suggestion comes from the priors: not the cold start's" \
    test "$(first warm)" != "$(first cold)"
is "and is deterministic: the same spec suggests the same trials" \
    "$(params warm2)" "$(params warm)"
is "the priors are none of its trials" \
    "$(sql "select count(*) from trials where campaign_id = $W")" 3
is "nor its attempts" "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $W")" 3

"$HPOCTL" report --ledger "$LEDGER" --format json warm >"$T/warm.json"
is "the report counts the priors" "$(jq .priors.count "$T/warm.json")" 14
is "and says they are not in the cost" "$(jq .priors.in_cost "$T/warm.json")" false
is "3 trials in the report" "$(jq .trials.total "$T/warm.json")" 3
is "its GPU-hours are its own 3 attempts' (2 GPUs x virtual time)" \
    "$(jq '.cost.gpu_hours * 3600 | round' "$T/warm.json")" \
    "$(sql "select cast(round(sum(2 * (a.ended - a.started))) as int) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $W")"
"$HPOCTL" report --ledger "$LEDGER" warm >"$T/warm.txt"
check "the text report lists the priors as excluded from cost" \
    grep -q "^priors: 14 from optuna:$T/study.db:src: prior knowledge, not in the trials, cost or time to solution" "$T/warm.txt"
"$HPOCTL" report --ledger "$LEDGER" --format html warm >"$T/warm.html"
check "so does the HTML report" \
    grep -q "<th>Priors</th><td><span data-key=\"priors.count\" data-value=\"14\">14</span> from optuna:$T/study.db:src: prior knowledge, not in the trials" "$T/warm.html"
check "and the guideline table" sh -c "$HPOCTL report --ledger $LEDGER --table warm | grep -q '^priors: 14 from optuna:$T/study.db:src: prior knowledge, not in the trials or the cost above'"
check "a cold campaign's report has no priors line" \
    sh -c "! $HPOCTL report --ledger $LEDGER cold | grep -q '^priors:'"

campaign fromledger 3 "{\"ledger\": \"$LEDGER\", \"campaign\": \"src\"}"
check "a campaign warm-started from the source campaign's ledger runs" run fromledger
is "from the same history, the same trials as from the study" \
    "$(params fromledger)" "$(params warm)"

# The daemon: the same priors and seed give the same first trial on the
# local backend (the real trainer), and a restart keeps the priors.
cat >"$T/dw.json" <<JSON
{
  "name": "dw",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {$REPLAY_SPACE
  },
  "fixed": {"epochs": 6, "warmup_epochs": 0, "train_samples": 256, "eval_samples": 128},
  "search": {"algorithm": "tpe", "seed": 11},
  "budget": {"max_trials": 2, "max_parallel": 1},
  "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"},
  "prior": $OPT
}
JSON
start_daemon
"$HPOCTL" submit "$T/dw.json" >/dev/null
for _ in $(seq 1 100); do
	[ "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.campaign_id = $(cid dw) and a.started is not null")" -ge 1 ] && break
	sleep 0.1
done
check "the daemon stops mid-campaign" stop_daemon
start_daemon
check "the resumed campaign finishes" wait_campaign dw 180
check "the daemon stops" stop_daemon
is "the daemon's first trial is the foreground's: same priors, same seed" \
    "$(first dw)" "$(first warm)"
is "the restart kept the 14 priors" \
    "$(sql "select count(*) from priors where campaign_id = $(cid dw)")" 14
is "and the campaign's own 2 trials" \
    "$(sql "select count(*) from trials where campaign_id = $(cid dw) and state = 'completed'")" 2
check "the resume was logged" grep -q "campaign 'dw' (id [0-9]*): resumed" "$T/hpod.log"

# Values outside the space: those trials are skipped, with a warning.
campaign narrow 1 "$OPT" '
    "lr": {"type": "float", "min": 0.01, "max": 0.3, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}'
check "a narrower space runs" run narrow
NIN=$(sql "select count(*) from trials where campaign_id = $(cid src) and json_extract(params_json, '$.lr') >= 0.01")
is "with the priors inside it only" \
    "$(sql "select count(*) from priors where campaign_id = $(cid narrow)")" "$NIN"
check "a warning names the file, the trial and the key" \
    grep -q "$T/study.db: study 'src': trial [0-9]*: skipped: parameter 'lr' is missing or outside the space" "$T/narrow.err"

# refused NAME MESSAGE: the campaign is refused and never recorded.
refused() {
	rc=0
	run "$1" || rc=$?
	check "$1: refused" test "$rc" -ne 0
	check "$1: $2" grep -qF "$2" "$T/$1.err"
	is "$1: not recorded" "$(sql "select count(*) from campaigns where name = '$1'")" 0
}
campaign wider 1 "$OPT" '
    "lr": {"type": "float", "min": 0.001, "max": 0.3, "scale": "log"},
    "warmup_epochs": {"type": "int", "min": 0, "max": 1},
    "batch_size": {"type": "choice", "values": [32, 64]}'
refused wider "$T/study.db: study 'src': trial 0: no parameter 'warmup_epochs' (space.warmup_epochs of campaign 'wider'; a prior needs the same space)"
campaign narrower 1 "$OPT" '
    "lr": {"type": "float", "min": 0.001, "max": 0.3, "scale": "log"}'
sed -i 's/"fixed": {"epochs": 3}/"fixed": {"epochs": 3, "batch_size": 32}/' "$T/narrower.json"
refused narrower "$T/study.db: study 'src': trial 0: parameter 'batch_size' is not in the space of campaign 'narrower' (a prior needs the same space)"
campaign maxgoal 1 "$OPT" "" tpe max
refused maxgoal "$T/study.db: study 'src': direction minimize, but campaign 'maxgoal' maximizes 'eval_error'"
campaign nostudy 1 "{\"optuna\": \"$T/study.db\", \"study\": \"nope\"}"
refused nostudy "$T/nostudy.json: prior.optuna: $T/study.db: no study named 'nope'"
campaign nofile 1 "{\"optuna\": \"$T/none.db\"}"
refused nofile "$T/none.db: unable to open database file"
campaign nocamp 1 "{\"ledger\": \"$LEDGER\", \"campaign\": \"nope\"}"
refused nocamp "$T/nocamp.json: prior.ledger: $LEDGER: no campaign 'nope'"
check "hpoctl check reads the prior: a campaign not there is refused" \
    sh -c "! '$HPOCTL' -f '$CONF' check '$T/nocamp.json' 2>'$T/check.err'"
check "naming the spec, its key and the prior's file" grep -qF \
    "$T/nocamp.json: prior.ledger: $LEDGER: no campaign 'nope'" \
    "$T/check.err"
check "hpoctl check accepts a prior that fits" \
    "$HPOCTL" -f "$CONF" check "$T/warm2.json"
campaign random 1 "$OPT" "" random
refused random "$T/random.json: prior: needs search.algorithm \"tpe\", \"mtpe\" or \"cmtpe\""
campaign both 1 "{\"optuna\": \"$T/study.db\", \"ledger\": \"$LEDGER\"}"
refused both "$T/both.json: prior: expected one of"

# Through the daemon, a refused prior names the spec's file and key too,
# and the daemon logs the campaign refused, not "(id 0) running".
jq --arg l "$LEDGER" '.name = "dnocamp" | .prior = {"ledger": $l, "campaign": "nope"}' \
    "$T/dw.json" >"$T/dnocamp.json"
start_daemon
rc=0
"$HPOCTL" submit "$T/dnocamp.json" >/dev/null 2>"$T/dnocamp.err" || rc=$?
is "hpoctl submit of a campaign whose prior is refused fails" "$rc" 1
check "naming the spec, its key and the prior's file" grep -qF \
    "$T/dnocamp.json: prior.ledger: $LEDGER: no campaign 'nope'" \
    "$T/dnocamp.err"
check "the daemon logs it refused" grep -qF \
    "submitted campaign 'dnocamp' refused: $T/dnocamp.json: prior.ledger:" \
    "$T/hpod.log"
check "and never as running" sh -c "! grep -q 'campaign dnocamp (id' '$T/hpod.log'"
check "the daemon stops" stop_daemon

done_testing
