#!/bin/sh
# slurmctld stopped for 30 s mid-campaign and started again: hpod keeps
# retrying with back-off, loses no trial, fails none, and submits nothing
# twice, also for a campaign submitted while the controller is down.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign before 6 8 4
check "submit a campaign" "$HPOCTL" submit "$T/before.json"
check "four jobs run" wait_sql \
    "select count(*) from attempts where started is not null and ended is null" 4 30
check "stop slurmctld" "$CLUSTER" ctld-stop "$SC"
check "sbatch fails while it is down" sh -c "! sbatch --wrap true 2>/dev/null"
sleep_campaign during 2 4 4
check "submit a campaign while slurmctld is down" "$HPOCTL" submit \
    "$T/during.json"
sleep 30
is "nothing failed during the outage" \
    "$(sql "select count(*) from attempts where state not in ('submitting', 'pending', 'running', 'completed')")" 0
check "start slurmctld again" "$CLUSTER" ctld-start "$SC"
check "the first campaign finishes" wait_campaign before 120
check "the second campaign finishes" wait_campaign during 60
is "all twelve trials completed" \
    "$(sql "select count(*) from trials where state = 'completed'")" 12
is "one attempt per trial: none failed, none duplicated" \
    "$(sql 'select count(*) from attempts')" 12
is "Slurm ran one job per attempt" "$(slurm_jobs | wc -l)" 12
is "every job id is distinct" \
    "$(sql 'select count(distinct job_id) from attempts')" 12
check "the outage was logged" grep -q "cannot query slurmctld" "$T/hpod.log"
check "and the recovery" grep -q "slurmctld answers again" "$T/hpod.log"
check "the daemon stops" stop_daemon
done_testing
