#!/bin/sh
# A pilot whose agent calls, and runs a trial, before hpod's poll of
# Slurm has seen the pilot start (here: a poll every 30 s): its Slurm job
# id is in the ledger from the agent's hello on, so that hpod SIGKILLed
# then takes the trial back after a restart, rather than ending it lost
# while it runs on, unseen and uncharged, and running it again.
. "$(dirname "$0")/lib.subr"
. "$TOP/tests/t/pilot.subr"

sed -e 's/^slurm_poll_min = .*/slurm_poll_min = 30000/' \
    -e 's/^slurm_poll_max = .*/slurm_poll_max = 30000/' \
    -e 's/^slurm_poll_kick = .*//' "$CONF" >"$T/slow.conf"
cp "$CONF" "$T/fast.conf"
cp "$T/slow.conf" "$CONF"
start_daemon
sleep_campaign pe 15 1 1
jq '. + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1, "gpus": 2}}' \
    "$T/pe.json" >"$T/pe.tmp" && mv "$T/pe.tmp" "$T/pe.json"
check "submit a trial of 15 s to a pilot" "$HPOCTL" submit "$T/pe.json"
check "it starts in its pilot" wait_sql "select count(*) from attempts where started > 0" 1 60
is "the pilot's Slurm job id is in the ledger" \
    "$(sql "select count(*) from pilots where job_id is not null")" 1
kill_daemon
cp "$T/fast.conf" "$CONF"
start_daemon
check "the campaign finishes after the restart" wait_campaign pe 120
is "the trial was taken back: one attempt, completed" \
    "$(sql "select count(*) || ' ' || group_concat(state) from attempts")" "1 completed"
check "re-adopted, not lost" grep -q "trial 0 attempt 0: re-adopted" "$T/hpod.log"
is "its attempt ran in the pilot, as PILOT.p1" \
    "$(sql "select count(*) from attempts a join pilots p on a.job_id = p.job_id || '.p1'")" 1
pj=$(sql "select job_id from pilots")
# Its agent's hello told of its start before the poll, without its host.
is "the pilot's start is logged once" \
    "$(grep -c "pilot $pj started on " "$T/hpod.log")" 1
is "with its host, Slurm's" \
    "$(sed -n "s/.*pilot $pj started on //p" "$T/hpod.log")" \
    "$(squeue -h -t all -j "$pj" -o '%N')"
"$HPOCTL" report --ledger "$LEDGER" --format json pe >"$T/pe.out"
cost_adds_up "$T/pe.out" pe gpu
check "hpod stops cleanly" stop_daemon
done_testing
