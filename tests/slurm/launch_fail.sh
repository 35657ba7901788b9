#!/bin/sh
# A job whose launch fails before hpo-trial starts the workload is the
# batch system's failure, never the workload's: the cluster's TaskProlog
# (fail_launch) exits 2 for the first job that starts after
# $T/launch/failed is gone, and Slurm ends that job FAILED, exit 2, as it
# does when slurmstepd's copy of the batch script is gone (seen once in
# outage.sh, right after slurmctld came back).  Its attempt is lost, says
# why, is billed and retried under retry.limit; with retry.limit 0 the
# trial fails and `hpoctl trials` says why.  A workload that exits 2
# itself fails, and is not retried; so does a job whose job file
# hpo-trial refuses (64).
HPOD_SLURM_TASKPROLOG=$(cd "$(dirname "$0")" && pwd)/fail_launch
export HPOD_SLURM_TASKPROLOG
. "$(dirname "$0")/lib.subr"

mkdir "$T/launch"
export HPOD_FAIL_LAUNCH="$T/launch"
nap_workload
printf 'exit 2\n' >"$T/bin/nap.sh"
start_daemon
why="slurm FAILED, exit 2; it ended before hpo-trial started the workload (no hpo-trial.json): a launch failure"

# An array of four: the first task to start fails to launch.
sleep_campaign launch 1 4 4
check "submit a campaign" "$HPOCTL" submit "$T/launch.json"
check "it finishes" wait_campaign launch 60
check "one job failed to launch" test -s "$T/launch/failed/job"
is "Slurm ended it FAILED, exit 2" "$(scontrol -o show job \
    "$(cat "$T/launch/failed/job")" | tr ' ' '\n' |
    grep -E '^(JobState|ExitCode)=' | tr '\n' ' ')" \
    "JobState=FAILED ExitCode=2:0 "
is "its attempt is lost, with Slurm's exit status and why" \
    "$(sql "select a.number || ' ' || a.state || ' ' || a.exit_code || ' ' || a.reason from $(of launch) and a.state != 'completed'")" \
    "0 lost 2 $why"
is "all four trials completed, one of them on a second attempt" \
    "$(sql "select group_concat(t.state || ' ' || n, ', ') from (select t.state, count(a.id) as n from $(of launch) group by t.id order by n) t")" \
    "completed 1, completed 1, completed 1, completed 2"
check "the lost attempt is billed: Slurm started it on 2 GPUs" test \
    "$(sql "select count(*) from $(of launch) and a.state = 'lost' and a.started > 0 and a.ended >= a.started and a.gpus = 2")" = 1
"$HPOCTL" report --format json launch >"$T/launch.out"
is "report: five attempts, one retried" \
    "$(jq -r '"\(.cost.attempts) \(.cost.retried_attempts)"' "$T/launch.out")" "5 1"
check "the log says it is retried, and why" grep -q \
    "campaign launch: trial [0-3] attempt 0: lost: $why; retrying" \
    "$T/hpod.log"

# retry.limit 0: the trial fails, and says why.
rm -r "$T/launch/failed"
sleep_campaign spent 1 1 1
jq '. + {"retry": {"limit": 0}}' "$T/spent.json" >"$T/spent.tmp"
mv "$T/spent.tmp" "$T/spent.json"
check "submit a campaign with retry.limit 0" "$HPOCTL" submit "$T/spent.json"
check "it finishes" wait_campaign spent 60
check "its job failed to launch" test -s "$T/launch/failed/job"
is "its trial failed on its one attempt, lost" \
    "$(sql "select t.state || ' ' || a.state || ' ' || count(*) from $(of spent)")" \
    "failed lost 1"
is "hpoctl trials says why" \
    "$("$HPOCTL" trials --format json spent | jq -r '.[0].reason')" "$why"
check "the log says why it was not retried" grep -q \
    "campaign spent: trial 0: lost: $why, no eval_error reported; not retried: retry.limit 0 spent" \
    "$T/hpod.log"

# The workload's own exit 2 (the launch fails no more: failed/ is there).
cat >"$T/own.json" <<JSON
{"name": "own", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "choice", "values": [1]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "backend": "slurm",
 "resources": {"nodes": 1, "gpus_per_node": 2, "cpus_per_task": 1,
     "time_limit": "00:10:00"}}
JSON
check "submit a campaign whose workload exits 2" "$HPOCTL" submit \
    "$T/own.json"
check "it finishes" wait_campaign own 60
is "its attempt failed, the workload's doing: not retried" \
    "$(sql "select t.state || ' ' || a.state || ' ' || count(*) || ' ' || a.reason from $(of own)")" \
    "failed failed 1 slurm FAILED, exit 2"

# hpo-trial's own refusal of its job file (exit 64, no record) is not a
# launch failure: hpod wrote that file, a retry is refused the same.
rm -r "$T/launch/failed"
touch "$T/launch/jobfile"
sleep_campaign refused 1 1 1
check "submit a campaign whose job file hpo-trial refuses" "$HPOCTL" \
    submit "$T/refused.json"
check "it finishes" wait_campaign refused 60
check "its job.json was emptied" test -s "$T/launch/failed/job"
refused="slurm FAILED, exit 64; hpo-trial refused its job file before it started the workload (no hpo-trial.json; Slurm's output file for the job says why)"
is "its attempt failed, with why: not retried" \
    "$(sql "select t.state || ' ' || a.state || ' ' || count(*) || ' ' || a.exit_code || ' ' || a.reason from $(of refused)")" \
    "failed failed 1 64 $refused"
check "Slurm's output file says why" grep -q "hpo-trial: .*job.json" \
    "$(sql "select a.dir from $(of refused)")/slurm.out"
check "the daemon stops" stop_daemon
done_testing
