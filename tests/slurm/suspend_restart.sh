#!/bin/sh
# A trial in a pilot suspended both before and after a restart of hpod is
# billed its run time: its suspended seconds are those of both
# suspensions, as its pilot's are, and the report's total is the pilot's
# RunTime x its nodes.  It kept the larger of the two counts: the pilot
# backend counted the suspensions after the restart from 0, and the
# engine kept the most it was told.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign sr 20 1 1
jq '. + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1, "gpus": 2}}' \
    "$T/sr.json" >"$T/sr.tmp" && mv "$T/sr.tmp" "$T/sr.json"
check "submit a pilot campaign" "$HPOCTL" submit "$T/sr.json"
check "its trial runs in the pilot" \
    wait_sql "select a.state from $(of sr)" running 120
job=$(sql "select job_id from pilots")
check "scontrol suspend the pilot" scontrol suspend "$job"
sleep 3
check "scontrol resume the pilot" scontrol resume "$job"
check "its trial's suspension is recorded" wait_sql "select a.suspended > 0
    and a.suspended_at is null from $(of sr)" 1 10
check "SIGTERM: the daemon exits 0" stop_daemon
start_daemon
check "its trial is re-adopted" \
    wait_for_log "trial 0 attempt 0: re-adopted"
check "and still runs" wait_sql "select a.state from $(of sr)" running 10
check "scontrol suspend the pilot again" scontrol suspend "$job"
sleep 3
check "scontrol resume the pilot again" scontrol resume "$job"
check "the campaign finishes" wait_campaign sr 120
check "the pilot has ended" \
    wait_sql "select count(*) from pilots where ended > 0" 1 30

# Slurm's own record of the pilot: RunTime (suspended time left out), nodes.
scontrol -o show job "$job" >"$T/job"
run=$(grep -o ' RunTime=[0-9:-]*' "$T/job" | cut -d= -f2 |
    awk -F '[-:]' '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i;
        print s }')
nodes=$(grep -o ' NumNodes=[0-9]*' "$T/job" | cut -d= -f2)
span=$(sql "select cast(ended - started as int) from pilots")
tsusp=$(sql "select cast(round(a.suspended) as int) from $(of sr)")
"$HPOCTL" report --format json sr >"$T/sr.out"
echo "# pilot $job: RunTime $run s, end - start $span s, $nodes node(s);" \
    "its trial suspended $tsusp s"
check "the pilot was suspended twice as long as once (the case under test)" \
    test "$((span - run))" -ge 5
check "the ledger has the pilot's suspended seconds" \
    test "$(sql "select cast(round(suspended) as int) from pilots")" \
    -eq "$((span - run))"
check "its trial has both suspensions, not the larger one" \
    test "$((tsusp - (span - run)))" -ge -1 -a "$((tsusp - (span - run)))" -le 1
check "report: the total is RunTime x nodes" \
    jq -e --argjson w "$((run * nodes))" \
    '.cost.node_hours * 3600 - $w | fabs < 1.5' "$T/sr.out"
check "the daemon stops" stop_daemon
done_testing
