#!/bin/sh
# hpoctl cancel of array tasks that still pend: Slurm keeps no record of
# a pending task it drops, and hpod's log said the job was lost
# ("slurmctld no longer knows the job and left no final result.json");
# it says the trial was cancelled while pending, billed nothing.  Then
# the campaign is cancelled with running and pending tasks: all end
# cancelled, Slurm cancels every one.
. "$(dirname "$0")/lib.subr"

# Each trial takes a whole node (4 GPUs): of 6, 2 pend.
sleep_campaign wave 300 6 6
jq '.resources.gpus_per_node = 4' "$T/wave.json" >"$T/w.json"
mv "$T/w.json" "$T/wave.json"
start_daemon
check "submit wave" "$HPOCTL" submit "$T/wave.json"
check "four run" wait_sql "select count(*) from $(of wave) and a.started is not null" 4 30
check "hpoctl cancel --trial 5 (pending)" "$HPOCTL" cancel --trial 5 wave
check "trial 5 ends" wait_sql "select t.state from trials t join campaigns c on c.id = t.campaign_id where c.name = 'wave' and t.number = 5" cancelled 30
check "the log says it was cancelled while pending" grep -q \
    "campaign wave: trial 5: cancelled: cancelled while pending, before it started, no eval_error reported" \
    "$T/hpod.log"
is "trial 5: never started, billed nothing" \
    "$(sql "select count(*) from $(of wave) and t.number = 5 and a.started is null")" 1
sleep 2	# Slurm bills whole seconds: let the four run some
check "hpoctl cancel wave" "$HPOCTL" cancel wave
check "wave ends" wait_campaign wave 30
is "every attempt cancelled" \
    "$(sql "select group_concat(distinct a.state) from $(of wave)")" cancelled
is "four ran and are billed" \
    "$(sql "select count(*) from $(of wave) and a.ended > a.started")" 4
check "Slurm holds nothing of wave running or pending" sh -c \
    "! squeue -h -o '%T %k' | grep -q hpod"
check "the daemon stops" stop_daemon
done_testing
