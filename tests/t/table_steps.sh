#!/bin/sh
# The guideline table of a campaign whose workload's fidelity is steps
# (OpenFold's): its epochs to target are steps, and the table says so in
# every form, where its EPOCHS column held 80 "epochs" without a word.
# A workload of fidelity epochs says epochs.  One whose steps count
# samples (OpenFold's epoch_num; "step_unit": "samples") says samples in
# its table, its messages and its HTML report, where they said steps.
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
for f in steps epochs samples; do
	fid=$f unit=
	[ "$f" = samples ] && fid=steps unit=', "step_unit": "samples"'
	cat >"$T/wl/$f.json" <<JSON
{"name": "$f", "program": "sh", "args": ["$T/bin/st.sh", "{value}"],
 "defaults": {"value": 1}, "fidelity": "$fid"$unit}
JSON
	cat >"$T/$f.json" <<JSON
{"name": "c$f", "workload": "$f",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "choice", "values": [1, 2]}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 2, "max_parallel": 1}}
JSON
	"$HPOCTL" -f "$CONF" run "$T/$f.json" >/dev/null 2>"$T/$f.log" ||
	    sed 's/^/# /' "$T/$f.log"
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
check "steps: the message says step" grep -q \
    "csteps: trial 0: eval_error 0.05 at step 80 meets the target" \
    "$T/steps.log"

check "samples: the message says sample" grep -q \
    "csamples: trial 0: eval_error 0.05 at sample 80 meets the target" \
    "$T/samples.log"
"$HPOCTL" report --ledger "$LEDGER" --table --format json csamples \
    >"$T/samples-table.json"
is "samples: JSON says the unit" \
    "$(jq -r .campaign.epoch_unit "$T/samples-table.json")" samples
is "samples: the row's epochs to target are the sample on target" \
    "$(jq -c '.rows[0].epochs | [.min, .max]' "$T/samples-table.json")" "[80,80]"
for fmt in text markdown; do
	"$HPOCTL" report --ledger "$LEDGER" --table --format $fmt csamples \
	    >"$T/samples.$fmt"
	check "samples: $fmt says the unit" grep -q "^epochs to target in \
samples: the workload's steps count samples (its step_unit)$" \
	    "$T/samples.$fmt"
done
"$HPOCTL" report --ledger "$LEDGER" --table --format csv csamples \
    >"$T/samples.csv"
is "samples: CSV has the unit in its epoch_unit column" "$(awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "epoch_unit") c = i }
	NR == 2 { print $c }' "$T/samples.csv")" samples
"$HPOCTL" report --ledger "$LEDGER" --format html csamples >"$T/samples.html"
check "samples: HTML plots samples to target" grep -q \
    "samples to target" "$T/samples.html"
# auto's choice of the target stopper says where trials end in samples.
jq '.defaults.steps = 120' "$T/wl/samples.json" >"$T/wl/s2.json"
jq '.name = "s2"' "$T/wl/s2.json" >"$T/wl/s2.tmp" && mv "$T/wl/s2.tmp" "$T/wl/s2.json"
jq '.workload = "s2" | .search.algorithm = "auto"' "$T/samples.json" \
    >"$T/s2.json"
"$HPOCTL" -f "$CONF" check "$T/s2.json" >"$T/s2.out" 2>&1 || true
check "samples: the stopper auto chose says trials end at sample 120" \
    grep -q "stopper: auto chose target: .* and trials end at sample 120," \
    "$T/s2.out"
done_testing
