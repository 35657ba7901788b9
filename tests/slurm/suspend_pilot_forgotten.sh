#!/bin/sh
# A pilot that Slurm forgot (MinJobAge) while hpod was stopped, last seen
# by hpod suspended, is billed as that last view has it, as a job of its
# own is (suspend_forgotten.sh): suspended from then on, no run time past
# its suspension (nothing says when, or whether, it was resumed); so is
# the trial it ran, which ended meanwhile as its result.json says.  The
# report's total is the pilot's run time until then x its nodes.
HPOD_SLURM_MINJOBAGE=2
export HPOD_SLURM_MINJOBAGE
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign spf 6 1 1
jq '. + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1, "gpus": 2}}' \
    "$T/spf.json" >"$T/spf.tmp" && mv "$T/spf.tmp" "$T/spf.json"
check "submit a pilot campaign" "$HPOCTL" submit "$T/spf.json"
check "its trial runs in the pilot" \
    wait_sql "select a.state from $(of spf)" running 120
job=$(sql "select job_id from pilots")
sleep 2
check "scontrol suspend the pilot" scontrol suspend "$job"
check "the daemon sees the pilot suspended" \
    wait_sql "select count(*) from pilots where suspended_at > 0" 1 10
check "and its trial" wait_sql "select a.suspended_at > 0 from $(of spf)" 1 10
check "SIGTERM: the daemon exits 0" stop_daemon
pseen=$(sql "select suspended_at - started from pilots")
seen=$(sql "select a.suspended_at - a.started from $(of spf)")
sleep 2
check "scontrol resume the pilot" scontrol resume "$job"
for _ in $(seq 1 60); do
	grep -qs '"state": *"exited"' "$(sql "select a.dir from $(of spf)")/result.json" && break
	sleep 0.5
done
check "its trial's result.json is final" \
    grep -q '"state": *"exited"' "$(sql "select a.dir from $(of spf)")/result.json"
check "scancel the pilot: it ends while hpod is away" scancel "$job"
# slurmctld purges ended jobs older than MinJobAge about once a minute.
for _ in $(seq 1 150); do
	[ -z "$(slurm_jobs)" ] && break
	sleep 1
done
is "slurmctld forgot the pilot (the case under test)" "$(slurm_jobs | wc -l)" 0
start_daemon
check "the campaign finishes" wait_campaign spf 60
check "the pilot has ended" \
    wait_sql "select count(*) from pilots where ended > 0" 1 30
is "the attempt completed (read from result.json)" \
    "$(sql "select a.state from $(of spf)")" completed
billed=$(sql "select a.ended - a.started - coalesce(a.suspended, 0)
    from $(of spf)")
pbilled=$(sql "select ended - started - coalesce(suspended, 0) from pilots")
nodes=$(sql "select nodes from pilots")
echo "# pilot $job: ran $pseen s before its suspension, billed $pbilled s;" \
    "its trial ran $seen s, billed $billed s"
check "the trial is billed its run time until its last poll saw it suspended" \
    awk -v b="$billed" -v s="$seen" 'BEGIN { exit !(b - s > -1 && b - s < 1) }'
check "the pilot too" \
    awk -v b="$pbilled" -v s="$pseen" 'BEGIN { exit !(b - s > -1 && b - s < 1) }'
"$HPOCTL" report --format json spf >"$T/spf.out"
check "report: the total is that x its nodes" \
    jq -e --argjson w "$pseen" --argjson n "$nodes" \
    '.cost.node_hours * 3600 - $w * $n | fabs < 1.5' "$T/spf.out"
idle=$(jq -r '.cost.by_outcome.pilot_idle.node_hours * 3600' "$T/spf.out")
share=$(sql "select coalesce(a.node_share, a.nodes) from $(of spf)")
check "report: pilot idle is that less its trial's charge" \
    awk -v i="$idle" -v p="$pseen" -v n="$nodes" -v b="$billed" -v s="$share" \
    'BEGIN { d = i - (p * n - b * s); exit !(d > -1.5 && d < 1.5) }'
check "the daemon stops" stop_daemon
done_testing
