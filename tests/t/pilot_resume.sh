#!/bin/sh
# Pilot allocations after a foreground run dies: `hpoctl run` of a pilot
# campaign SIGKILLed while its pilots (local backend) run trials, then
# `hpoctl resume`: the pilots and their trials are taken back and finish,
# one attempt per trial (or a retry per policy), no job id twice, the
# lines by outcome add up and the pilots' idle time is all recorded.
# Then the budget caps count a taken-back pilot's idle time after the
# restart too.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/pilot.subr"
# The Slurm tests' sleep workload: a trial of known length.
export HPOD_WORKLOAD_PATH="$TOP/workloads:$TOP/tests/slurm"

# q CAMPAIGN EXPR [AND]: EXPR over the campaign's attempts (a) and trials (t).
q() {
	sql "select $2 from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1' ${3:-}"
}

write_campaign fr 4 2 16 0.01
jq '. + {"dispatch": "pilot", "pilot": {"count": 2, "cpus": 1}}' \
    "$T/fr.json" >"$T/fr.tmp" && mv "$T/fr.tmp" "$T/fr.json"
"$HPOCTL" -f "$CONF" run -q "$T/fr.json" >"$T/fr.run" 2>"$T/fr.err" &
fg=$!
check "two trials start in their pilots" wait_sql_fg \
    "select count(*) from attempts where started > 0 and job_id like '%.p%'" 2
running=$(sql "select job_id from attempts where started > 0 order by job_id" | tr '\n' ' ')
kill -KILL "$fg"
wait "$fg" 2>/dev/null || true
is "the killed run leaves its campaign running" \
    "$(sql "select state from campaigns where name = 'fr'")" running
is "and its two pilots not ended" \
    "$(sql "select count(*) from pilots where ended is null")" 2
rc=0
"$HPOCTL" -f "$CONF" resume --format json fr >"$T/fr.out" \
    2>"$T/fr.err2" || rc=$?
is "hpoctl resume finishes the campaign" "$rc" 0
is "campaign finished" "$(jq -r .campaign.state "$T/fr.out")" finished
check "the pilots were re-adopted" grep -q "pilot .*: re-adopted" "$T/fr.err2"
is "4 trials completed" \
    "$(sql "select count(*) from trials where state = 'completed'")" 4
is "one completed attempt per trial" \
    "$(q fr "count(*)" "and a.state = 'completed'")" 4
is "every other attempt is a retry the report counts" \
    "$(q fr "count(*) - count(distinct a.trial_id)")" \
    "$(jq .cost.retried_attempts "$T/fr.out")"
is "no job id twice" "$(q fr "count(*) - count(distinct a.job_id)")" 0
is "every attempt ran in a pilot (job id PILOT.pN)" \
    "$(q fr "count(*)" "and exists (select 1 from pilots p where a.job_id like p.job_id || '.p%')")" \
    "$(q fr "count(*)")"
is "the trials running at the kill completed under the same job ids" \
    "$(for j in $running; do sql "select state from attempts where job_id = '$j'"; done | tr '\n' ' ')" \
    "completed completed "
is "in the same two pilots, taken back" \
    "$(sql "select count(*) from pilots")" 2
is "every pilot ended, with its time" \
    "$(sql "select count(*) from pilots where ended > 0 and started > 0 and ended >= started")" \
    "$(sql "select count(*) from pilots")"
check "cost by outcome has pilot_idle" \
    jq -e '.cost.by_outcome.pilot_idle.cpu_hours > 0' "$T/fr.out"
cost_adds_up "$T/fr.out" ""
# All the pilots' idle time is in.
cost_of_pilots "$T/fr.out" "" cpu

# The budget caps after a restart: a pilot of 2 GPUs running trials of
# none is all GPU idle time.  Killed soon after its first trial starts,
# taken back by hpoctl resume, and ended (SIGTERM to its wrapper) once
# it has lived 25 s: its 50 GPU-seconds idle, most of them after the
# restart, are over max_gpu_hours (40 GPU-seconds), so no second trial
# starts (retry.limit 0: the killed trial is not retried either).
cat >"$T/fb.json" <<JSON
{"name": "fb", "workload": "sleep",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"seconds": {"type": "choice", "values": [40]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 3, "max_parallel": 1,
     "max_gpu_hours": $(awk 'BEGIN { printf "%.9f", 40 / 3600 }')},
 "retry": {"limit": 0},
 "resources": {"cpus_per_task": 1, "time_limit": "00:05:00"},
 "dispatch": "pilot", "pilot": {"count": 1, "cpus": 1, "gpus": 2}}
JSON
"$HPOCTL" -f "$CONF" run -q "$T/fb.json" >/dev/null 2>"$T/fb.err" &
fg=$!
check "fb: its first trial starts in its pilot" wait_sql_fg \
    "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'fb' and a.started > 0" 1
kill -KILL "$fg"
wait "$fg" 2>/dev/null || true
"$HPOCTL" -f "$CONF" resume --format json fb >"$T/fb.out" 2>"$T/fb.err2" &
fg=$!
# Its stderr file is made by the background shell, which may not have
# run yet at the first look: wait_for_log takes no file as "not yet".
check "fb: hpoctl resume re-adopts its pilot" \
    wait_for_log "pilot .*: re-adopted" "$T/fb.err2" 60
fbp="select %s from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'fb'"
# age: how long fb's first pilot has lived, in whole seconds.
age() {
	sql "$(printf "$fbp" "cast(strftime('%s', 'now') - p.started as int)") order by p.id limit 1"
}
check "fb: taken back while its pilot's idle time is under the cap (precondition)" \
    test "$(age)" -lt 20
while [ "$(age)" -lt 25 ]; do
	sleep 0.5
done
is "fb: its trial still runs in it" \
    "$(q fb "count(*)" "and a.ended is null and a.started > 0")" 1
kill -TERM "$(jq .pid "$(sql "$(printf "$fbp" p.dir) order by p.id limit 1")/result.json")"
rc=0
wait "$fg" || rc=$?
is "fb: hpoctl resume ends" "$rc" 0
check "fb: the GPU-hour cap stopped the campaign" \
    grep -q "GPU-hour budget spent" "$T/fb.err2"
is "fb: one trial, one attempt" \
    "$(q fb "count(distinct t.id) || ' ' || count(*)")" "1 1"
check "fb: the report counts more GPU-hours than the cap" jq -e \
    '.cost.gpu_hours * 3600 >= 40' "$T/fb.out"
done_testing
