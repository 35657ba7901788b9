#!/bin/sh
# The guideline table (hpoctl report --table) and the time-to-solution
# report on real campaigns of the proxy trainer: a batch-size scaling
# campaign and an ordinary one with the batch size in its space.  The
# table's figures must agree with the ledger (trials, successes, epochs of
# the confirmation runs, cost), in every format, from a ledger file and
# through the daemon alike.
. "$(dirname "$0")/lib.subr"

cat >"$T/scale.json" <<JSON
{
  "name": "scale",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": 0.2},
  "space": {
    "lr": {"type": "float", "min": 0.01, "max": 0.1, "scale": "log"},
    "warmup_epochs": {"type": "int", "min": 0, "max": 1}
  },
  "fixed": {"epochs": 4, "train_samples": 256, "eval_samples": 128},
  "batch_sizes": [16, 32],
  "scaling": {"lr_rule": "sqrt", "trials_per_batch": 2, "seeds": 3,
              "min_successes": 2, "local_batch": 16},
  "search": {"algorithm": "random", "seed": 3},
  "budget": {"max_trials": 10, "max_parallel": 2},
  "resources": {"cpus_per_task": 1, "tasks_per_node": 2,
                "time_limit": "00:05:00"},
  "hardware": "the test machine's CPUs"
}
JSON
"$HPOCTL" -f "$CONF" run -q "$T/scale.json" >/dev/null 2>"$T/scale.err" ||
	{ sed 's/^/# /' "$T/scale.err"; }
is "scaling campaign finished" \
    "$(sql "select state from campaigns where name = 'scale'")" finished

rd() { "$HPOCTL" "$@"; }
rd report --ledger "$LEDGER" --table --format json scale >"$T/table.json"
is "table: one row per batch size" "$(jq '.rows | length' "$T/table.json")" 2
is "table: rows by batch size" "$(jq -c '[.rows[].batch_size]' "$T/table.json")" "[16,32]"
is "table: ranks x local batch" \
    "$(jq -c '[.rows[] | [.ranks, .local_batch]]' "$T/table.json")" "[[1,16],[2,16]]"
is "table: lr rule stated" "$(jq -r '.lr_rule + " " + .lr_param' "$T/table.json")" "sqrt lr"
for b in 16 32; do
	row=".rows[] | select(.batch_size == $b)"
	is "batch $b: tuning trials as in the ledger" \
	    "$(jq "$row | .trials.tuning" "$T/table.json")" \
	    "$(sql "select count(*) from trials where batch_size = $b and role <> 'confirm' and campaign_id = (select id from campaigns where name = 'scale')")"
	is "batch $b: confirmation runs as in the ledger" \
	    "$(jq "$row | .trials.confirm" "$T/table.json")" \
	    "$(sql "select count(*) from trials where batch_size = $b and role = 'confirm' and campaign_id = (select id from campaigns where name = 'scale')")"
	is "batch $b: successes are the confirmation runs on target" \
	    "$(jq "$row | .successes" "$T/table.json")" \
	    "$(sql "select count(*) from trials where batch_size = $b and role = 'confirm' and reached = 1 and campaign_id = (select id from campaigns where name = 'scale')")"
	# Epochs to target: the first epoch whose eval_error met the target.
	is "batch $b: epochs min and max from the curves" \
	    "$(jq -c "$row | [.epochs.min, .epochs.max]" "$T/table.json")" \
	    "$(sql "select coalesce(json_array(min(e), max(e)), '[null,null]') from (select min(m.step) e from metrics m join attempts a on a.id = m.attempt_id join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'scale' and t.batch_size = $b and t.role = 'confirm' and m.key = 'eval_error' and m.value <= 0.2 group by t.id)" | sed 's/\.0\([],]\)/\1/g')"
	is "batch $b: confirmed as min_successes says" \
	    "$(jq "$row | .confirmed" "$T/table.json")" \
	    "$(jq "$row | .successes >= 2" "$T/table.json")"
done
is "rows' cost sums to the campaign's" \
    "$(jq '[.rows[].cost.total.cpu_hours] | add * 3600 | round' "$T/table.json")" \
    "$(rd report --ledger "$LEDGER" --format json scale | jq '.cost.cpu_hours * 3600 | round')"
