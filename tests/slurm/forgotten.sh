#!/bin/sh
# A job Slurm has already forgotten (MinJobAge) while hpod was stopped is
# resolved from its result.json after the restart: completed, and costed
# from its result.json times and the resources its job.json asked for.
HPOD_SLURM_MINJOBAGE=2
export HPOD_SLURM_MINJOBAGE
. "$(dirname "$0")/lib.subr"

start_daemon
# Jobs stay pending in a DOWN partition: hpod sees them submitted only.
check "partition down" scontrol update partitionname=debug state=down
sleep_campaign gone 3 2 2
check "submit two 3 s jobs" "$HPOCTL" submit "$T/gone.json"
check "both are submitted" wait_sql \
    "select count(*) from attempts where job_id is not null" 2 30
check "SIGTERM: the daemon exits 0" stop_daemon
is "hpod never saw them start" \
    "$(sql "select count(*) from attempts where started is not null")" 0
check "partition up: they run while hpod is away" \
    scontrol update partitionname=debug state=up
ids=$(sql "select job_id from attempts")
# slurmctld purges ended jobs older than MinJobAge about once a minute.
for _ in $(seq 1 150); do
	[ -z "$(slurm_jobs)" ] && break
	sleep 1
done
is "slurmctld forgot both jobs" "$(slurm_jobs | wc -l)" 0
start_daemon
check "the campaign finishes" wait_campaign gone 60
is "both attempts completed (read from result.json)" \
    "$(sql "select count(*) from attempts where state = 'completed'")" 2
is "no attempt was submitted again" "$(sql 'select count(*) from attempts')" 2
is "their job ids are kept" "$(sql "select job_id from attempts")" "$ids"
is "both are costed: 1 node and 2 GPUs each" \
    "$(sql "select count(*) from attempts where nodes = 1 and gpus = 2 and ended > started")" 2
check "the resolution was logged in the attempt" test \
    "$(sql "select count(*) from attempts where reason like '%result.json%'")" -eq 2
check "the daemon stops" stop_daemon
done_testing
