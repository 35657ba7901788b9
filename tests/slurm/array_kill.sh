#!/bin/sh
# hpod SIGKILLed while a campaign's first wave runs as one Slurm job
# array, and restarted: every array task is taken back and billed as
# Slurm bills it.  Trials 0 and 1 sleep 3 s and end while hpod is dead,
# trials 2 and 3 sleep 12 s and still run when it is back; each
# attempt's start, end and nodes must be those sacct has for its task
# (sacct --completion: the test cluster has no slurmdbd), and the
# report's node-hours their sum.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
if [ "$HPO_TRIAL" -ge 2 ]; then sleep 12; else sleep 3; fi
SH
cat >"$T/ak.json" <<JSON
{"name": "ak", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 4, "max_parallel": 4},
 "backend": "slurm",
 "resources": {"nodes": 1, "cpus_per_task": 1, "time_limit": "00:05:00"}}
JSON

start_daemon
check "the campaign is submitted" "$HPOCTL" submit "$T/ak.json"
check "its four trials start" wait_sql \
    "select count(*) from attempts where started > 0" 4 60
is "they went as one job array" \
    "$(sql "select count(distinct substr(job_id, 1, instr(job_id, '_') - 1)) || ' ' || count(*) from attempts where job_id like '%\\_%' escape '\\'")" \
    "1 4"
kill_daemon
# Trials 0 and 1 end while hpod is dead.
sleep 5
start_daemon
check "the restarted hpod finishes the campaign" wait_campaign ak 120
check "the daemon stops" stop_daemon
is "four attempts, all completed" \
    "$(sql "select count(*) from attempts where state = 'completed'")" 4
is "Slurm ran one job per attempt" "$(slurm_jobs | wc -l)" 4

# Slurm's record of each task: "START END NODES" by its own job id.
squeue -h -t all -o '%i %A' >"$T/ids"
sed 's/^/# squeue: /' "$T/ids"
want=0 bad=
for job in $(sql "select job_id from attempts order by id"); do
	raw=$(awk -v j="$job" '$1 == j { print $2 }' "$T/ids")
	set -- $(sacct_job "$raw" 2>/dev/null) 0 0 0
	got=$(sql "select printf('%.3f %.3f %d', started, ended, nodes) from attempts where job_id = '$job'")
	echo "# $job (job $raw): ledger $got; sacct $1 $2 $3"
	[ "$got" = "$1.000 $2.000 $3" ] || bad="$bad $job($got; sacct $1 $2 $3)"
	want=$((want + ($2 - $1) * $3))
done
is "each task's start, end and nodes are sacct's" "$bad" ""
check "Slurm billed every task a whole second or more" test "$want" -ge 4
"$HPOCTL" report --ledger "$LEDGER" --format json ak >"$T/report.json"
is "report: node-seconds are sacct's" \
    "$(jq -r '.cost.node_hours * 3600 | round' "$T/report.json")" "$want"
done_testing