is "rows' trials sum to the total" \
    "$(jq '[.rows[] | .trials.tuning + .trials.confirm] | add' "$T/table.json")" \
    "$(jq '.total.trials' "$T/table.json")"

# Every format of the table.
rd report --ledger "$LEDGER" --table --format csv scale >"$T/table.csv"
is "csv: a header and one line per batch size" "$(wc -l <"$T/table.csv" | tr -d ' ')" 3
is "csv: header starts with the batch size" "$(head -c 25 "$T/table.csv")" "batch_size,ranks,local_ba"
rd report --ledger "$LEDGER" --table --format markdown scale >"$T/table.md"
is "markdown: header, rule and 2 rows" "$(grep -c '^|' "$T/table.md")" 4
rd report --ledger "$LEDGER" --table scale >"$T/table.txt"
check "text: a line for batch 32" grep -q '^    32  2x16' "$T/table.txt"
rd report --ledger "$LEDGER" --table --format rcp scale >"$T/rcp.json"
is "rcp: one entry per confirmed batch size" \
    "$(jq -c 'keys' "$T/rcp.json")" \
    "$(jq -c '[.rows[] | select(.confirmed) | "minicosmo_hpod_\(.batch_size)"] | sort' "$T/table.json")"
is "rcp: entries have the fixture's members, and the statistics" \
    "$(jq -c '[.[] | keys] | unique' "$T/rcp.json")" \
    "$(jq -c '[.[] | keys + ["RCP Mean", "RCP Stdev", "Min Epochs", "Max Speedup", "hpod"] | sort] | unique' "$TOP/tests/fixtures/rcp/rcps_cosmoflow.json")"
is "rcp: runs and Wilson interval of the table" \
    "$(jq -c '[.[] | [.hpod.runs, .hpod.success_rate_ci[0]]]' "$T/rcp.json")" \
    "$(jq -c '[.rows[] | select(.confirmed) | [.runs, .success_rate_ci_low]]' "$T/table.json")"
is "rcp: RCP Mean is the olympic mean of its epochs" \
    "$(jq -c '[.[] | .["RCP Mean"]]' "$T/rcp.json")" \
    "$(jq -c '[.[] | .["Epochs to converge"] | sort | if length > 2 then .[1:-1] else . end | add / length]' "$T/rcp.json")"
# Every confirmed row checked against itself (all points kept) passes:
# its mean is the reference mean, at least the Min Epochs below it.
rc=0
rd rcp-check --full "$T/rcp.json" "$T/rcp.json" >"$T/check.txt" || rc=$?
is "rcp-check: the export against itself passes" "$rc" 0
is "rcp-check: a line per entry" "$(grep -c ' yes ' "$T/check.txt")" \
    "$(jq 'length' "$T/rcp.json")"
is "rcp: epochs to converge of the converged runs" \
    "$(jq -c '[.[] | .["Epochs to converge"] | length]' "$T/rcp.json")" \
    "$(jq -c '[.rows[] | select(.confirmed) | .successes]' "$T/table.json")"

# The time-to-solution report.
rd report --ledger "$LEDGER" --format json scale >"$T/report.json"
is "report: attempts by outcome sum to the attempts" \
    "$(jq '[.cost.by_outcome[].attempts] | add' "$T/report.json")" \
    "$(jq '.cost.attempts' "$T/report.json")"
is "report: time to solution to a confirmed batch size" \
    "$(jq '.time_to_solution_batch_size' "$T/report.json")" \
    "$(jq '[.rows[] | select(.confirmed)] | if length > 0 then .[0].batch_size else null end' "$T/table.json")"
is "report: time to solution ends with its last confirmation run" \
    "$(jq '(.time_to_solution_s // -1) | . * 1000 | round' "$T/report.json")" \
    "$(b=$(jq '.time_to_solution_batch_size // 0' "$T/report.json"); sql "select coalesce(round((max(a.ended) - c.started) * 1000), -1000) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'scale' and t.role = 'confirm' and t.batch_size = $b" | sed 's/\.0$//')"
