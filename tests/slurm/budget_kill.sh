#!/bin/sh
# A node-hour budget after a crash on Slurm: hpod SIGKILLed before the
# batch with an attempt's start was committed (as tests/t/budget_kill.sh
# makes it: the ledger put back as the lost batch leaves it, the job's
# id, committed at its submission, kept, its start and running state
# not).  The restarted hpod takes the job back from Slurm, which says
# since when it runs: it must count against the budget from that start,
# not only at its end, so no trial starts past the budget; and the
# report's node-hours are the jobs' elapsed time x nodes by sacct's
# records (sacct --completion: the test cluster has no slurmdbd).
#
# Two trials at once of one node each, trial 0 for 20 s, the others for
# 3 s, under a budget of 8 node-seconds; hpod is restarted 8 s after the
# kill, when trial 0 alone has used more than the budget.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
if [ "$HPO_TRIAL" = 0 ]; then sleep 20; else sleep 3; fi
SH
nap_budget bk 8 '"backend": "slurm",
 "resources": {"nodes": 1, "cpus_per_task": 1, "time_limit": "00:05:00"}'
# One job per trial, no array: sacct's records are then by the job ids
# the ledger has.
printf 'slurm_array_min = 0\n' >>"$CONF"

start_daemon
check "the campaign is submitted" "$HPOCTL" submit "$T/bk.json"
check "both trials start" wait_sql \
    "select count(*) from attempts where started > 0" 2 60
kill_daemon
sqlite3 "$LEDGER" "update trials set state = 'pending' where id in (select trial_id from attempts where ended is null); update attempts set started = null, host = null, state = 'pending' where ended is null"
is "the ledger has not the start of trial 0, still running" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id where t.number = 0 and a.started is null and a.job_id > 0")" 1
sleep 8
start_daemon
check "the restarted hpod finishes the campaign" wait_campaign bk 120
is "the budget stopped it with its two trials: none started after the restart" \
    "$(sql "select count(*) from trials")" 2
check "for the node-hour budget" \
    grep -q "campaign finished: node-hour budget spent (2 trials)" "$T/hpod.log"
is "Slurm ran one job per attempt" \
    "$(slurm_jobs | wc -l)" "$(sql "select count(*) from attempts")"
node_s=0
for job in $(sql "select job_id from attempts order by job_id"); do
	set -- $(sacct_job "$job") 0 0 0
	is "job $job: its attempt has sacct's start and end" \
	    "$(sql "select cast(started as int) || ' ' || cast(ended as int) from attempts where job_id = '$job'")" "$1 $2"
	node_s=$((node_s + ($2 - $1) * $3))
done
"$HPOCTL" report --format json bk >"$T/report.json"
echo "# report $(jq -c .cost "$T/report.json"); sacct: $node_s node-s"
# Slurm's records are in whole seconds: 1 s per job either way.
check "the report's node-hours are sacct's jobs' (within 1 s each)" \
    jq -e "(.cost.node_hours * 3600 - $node_s) | fabs <= 2" "$T/report.json"
check "hpod stops cleanly" stop_daemon
done_testing
