#!/bin/sh
# hpoctl run: the foreground engine runs a real campaign of the proxy
# trainer with no daemon, and its report adds up.
. "$(dirname "$0")/lib.subr"

write_campaign fg 4 2 3
rc=0
"$HPOCTL" -f "$CONF" run --format json "$T/fg.json" >"$T/report.json" \
    2>"$T/progress.txt" || rc=$?
is "hpoctl run exits 0" "$rc" 0
is "report: trial count equals max_trials" \
    "$(jq .trials.total "$T/report.json")" 4
is "report: campaign finished" "$(jq -r .campaign.state "$T/report.json")" \
    finished
check "report: CPU-hours > 0" jq -e '.cost.cpu_hours > 0' "$T/report.json"
check "report: node-hours > 0" jq -e '.cost.node_hours > 0' "$T/report.json"
is "report: GPU-hours are 0 without GPUs" \
    "$(jq .cost.gpu_hours "$T/report.json")" 0
is "report: one attempt per trial" "$(jq .cost.attempts "$T/report.json")" 4
check "report: a best trial with parameters" \
    jq -e '.best.params.lr > 0 and (.best.params.batch_size == 32 or .best.params.batch_size == 64)' \
    "$T/report.json"
check "progress went to stderr" grep -q "campaign finished" "$T/progress.txt"

is "ledger: 4 trials" "$(sql 'select count(*) from trials')" 4
is "ledger: every attempt ended" \
    "$(sql 'select count(*) from attempts where ended is null')" 0
missing=0
for d in $(sql 'select dir from attempts'); do
	[ -s "$d/result.json" ] && [ -s "$d/params.json" ] || missing=$((missing + 1))
	jq -e '.state == "exited"' "$d/result.json" >/dev/null || missing=$((missing + 1))
done
is "every attempt has params.json and a final result.json" "$missing" 0
check "ledger: eval_error points recorded for every trial" test \
    "$(sql "select count(distinct t.id) from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id where m.key = 'eval_error'")" -eq 4
# The ledger's best matches the metric points it was computed from.
best_pts=$(sql "select printf('%.6f', min(value)) from metrics where key = 'eval_error'")
best_rep=$(jq -r '.best.value * 1000000 | round / 1000000 | tostring' "$T/report.json")
check "best value equals the smallest recorded eval_error" \
    awk -v a="$best_pts" -v b="$best_rep" 'BEGIN { exit !(a - b < 1e-6 && b - a < 1e-6) }'

# Same results when read back with the read-only commands.
"$HPOCTL" report --ledger "$LEDGER" --format json fg >"$T/again.json"
is "report --ledger reproduces the run's report" \
    "$(jq -c 'del(.campaign.wall_s)' "$T/again.json")" \
    "$(jq -c 'del(.campaign.wall_s)' "$T/report.json")"
"$HPOCTL" trials --ledger "$LEDGER" --format csv fg >"$T/trials.csv"
is "trials --format csv: header + 4 rows" "$(wc -l <"$T/trials.csv")" 5
check "trials csv has parameter columns" \
    grep -q '^trial,state,role,attempts,seed,best,best_step,reached,job_id,host,dir,pending_reason,lr,batch_size$' "$T/trials.csv"
"$HPOCTL" report --ledger "$LEDGER" --format csv fg >"$T/report.csv"
is "report --format csv: header + 1 row" "$(wc -l <"$T/report.csv")" 2
"$HPOCTL" status --ledger "$LEDGER" >"$T/status.txt"
check "status lists the campaign" grep -q ' fg  ' "$T/status.txt"
rc=0
"$HPOCTL" report --ledger "$LEDGER" nosuch 2>"$T/err.txt" || rc=$?
is "report of an unknown campaign fails" "$rc" 1
check "and says so" grep -q "no campaign 'nosuch'" "$T/err.txt"
done_testing