is "report: four checklist items" "$(jq '.checklist | length' "$T/report.json")" 4
is "report: hardware named" "$(jq '.checklist[2].ok' "$T/report.json")" true
is "report: lr rule" "$(jq -r '.lr_rule' "$T/report.json")" sqrt
rd report --ledger "$LEDGER" scale >"$T/report.txt"
check "text report: checklist" grep -q '^checklist:' "$T/report.txt"
is "csv report: header and row have as many fields" \
    "$(rd report --ledger "$LEDGER" --format csv scale | awk -F, '{print NF}' | sort -u | wc -l | tr -d ' ')" 1
rd report --ledger "$LEDGER" --format csv scale >"$T/report.csv"
is "csv report: no column named twice (retried_attempts was)" \
    "$(head -n 1 "$T/report.csv" | tr ',' '\n' | sort | uniq -d)" ""
# csvcol NAME: the row's field under the header NAME.
csvcol() {
	awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
	    NR == 2 { print $c[k] }' "$T/report.csv"
}
is "csv report: attempts and retried attempts as in JSON" \
    "$(csvcol attempts) $(csvcol retried_attempts)" \
    "$(jq -r '"\(.cost.attempts) \(.cost.retried_attempts)"' "$T/report.json")"

# An ordinary campaign with the batch size in its space.
cat >"$T/plain.json" <<JSON
{
  "name": "plain",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min", "target": 0.25},
  "space": {
    "lr": {"type": "float", "min": 0.03, "max": 0.1, "scale": "log"},
    "batch_size": {"type": "choice", "values": [16, 32]}
  },
  "fixed": {"epochs": 4, "train_samples": 256, "eval_samples": 128},
  "search": {"algorithm": "random", "seed": 7},
  "budget": {"max_trials": 4, "max_parallel": 2},
  "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"}
}
JSON
"$HPOCTL" -f "$CONF" run -q "$T/plain.json" >/dev/null 2>&1 || true
rd report --ledger "$LEDGER" --table --format json plain >"$T/plain.json.out"
is "ordinary: rows are the batch sizes tried" \
    "$(jq -c '[.rows[].batch_size]' "$T/plain.json.out")" \
    "$(sql "select json_group_array(b) from (select distinct batch_size b from trials where campaign_id = (select id from campaigns where name = 'plain') order by b)")"
is "ordinary: no lr rule, nothing confirmed" \
    "$(jq -c '[.lr_rule, ([.rows[].confirmed] | any)]' "$T/plain.json.out")" "[null,false]"
check "ordinary: some trial reached the target" \
    test "$(jq '[.rows[].successes] | add' "$T/plain.json.out")" -gt 0
is "ordinary: successes are the trials on target" \
    "$(jq '[.rows[].successes] | add' "$T/plain.json.out")" \
    "$(sql "select count(*) from trials where reached = 1 and campaign_id = (select id from campaigns where name = 'plain')")"
# candidates and candidate_trial are a scaling campaign's (JSON has them
# for it only): empty in the ordinary one's CSV, the JSON's in the other.
rd report --ledger "$LEDGER" --table --format csv plain >"$T/plain.csv"
is "ordinary csv: no candidates nor candidate trial" \
    "$(awk -F, 'NR > 1 { print $5 "|" $6 }' "$T/plain.csv" | sort -u)" "|"
is "scaling csv: candidates and candidate trial as in JSON" \
    "$(awk -F, 'NR > 1 { print $5 "," $6 }' "$T/table.csv")" \
    "$(jq -r '.rows[] | "\(.candidates),\(.candidate_trial // "")"' "$T/table.json")"

# Through the daemon: the same table as from the ledger file.
start_daemon
"$HPOCTL" report --table scale >"$T/daemon.txt"
is "daemon: same table as the ledger file" "$(cmp -s "$T/daemon.txt" "$T/table.txt" && echo same)" same
"$HPOCTL" report --table --format rcp scale >"$T/daemon.rcp"
is "daemon: same rcp export" "$(cmp -s "$T/daemon.rcp" "$T/rcp.json" && echo same)" same

# Formats only the table has, and --table only for report.
rc=0; "$HPOCTL" report --ledger "$LEDGER" --format markdown scale >/dev/null 2>"$T/err" || rc=$?
is "report --format markdown without --table fails: bad usage" "$rc" 64
check "and says why" grep -q 'guideline table' "$T/err"
rc=0; "$HPOCTL" trials --ledger "$LEDGER" --table scale >/dev/null 2>&1 || rc=$?
is "--table is for report only" "$rc" 64
stop_daemon
done_testing
