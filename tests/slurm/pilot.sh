#!/bin/sh
# Pilot allocations on a real Slurm cluster: a "dispatch": "pilot"
# campaign runs its trials inside two pilot jobs (Slurm sees only them),
# its cost lines (pilot_idle included) add up to the total, and a pilot
# cancelled mid-trial fails only that trial, which is retried, and a
# daemon SIGKILLed mid-trial takes its pilots and their trials back.
. "$(dirname "$0")/lib.subr"
. "$TOP/tests/t/pilot.subr"

# pilot_campaign NAME SECONDS TRIALS PARALLEL PILOT: a sleep campaign run
# in pilots (PILOT: the "pilot" object).
pilot_campaign() {
	sleep_campaign "$1" "$2" "$3" "$4"
	jq --argjson p "$5" '. + {"dispatch": "pilot", "pilot": $p}' \
	    "$T/$1.json" >"$T/$1.tmp" && mv "$T/$1.tmp" "$T/$1.json"
}

start_daemon
# Eight 2-second trials of 2 GPUs, four at once: two pilots of 4 GPUs.
pilot_campaign pj 2 8 4 '{"count": 2, "cpus": 2, "gpus": 4, "time_limit": "00:20:00"}'
check "submit a pilot campaign" "$HPOCTL" submit "$T/pj.json"
check "the campaign finishes" wait_campaign pj 240
is "all eight trials completed" \
    "$(sql "select count(*) from trials where state = 'completed'")" 8
is "two pilots, both ended" \
    "$(sql "select count(*) from pilots where started > 0 and ended > 0")" 2
pilots=$(sql "select job_id from pilots order by job_id" | tr '\n' ' ')
is "Slurm ran only the pilot jobs" \
    "$(slurm_jobs | awk '{ print $1 }' | sort | tr '\n' ' ')" "$pilots"
is "they are named as pilots" \
    "$(squeue -h -t all -o '%j' | grep -vc '^hpo-pilot-1-pj$' || true)" 0
is "every trial ran as PILOT.pN in one of them" \
    "$(sql "select count(*) from attempts a where exists (select 1 from pilots p where a.job_id like p.job_id || '.p%')")" 8
is "each pilot ran several trials" \
    "$(sql "select count(*) from pilots p where (select count(*) from attempts a where a.job_id like p.job_id || '.p%') >= 2")" 2
# The most running at once in a pilot: at each start, those running.
is "two trials at once in a pilot: 2 GPUs each, the pilot's 4" \
    "$(sql "select max(n) from (select (select count(*) from attempts b where substr(b.job_id, 1, instr(b.job_id, '.')) = substr(a.job_id, 1, instr(a.job_id, '.')) and b.started <= a.started and a.started < b.ended) as n from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pj')")" 2
is "the pilots' allocation, as Slurm gave it: 1 node, 4 GPUs, 2 CPUs" \
    "$(sql "select distinct nodes || ' ' || gpus || ' ' || cpus from pilots")" "1 4 2"
"$HPOCTL" report --ledger "$LEDGER" --format json pj >"$T/pj.out"
check "cost by outcome has pilot_idle" \
    jq -e '.cost.by_outcome.pilot_idle.gpu_hours > 0' "$T/pj.out"
cost_adds_up "$T/pj.out" ""
cost_of_pilots "$T/pj.out" "" gpu
is "each trial was charged half its pilot's node (2 of its 4 GPUs)" \
    "$(sql "select group_concat(distinct node_share) from attempts")" 0.5
cost_of_pilots "$T/pj.out" "" node

# A pilot cancelled mid-trial: its trial ends node_fail and is retried.
pilot_campaign pk 20 2 2 '{"count": 2, "cpus": 1, "gpus": 2}'
check "submit a second pilot campaign" "$HPOCTL" submit "$T/pk.json"
check "both trials start" wait_sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pk' and a.started > 0" 2 120
check "both pilots have a Slurm job id" wait_sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pk' and p.job_id is not null" 2 60
victim=$(sql "select p.job_id from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pk' and p.job_id is not null order by p.id limit 1")
check "scancel a pilot" scancel "$victim"
check "the campaign still finishes" wait_campaign pk 240
is "both trials completed" \
    "$(sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'pk' and t.state = 'completed'")" 2
is "the cancelled pilot's trial ended node_fail" \
    "$(sql "select state from attempts where job_id like '$victim.p%'")" node_fail
is "3 attempts, one a retry" \
    "$(sql "select count(*) || ' ' || total(a.number) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pk'")" "3 1.0"
is "a replacement pilot ran the retry" \
    "$(sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pk' and p.started > 0")" 3
# hpod SIGKILLed while its pilots run trials: the restarted daemon takes
# back the pilots (Slurm jobs) and their trials, which finish in them.
pilot_campaign pr 8 4 2 '{"count": 2, "cpus": 1, "gpus": 2}'
check "submit a third pilot campaign" "$HPOCTL" submit "$T/pr.json"
check "two trials run in their pilots" wait_sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pr' and a.started > 0 and a.job_id is not null" 2 120
kill_daemon
start_daemon
check "the campaign finishes after the restart" wait_campaign pr 240
is "all four trials completed, one attempt each" \
    "$(sql "select count(*) || ' ' || count(distinct a.job_id) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pr' and a.state = 'completed' and t.state = 'completed'")" "4 4"
is "still the two pilots, both ended" \
    "$(sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pr' and p.ended > 0")" 2
check "the pilots were re-adopted" grep -q "pilot .*: re-adopted" "$T/hpod.log"
"$HPOCTL" report --ledger "$LEDGER" --format json pr >"$T/pr.out"
cost_adds_up "$T/pr.out" pr gpu
# Multi-rank trials (the workload's launcher is srun): inside a pilot each
# is a job step of the pilot job, two at once in its 4 CPUs.
cat >"$T/ps.json" <<JSON
{"name": "ps", "workload": "steps",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"seconds": {"type": "choice", "values": [6]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 4, "max_parallel": 2},
 "backend": "slurm",
 "resources": {"nodes": 1, "tasks_per_node": 2, "cpus_per_task": 1,
     "time_limit": "00:10:00"},
 "dispatch": "pilot", "pilot": {"count": 1, "cpus": 4}}
JSON
check "submit a campaign of multi-rank trials" "$HPOCTL" submit "$T/ps.json"
check "two of them run" wait_sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'ps' and a.started > 0 and a.ended is null" 2 120
sleep 1
pj=$(sql "select p.job_id from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'ps'")
squeue -s -h -o '%i %j' >"$T/steps.txt"
is "each runs as a job step (srun) of the one pilot job" \
    "$(awk -v j="$pj" '$2 == "sleep" && index($1, j ".") == 1' "$T/steps.txt" | wc -l)" 2
check "the campaign of multi-rank trials finishes" wait_campaign ps 240
is "its four trials completed in the one pilot" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'ps' and a.state = 'completed' and a.job_id like '$pj.p%'")" 4
check "hpod stops cleanly" stop_daemon
done_testing
