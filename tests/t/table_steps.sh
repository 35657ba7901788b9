#!/bin/sh
# The guideline table of a campaign whose workload's fidelity is steps
# (OpenFold's): its epochs to target are steps, and the table says so in
# every form, where its EPOCHS column held 80 "epochs" without a word.
# A workload of fidelity epochs says epochs.
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
# Evaluations every 40 steps; value 1 meets the target at step 80.
cat >"$T/bin/st.sh" <<'SH'
ml() {
	echo ":::MLLOG {\"key\": \"eval_error\", \"value\": $1, \"metadata\": {\"epoch_num\": $2}}"
}
case $1 in
1) ml 0.5 40; ml 0.05 80; ml 0.04 120 ;;
*) ml 0.6 40; ml 0.5 80 ;;
esac
SH
for f in steps epochs; do
	cat >"$T/wl/$f.json" <<JSON
{"name": "$f", "program": "sh", "args": ["$T/bin/st.sh", "{value}"],
 "defaults": {"value": 1}, "fidelity": "$f"}
JSON
	cat >"$T/$f.json" <<JSON
{"name": "c$f", "workload": "$f",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "choice", "values": [1, 2]}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 2, "max_parallel": 1}}
JSON
	"$HPOCTL" -f "$CONF" run -q "$T/$f.json" >/dev/null 2>"$T/run.log" ||
	    sed 's/^/# /' "$T/run.log"
done

"$HPOCTL" report --ledger "$LEDGER" --table --format json csteps \
    >"$T/steps.json"
is "steps: the row's epochs to target are the step on target" \
    "$(jq -c '.rows[0].epochs | [.min, .max]' "$T/steps.json")" "[80,80]"
is "steps: JSON says the unit" \
    "$(jq -r .campaign.epoch_unit "$T/steps.json")" steps
"$HPOCTL" report --ledger "$LEDGER" --table csteps >"$T/steps.txt"
check "steps: the text says the unit" grep -q \
    "^epochs to target in steps: the workload's fidelity is steps$" \
    "$T/steps.txt"
"$HPOCTL" report --ledger "$LEDGER" --table --format markdown csteps \
    >"$T/steps.md"
check "steps: and so does Markdown" grep -q \
    "^epochs to target in steps: the workload's fidelity is steps$" \
    "$T/steps.md"

"$HPOCTL" report --ledger "$LEDGER" --table --format json cepochs \
    >"$T/epochs.json"
is "epochs: JSON says epochs" \
    "$(jq -r .campaign.epoch_unit "$T/epochs.json")" epochs
"$HPOCTL" report --ledger "$LEDGER" --table cepochs >"$T/epochs.txt"
check "epochs: no line about the unit" sh -c \
    "! grep -q 'epochs to target in' '$T/epochs.txt'"
done_testing
