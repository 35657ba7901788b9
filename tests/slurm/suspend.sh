#!/bin/sh
# A trial's job suspended for a while (scontrol suspend, then resume) is
# billed its run time, as Slurm's RunTime counts it (scontrol show job):
# its end less its start less the seconds it was suspended, when its
# nodes may run other work.  It was billed end - start, suspended time
# included.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign susp 8 1 1
check "submit" "$HPOCTL" submit "$T/susp.json"
check "the trial runs" \
    wait_sql "select a.state from $(of susp)" running 60
job=$(job_of susp 0 0)
check "scontrol suspend" scontrol suspend "$job"
sleep 3
check "scontrol resume" scontrol resume "$job"
check "it finishes" wait_campaign susp 60

# Slurm's own record of the job: RunTime (suspended time left out) and nodes.
scontrol -o show job "$job" >"$T/job"
run=$(grep -o ' RunTime=[0-9:-]*' "$T/job" | cut -d= -f2 |
    awk -F '[-:]' '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i;
        print s }')
nodes=$(grep -o ' NumNodes=[0-9]*' "$T/job" | cut -d= -f2)
span=$(sql "select cast(a.ended - a.started as int) from $(of susp)")
echo "# RunTime $run s, end - start $span s, $nodes node(s)"
check "Slurm's RunTime leaves the suspended seconds out (the case under test)" \
    test "$run" -lt "$span"
is "the ledger has the suspended seconds" \
    "$(sql "select cast(a.suspended as int) from $(of susp)")" \
    "$((span - run))"
"$HPOCTL" report --format json susp >"$T/susp.out"
is "report: node-seconds are RunTime x nodes" \
    "$(jq -r '.cost.node_hours * 3600 | round' "$T/susp.out")" \
    "$((run * nodes))"
is "report: GPU-seconds are RunTime x GPUs" \
    "$(jq -r '.cost.gpu_hours * 3600 | round' "$T/susp.out")" \
    "$((run * nodes * 2))"
check "the daemon stops" stop_daemon
done_testing
