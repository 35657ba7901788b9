#!/bin/sh
# A job preempted by a job of a higher partition (PreemptMode=REQUEUE;
# hpod's jobs are --no-requeue, so Slurm ends them PREEMPTED): the attempt
# ends preempted, billed the run time scontrol shows, and its trial is
# retried as a new job (retry.limit 1); the retry completes.
HPOD_SLURM_PREEMPT=1
export HPOD_SLURM_PREEMPT
. "$(dirname "$0")/lib.subr"

# Every node taken, one trial each.
sleep_campaign prey 8 4 4
jq '.resources.gpus_per_node = 4 | . + {"retry": {"limit": 1}}' \
    "$T/prey.json" >"$T/p.json"
mv "$T/p.json" "$T/prey.json"
start_daemon
check "submit prey" "$HPOCTL" submit "$T/prey.json"
check "four run" wait_sql "select count(*) from $(of prey) and a.started is not null" 4 30
node=$(squeue -h -j "$(job_of prey 0 0)" -o %N)
sleep 1
check "a job of partition high takes $node" sbatch -Q -p high -w "$node" \
    --gres=gpu:4 -o /dev/null --wrap 'sleep 2'
check "prey ends" wait_campaign prey 60
victim=$(sql "select t.number from $(of prey) and a.state = 'preempted'")
is "one attempt preempted" "$(echo "$victim" | wc -w)" 1
jid=$(job_of prey "$victim" 0)
check "Slurm says PREEMPTED" sh -c \
    "squeue -h -t all -j '$jid' -o %T | grep -qx PREEMPTED"
run=$(scontrol show job "$jid" | sed -n 's/.*RunTime=\([0-9:]*\).*/\1/p' |
    awk -F: '{ print $1 * 3600 + $2 * 60 + $3 }')
is "billed scontrol's RunTime" "$(sql "select cast(a.ended - a.started as int) from $(of prey) and t.number = $victim and a.number = 0")" "$run"
is "retried once, and the retry completed" \
    "$(sql "select group_concat(a.state) || ' ' || t.state from $(of prey) and t.number = $victim")" \
    "preempted,completed completed"
check "the retry is a new job" test "$(job_of prey "$victim" 1)" != "$jid"
is "every trial completed" "$(sql "select group_concat(distinct t.state) from $(of prey)")" completed
check "the daemon stops" stop_daemon
done_testing
