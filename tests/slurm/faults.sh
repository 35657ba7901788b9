#!/bin/sh
# Faults on a real Slurm cluster: a job cancelled from outside (scancel) is
# recorded as cancelled; a node set DOWN under a running job ends it
# NODE_FAIL and the trial is retried and completes, both attempts costed;
# a trial over its time limit ends TIMEOUT.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign overtime 600 1 1 00:01:00
sleep_campaign victim 600 1 1
sleep_campaign crash 12 1 1
sleep_campaign halt 600 2 2
for c in overtime victim crash halt; do
	check "submit $c" "$HPOCTL" submit "$T/$c.json"
done
running="select count(*) from attempts where started is not null and ended is null"
check "five jobs run" wait_sql "$running" 5 30

# hpoctl cancel: the daemon cancels its jobs through libslurm.
check "hpoctl cancel halt" "$HPOCTL" cancel halt
check "halt ends" wait_campaign halt 30
is "halt: campaign cancelled" "$(sql "select state from campaigns where name = 'halt'")" cancelled
is "halt: both attempts cancelled" "$(sql "select group_concat(a.state) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'halt'")" cancelled,cancelled
for n in 0 1; do
	check "halt: Slurm cancelled trial $n's job" sh -c \
	    "squeue -h -t all -j '$(job_of halt $n 0)' -o %T | grep -q CANCELLED"
done

# scancel from outside.
jid=$(job_of victim 0 0)
check "scancel $jid" scancel "$jid"
check "victim ends" wait_campaign victim 30
is "victim: attempt cancelled" "$(sql "select a.state from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'victim'")" cancelled
is "victim: trial cancelled, not retried" "$(sql "select t.state || ' ' || count(a.id) from trials t join campaigns c on c.id = t.campaign_id join attempts a on a.trial_id = t.id where c.name = 'victim'")" "cancelled 1"

# A node goes down under a running job.
jid=$(job_of crash 0 0)
node=$(squeue -h -j "$jid" -o %N)
check "crash runs on a node ($node)" test -n "$node"
sleep 2
check "set $node DOWN" scontrol update nodename="$node" state=down reason=hpod-test
check "crash finishes" wait_campaign crash 90
is "crash: attempt 0 ended node_fail" "$(sql "select a.state from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'crash' and a.number = 0")" node_fail
is "crash: attempt 1 completed" "$(sql "select a.state from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'crash' and a.number = 1")" completed
is "crash: the trial completed" "$(sql "select t.state from trials t join campaigns c on c.id = t.campaign_id where c.name = 'crash'")" completed
check "crash: the retry is a new Slurm job" test "$(job_of crash 0 1)" != "$(job_of crash 0 0)"
check "crash: the failed attempt ran and is costed" test "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'crash' and a.number = 0 and a.ended > a.started and a.gpus = 2")" -eq 1
"$HPOCTL" report --format json crash >"$T/crash.json"
want=$(sql "select printf('%.9f', sum((a.ended - a.started) * a.gpus) / 3600.0) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'crash'")
check "crash: GPU-hours cover both attempts" awk -v a="$want" \
    -v b="$(jq -r .cost.gpu_hours "$T/crash.json")" \
    'BEGIN { exit !(a > 0 && a - b < 1e-9 && b - a < 1e-9) }'
is "crash: report counts one retried attempt" \
    "$(jq -r '"\(.cost.attempts) \(.cost.retried_attempts)"' "$T/crash.json")" "2 1"
check "slurm sees NODE_FAIL" sh -c "squeue -h -t all -j '$(job_of crash 0 0)' -o %T | grep -q NODE_FAIL"

# Over the time limit (Slurm checks limits every 30 s).
check "overtime ends" wait_campaign overtime 150
is "overtime: attempt timeout" "$(sql "select a.state from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'overtime'")" timeout
is "overtime: trial failed, not retried (retry.on_timeout is off)" "$(sql "select t.state || ' ' || count(a.id) from trials t join campaigns c on c.id = t.campaign_id join attempts a on a.trial_id = t.id where c.name = 'overtime'")" "failed 1"
check "overtime: the log says why it was not retried" grep -q \
    "campaign overtime: trial 0: timeout: slurm TIMEOUT.*; not retried: retry.on_timeout is off" \
    "$T/hpod.log"
check "overtime: ran about its limit" test "$(sql "select cast(a.ended - a.started as int) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'overtime'")" -ge 60
check "the daemon stops" stop_daemon
done_testing
