#!/bin/sh
# A GPU-hour budget counts a running pilot's idle time as it grows, not
# only when the pilot ends: one pilot of 4 GPUs runs 2-second trials of
# 1 GPU one at a time, 3 of its GPUs idle, under a budget of 12
# GPU-seconds.  Each trial is handed out only while the campaign's bill
# (the pilot's run time so far x its 4 GPUs: its trials' charges and its
# idle time) is under the budget.  Before, the live budget counted the
# trials' charges alone, a quarter of it: trials went on being handed out
# until 12 GPU-seconds of trials, 48 of the pilot, were spent.
. "$(dirname "$0")/lib.subr"
. "$TOP/tests/t/pilot.subr"

start_daemon
sleep_campaign pb 2 20 1 00:01:00
jq '. + {"dispatch": "pilot",
    "pilot": {"count": 1, "cpus": 4, "gpus": 4, "time_limit": "00:10:00"}}
    | .resources.gpus_per_node = 1 | .budget.max_gpu_hours = 12 / 3600' \
    "$T/pb.json" >"$T/pb.tmp" && mv "$T/pb.tmp" "$T/pb.json"
check "submit a pilot campaign under a GPU-hour budget" \
    "$HPOCTL" submit "$T/pb.json"
check "the campaign finishes" wait_campaign pb 120
check "the GPU-hour budget stopped it" \
    grep -q "campaign pb: campaign finished: GPU-hour budget spent" \
    "$T/hpod.log"
is "one pilot of 4 GPUs, ended" \
    "$(sql "select count(*) from pilots where gpus = 4 and ended > 0")" 1
# The bill when each trial was handed to the pilot: the pilot's run time
# to then x its GPUs (all of it is billed: its trials and its idle time).
# Slack: an engine tick (poll_interval, 0.5 s) and Slurm's start, a
# whole second, at 4 GPUs.
bills=$(sql "select group_concat(printf('%.1f',
    max(a.submitted - p.started, 0) * p.gpus), ' ')
    from pilots p join attempts a on a.job_id like p.job_id || '.p%'
    where a.submitted > 0")
echo "# GPU-seconds billed when each trial was handed out: $bills"
check "no trial was handed out past the budget" awk -v b="$bills" \
    'BEGIN { n = split(b, v, " "); for (i = 1; i <= n; i++)
        if (v[i] >= 12 + 6) exit 1; exit n == 0 }'
"$HPOCTL" report --format json pb >"$T/pb.out"
cost_adds_up "$T/pb.out" "" gpu
check "the report bills the pilot whole: its trials and its idle time" \
    jq -e --argjson w "$(sql "select (ended - started) * gpus from pilots")" \
    '.cost.gpu_hours * 3600 - $w | fabs < 1e-6' "$T/pb.out"
check "the daemon stops" stop_daemon
done_testing
