#!/bin/sh
# A campaign whose workload has no batch size: its guideline table shows
# no batch size ("-", an empty CSV field, JSON null) in every format,
# never "batch size 0", which was printed for it before.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
echo ":::MLLOG {\"key\": \"eval_error\", \"value\": 0.0$1, \"metadata\": {\"epoch_num\": $1}}"
SH
cat >"$T/np.json" <<JSON
{"name": "np", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "choice", "values": [1, 2, 3]}},
 "search": {"algorithm": "grid"},
 "budget": {"max_trials": 3, "max_parallel": 1}}
JSON
"$HPOCTL" -f "$CONF" run "$T/np.json" >/dev/null 2>&1 || true
report() {
	"$HPOCTL" report --ledger "$LEDGER" "$@" np
}
report --table >"$T/t.txt"
is "text: the BATCH column says -" \
    "$(awk '/^ *BATCH/ { getline; print $1 }' "$T/t.txt")" "-"
report --table --format markdown >"$T/t.md"
check "markdown: the batch cell says -" grep -q '^| - | - | - | 3/3 |' "$T/t.md"
report --table --format csv >"$T/t.csv"
is "csv: the batch_size field is empty" \
    "$(sed -n 2p "$T/t.csv" | cut -d, -f1)" ""
report --table --format json >"$T/t.json"
check "json: batch_size is null" grep -q '"batch_size":	null' "$T/t.json"
report --table --format rcp >"$T/t.rcp"
check "rcp: BS is null" grep -q '"BS":	null' "$T/t.rcp"
check "  and the key has no batch size" grep -q '"nap_hpod":' "$T/t.rcp"
check "  nor the hyperparameters" grep -q '"global_batch_size":	null' "$T/t.rcp"
report --format json >"$T/r.json"
check "json report: the winner has no batch size" sh -c \
    "tr -d '\n\t' <'$T/r.json' | grep -q '\"winner\":{\"trial\":0,\"attempt\":0,\"batch_size\":null'"
report --format html >"$T/r.html"
check "html: no batch size 0" sh -c \
    "! grep -q 'data-key=\"[a-z.0-9]*batch_size\" data-value=\"0\"' '$T/r.html'"
done_testing
