#!/bin/sh
# A pilot allocation that runs out of time mid-trial on a real Slurm
# cluster: a pilot of one minute (Slurm's smallest limit; the test
# cluster's OverTimeLimit=0 and KillWait=2 end it one to two of
# slurmctld's time-limit checks later) runs a trial that would run five
# (and states no time limit: one that does is given only to a pilot with
# that much time left, hpod-campaign(5));
# Slurm ends the pilot TIMEOUT, the trial ends `timeout` with a reason
# naming its pilot, is retried (retry.on_timeout) in a replacement pilot,
# and the campaign finishes with the cost of both pilots in.
. "$(dirname "$0")/lib.subr"
. "$TOP/tests/t/pilot.subr"

cat >"$T/pt.json" <<JSON
{"name": "pt", "workload": "retrysleep",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"seconds": {"type": "choice", "values": [300]}},
 "fixed": {"retry_seconds": 2},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "retry": {"on_timeout": true},
 "backend": "slurm",
 "resources": {"nodes": 1, "cpus_per_task": 1},
 "dispatch": "pilot",
 "pilot": {"count": 1, "cpus": 1, "time_limit": "00:01:00"}}
JSON
rc=0
timeout 400 "$HPOCTL" -f "$CONF" run --format json "$T/pt.json" \
    >"$T/pt.out" 2>"$T/pt.err" || rc=$?
is "hpoctl run ends" "$rc" 0
is "the campaign finished" "$(jq -r .campaign.state "$T/pt.out")" finished
is "its trial completed" "$(jq .trials.completed "$T/pt.out")" 1
first=$(sql "select p.job_id from pilots p order by p.id limit 1")
is "Slurm ended the first pilot TIMEOUT" \
    "$(squeue -h -t all -j "$first" -o %T)" TIMEOUT
is "the ledger has that pilot ended timeout" \
    "$(sql "select state from pilots where job_id = '$first'")" timeout
is "the first attempt ran in it and ended timeout" \
    "$(sql "select state from attempts where number = 0 and job_id like '$first.p%'")" timeout
is "with a reason naming its pilot" \
    "$(sql "select reason like 'its pilot $first ended (timeout)%' from attempts where number = 0")" 1
is "two attempts, the retry completed" \
    "$(sql "select group_concat(number || ' ' || state, ', ') from (select number, state from attempts order by number)")" \
    "0 timeout, 1 completed"
is "the retry ran in a replacement pilot" \
    "$(sql "select count(*) from attempts a join pilots p on a.job_id like p.job_id || '.p%' where a.number = 1 and p.job_id <> '$first'")" 1
is "two pilots, both ended" \
    "$(sql "select count(*) from pilots where started > 0 and ended >= started")" 2
is "Slurm ran only the pilot jobs" \
    "$(slurm_jobs | wc -l)" 2
cost_adds_up "$T/pt.out" ""
cost_of_pilots "$T/pt.out" "" cpu
check "the timed-out attempt is counted, cost and all, as retried" jq -e \
    '.cost.retried_attempts == 1 and .cost.by_outcome.retried.cpu_hours > 0' "$T/pt.out"
done_testing
