#!/bin/sh
# A pilot job suspended for a while (scontrol suspend, then resume) is
# billed its run time, as Slurm's RunTime counts it, and so is the trial
# it ran, suspended with it: the report's total is the pilot's RunTime x
# its nodes, and its idle time that less what its trial was charged.  The
# pilot was billed its end less its start, and its trial too (sleep counts
# wall time), the suspended seconds billed twice over.  While it sits
# suspended, `hpoctl status` bills it its run time so far too: its idle
# line grew with the wall time until its end came.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign sp 8 1 1
jq '. + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1, "gpus": 2}}' \
    "$T/sp.json" >"$T/sp.tmp" && mv "$T/sp.tmp" "$T/sp.json"
check "submit a pilot campaign" "$HPOCTL" submit "$T/sp.json"
check "its trial runs in the pilot" \
    wait_sql "select a.state from $(of sp)" running 120
job=$(sql "select job_id from pilots")
sleep 2
check "scontrol suspend the pilot" scontrol suspend "$job"
check "the daemon sees the pilot suspended" \
    wait_sql "select count(*) from pilots where suspended_at > 0" 1 10
sleep 3
"$HPOCTL" status --format json sp >"$T/status"
scontrol -o show job "$job" >"$T/job"
check "scontrol resume the pilot" scontrol resume "$job"
live=$(grep -o ' RunTime=[0-9:-]*' "$T/job" | cut -d= -f2 |
    awk -F '[-:]' '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i;
        print s }')
echo "# while $(grep -o ' JobState=[A-Z]*' "$T/job" | cut -d= -f2):" \
    "RunTime $live s; status $(jq -r '.node_hours * 3600' "$T/status") node-s"
check "status while suspended: node-seconds are RunTime x 1 node" \
    jq -e --argjson w "$live" '.node_hours * 3600 - $w | fabs < 1.5' \
    "$T/status"
check "status while suspended: GPU-seconds are RunTime x 2 GPUs" \
    jq -e --argjson w "$((live * 2))" '.gpu_hours * 3600 - $w | fabs < 3' \
    "$T/status"
check "the campaign finishes" wait_campaign sp 120
check "the pilot has ended" wait_sql "select count(*) from pilots where ended > 0" 1 30

# Slurm's own record of the pilot: RunTime (suspended time left out), nodes.
scontrol -o show job "$job" >"$T/job"
run=$(grep -o ' RunTime=[0-9:-]*' "$T/job" | cut -d= -f2 |
    awk -F '[-:]' '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i;
        print s }')
nodes=$(grep -o ' NumNodes=[0-9]*' "$T/job" | cut -d= -f2)
span=$(sql "select cast(ended - started as int) from pilots")
busy=$(sql "select total((a.ended - a.started - coalesce(a.suspended, 0))
    * coalesce(a.node_share, a.nodes)) from $(of sp)")
"$HPOCTL" report --format json sp >"$T/sp.out"
idle=$(jq -r '.cost.by_outcome.pilot_idle.node_hours * 3600' "$T/sp.out")
echo "# pilot $job: RunTime $run s, end - start $span s, $nodes node(s);" \
    "its trial $busy node-s, idle $idle node-s"
check "Slurm's RunTime leaves the suspended seconds out (the case under test)" \
    test "$run" -lt "$span"
check "the ledger has the pilot's suspended seconds" \
    test "$(sql "select cast(round(suspended) as int) from pilots")" \
    -eq "$((span - run))"
check "its trial has them too: it ran through the suspension" \
    test "$(sql "select cast(round(a.suspended) as int) from $(of sp)")" \
    -eq "$((span - run))"
check "report: pilot idle is RunTime x nodes less its trial's charge" \
    awk -v i="$idle" -v w="$((run * nodes))" -v b="$busy" \
    'BEGIN { d = i - (w - b); exit !(d > -1.5 && d < 1.5) }'
check "report: the total is RunTime x nodes" \
    jq -e --argjson w "$((run * nodes))" \
    '.cost.node_hours * 3600 - $w | fabs < 1.5' "$T/sp.out"
check "the daemon stops" stop_daemon
done_testing
