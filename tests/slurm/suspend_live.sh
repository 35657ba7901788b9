#!/bin/sh
# While a trial's job is suspended (scontrol suspend), its live bill is its
# run time so far, as Slurm's RunTime counts it: `hpoctl status` says so,
# and the node-hour budget does not stop a campaign for seconds its job
# sat suspended.  Both billed the wall time since its start until its end
# event came: status said the suspended seconds were spent, and a budget
# of 10 node-seconds was spent by a 12-second trial (sleep counts wall
# time) suspended for 5 s of it, 7 s of run time, before its end came, so
# no second trial was submitted.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign live 12 3 1
jq '.budget.max_node_hours = 10 / 3600' "$T/live.json" >"$T/live.tmp" &&
    mv "$T/live.tmp" "$T/live.json"
check "submit" "$HPOCTL" submit "$T/live.json"
check "the first trial runs" \
    wait_sql "select a.state from $(of live) and t.number = 0" running 60
job=$(job_of live 0 0)
sleep 2
check "scontrol suspend" scontrol suspend "$job"
# Two slow polls: the daemon has seen the suspension.
sleep 5
"$HPOCTL" status --format json live >"$T/status"
scontrol -o show job "$job" >"$T/job"
check "scontrol resume" scontrol resume "$job"
run=$(grep -o ' RunTime=[0-9:-]*' "$T/job" | cut -d= -f2 |
    awk -F '[-:]' '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i;
        print s }')
state=$(grep -o ' JobState=[A-Z]*' "$T/job" | cut -d= -f2)
span=$(($(date +%s) - $(sql "select cast(a.started as int) from $(of live) and t.number = 0")))
echo "# while $state: RunTime $run s, $span s since its start"
is "the job was suspended when status was asked (the case under test)" \
    "$state" SUSPENDED
is "status while suspended: node-seconds are RunTime x 1 node" \
    "$(jq -r '.node_hours * 3600 | round' "$T/status")" "$run"
is "status while suspended: GPU-seconds are RunTime x 2 GPUs" \
    "$(jq -r '.gpu_hours * 3600 | round' "$T/status")" "$((run * 2))"
check "the campaign finishes" wait_campaign live 120
is "the first trial is billed its run time, under the budget: a second is" \
    "$(sql "select count(*) from trials t join campaigns c on
        c.id = t.campaign_id where c.name = 'live'")" 2
check "the budget stopped it" grep -q "live.*node-hour budget spent" \
    "$T/hpod.log"
check "the daemon stops" stop_daemon
done_testing
