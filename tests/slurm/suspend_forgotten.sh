#!/bin/sh
# A job Slurm forgot (MinJobAge) while hpod was stopped, last seen by hpod
# suspended, is billed as that last view has it: suspended from then on,
# no run time past its suspension (nothing says when, or whether, it was
# resumed).  It was billed its result.json's end less its start, the
# suspension and all after it included.
HPOD_SLURM_MINJOBAGE=2
export HPOD_SLURM_MINJOBAGE
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign sf 6 1 1
check "submit" "$HPOCTL" submit "$T/sf.json"
check "the trial runs" wait_sql "select a.state from $(of sf)" running 60
job=$(job_of sf 0 0)
sleep 2
check "scontrol suspend" scontrol suspend "$job"
check "the daemon sees it suspended" \
    wait_sql "select a.suspended_at > 0 from $(of sf)" 1 10
check "SIGTERM: the daemon exits 0" stop_daemon
seen=$(sql "select a.suspended_at - a.started from $(of sf)")
sleep 2
check "scontrol resume: it ends while hpod is away" scontrol resume "$job"
# slurmctld purges ended jobs older than MinJobAge about once a minute.
for _ in $(seq 1 150); do
	[ -z "$(slurm_jobs)" ] && break
	sleep 1
done
is "slurmctld forgot the job (the case under test)" "$(slurm_jobs | wc -l)" 0
start_daemon
check "the campaign finishes" wait_campaign sf 60
is "the attempt completed (read from result.json)" \
    "$(sql "select a.state from $(of sf)")" completed
span=$(sql "select a.ended - a.started from $(of sf)")
billed=$(sql "select a.ended - a.started - coalesce(a.suspended, 0)
    from $(of sf)")
echo "# run $seen s before its suspension, $span s from its start to" \
    "its end; billed $billed s"
check "billed its run time until its last poll saw it suspended" \
    awk -v b="$billed" -v s="$seen" 'BEGIN { exit !(b - s > -1 && b - s < 1) }'
"$HPOCTL" report --format json sf >"$T/sf.out"
check "report: the total is that x 1 node" \
    jq -e --argjson w "$seen" '.cost.node_hours * 3600 - $w | fabs < 1' \
    "$T/sf.out"
check "the daemon stops" stop_daemon
done_testing
