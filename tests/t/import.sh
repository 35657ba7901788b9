#!/bin/sh
# hpoctl import: a campaign spec warm-started from an Optuna study (here
# one `hpoctl export --format optuna` wrote) or from another campaign of a
# ledger.  The priors are read at import with the loader the engine uses,
# so another space or search is refused then, naming the file and the key;
# the spec written runs, from either source with the same trials as a spec
# whose "prior" was written by hand, and its report counts the priors as
# prior knowledge, not as its trials or cost.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/replay.subr"

# A replay table (virtual clock): 6 learning rates x 2 batch sizes.
replay_warm

# campaign NAME TRIALS [PRIOR] [ALGORITHM] [EXTRA-PARAM]: write $T/NAME.json.
campaign() {
	warm_spec "$1" "$T/table.json" "$2" "${3:-}" "$REPLAY_SPACE${5:-}" \
	    "${4:-tpe}" min
}
run() { "$HPOCTL" -f "$CONF" run -q "$1" >/dev/null 2>"$T/run.err"; }
params() { sql "select group_concat(params_json, ' ') from (select params_json from trials where campaign_id = $(cid "$1") order by number)"; }

campaign src 14
check "the source campaign runs 14 TPE trials" run "$T/src.json"
"$HPOCTL" export --format optuna --ledger "$LEDGER" -o "$T/study.db" src

# Import the study into a cold spec; the output lies in another folder.
campaign warm 3
mkdir -p "$T/out"
rc=0
(cd "$T/out" && "$HPOCTL" import --from ../study.db --study src \
    -o warm.json "$T/warm.json") 2>"$T/import.err" || rc=$?
is "import from the study exits 0" "$rc" 0
check "and says what it read, and that it is not cost" grep -qF \
    "hpoctl: import: 14 priors from optuna:$T/study.db:src into campaign 'warm': prior knowledge, not its trials or cost" \
    "$T/import.err"
is "the spec names the study by its absolute path" \
    "$(jq -c .prior "$T/out/warm.json")" "{\"optuna\":\"$T/study.db\",\"study\":\"src\"}"
is "and keeps the rest of the spec" \
    "$(jq -c 'del(.prior)' "$T/out/warm.json")" "$(jq -c . "$T/warm.json")"
check "the imported spec runs" run "$T/out/warm.json"
W=$(cid warm)
is "its 14 priors are recorded" \
    "$(sql "select count(*) from priors where campaign_id = $W")" 14
is "and are none of its trials" \
    "$(sql "select count(*) from trials where campaign_id = $W")" 3
"$HPOCTL" report --ledger "$LEDGER" --format json warm >"$T/warm.rep"
is "the report counts them, not in the cost" \
    "$(jq -c '[.priors.count, .priors.in_cost, .trials.total, .cost.attempts]' "$T/warm.rep")" \
    '[14,false,3,3]'
"$HPOCTL" report --ledger "$LEDGER" --format html warm >"$T/warm.html"
check "and the page says so" grep -q \
    'from optuna:[^<]*study.db:src: prior knowledge, not in the trials, cost or time' \
    "$T/warm.html"

# The same priors by hand: the same trials.
campaign byhand 3 "{\"optuna\": \"$T/study.db\", \"study\": \"src\"}"
check "a spec with the prior written by hand runs" run "$T/byhand.json"
is "it suggests the same trials as the imported one" \
    "$(params byhand)" "$(params warm)"

# From the source campaign of a ledger.
campaign fromledger 3
rc=0
"$HPOCTL" import --from "$LEDGER" --campaign src "$T/fromledger.json" \
    >"$T/fromledger.out" 2>"$T/import.err" || rc=$?
is "import from a ledger's campaign exits 0, to the standard output" "$rc" 0
is "the spec names the ledger and the campaign" \
    "$(jq -c .prior "$T/fromledger.out")" "{\"ledger\":\"$LEDGER\",\"campaign\":\"src\"}"
check "it runs" run "$T/fromledger.out"
is "from the same history, the same trials as from the study" \
    "$(params fromledger)" "$(params warm)"

# Refusals, each naming the file and the key; nothing is written.
# refused NAME MESSAGE ARGS...: import exits 1 with MESSAGE, writes no -o.
refused() {
	name=$1 msg=$2
	shift 2
	rc=0
	"$HPOCTL" import "$@" 2>"$T/$name.err" >"$T/$name.out" || rc=$?
	is "$name: exit 1" "$rc" 1
	check "$name: $msg" grep -qF -- "$msg" "$T/$name.err" ||
	    sed 's/^/#   /' "$T/$name.err"
	is "$name: nothing written" "$(cat "$T/$name.out")" ""
}
campaign wider 3 "" tpe ',
    "warmup_epochs": {"type": "int", "min": 0, "max": 3}'
refused wider "$T/study.db: study '(the only one)': trial 0: no parameter 'warmup_epochs' (space.warmup_epochs of campaign 'wider'; a prior needs the same space)" \
    --from "$T/study.db" "$T/wider.json"
campaign random 3 "" random
refused random "$T/random.json: prior: needs search.algorithm \"tpe\", \"mtpe\" or \"cmtpe\"" \
    --from "$T/study.db" "$T/random.json"
refused nostudy "$T/study.db: no study named 'nope'" \
    --from "$T/study.db" --study nope "$T/warm.json"
refused nocamp "$LEDGER: no campaign 'nope'" \
    --from "$LEDGER" --campaign nope "$T/warm.json"
refused nofile "--from $T/none.db: No such file or directory" \
    --from "$T/none.db" "$T/warm.json"
refused nospec "$T/none.json: No such file or directory" \
    --from "$T/study.db" "$T/none.json"
echo '[1]' >"$T/array.json"
refused array "$T/array.json: not a JSON object" \
    --from "$T/study.db" "$T/array.json"
refused exists "$T/out/warm.json: File exists" \
    --from "$T/study.db" -o "$T/out/warm.json" "$T/warm.json"
rc=0
"$HPOCTL" import "$T/warm.json" 2>"$T/usage.err" || rc=$?
is "without --from: usage, exit 64" "$rc" 64
check "the usage names the options" grep -q \
    'usage: hpoctl import \[--study name | --campaign name\] --from file' \
    "$T/usage.err"
rc=0
"$HPOCTL" import --from "$T/study.db" --study a --campaign b "$T/warm.json" \
    2>/dev/null || rc=$?
is "--study and --campaign together: usage" "$rc" 64
done_testing
