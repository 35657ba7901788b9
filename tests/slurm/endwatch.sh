#!/bin/sh
# A job's end is noticed from hpo-trial's end marker, before the next timed
# poll: with the timed polls ten minutes apart, a campaign of short jobs one
# after the other still finishes, every end confirmed by a slurmctld query
# of that job alone (REQUEST_JOB_INFO_SINGLE), not of all the user's jobs.
# A marker alone never ends an attempt: a forged one only brings a query.
. "$(dirname "$0")/lib.subr"

# Timed polls ten minutes apart: only the markers can bring one sooner.
cat >>"$CONF" <<CONF
slurm_poll_min = 600000
slurm_poll_max = 600000
CONF
# rpcs TYPE: how many requests of TYPE slurmctld served (sdiag).
rpcs() {
	sdiag | awk -v t="$1" '/^Remote Procedure Call statistics by message type/ { on = 1 }
	    on && $1 == t {
		for (i = 2; i <= NF; i++)
			if ($i ~ /^count:/) { n = $i; sub(/^count:/, "", n) } }
	    END { print n + 0 }'
}
# user_queries: the queries of all of a user's jobs (squeue -u, hpod's polls).
user_queries() {
	rpcs REQUEST_JOB_USER_INFO
}
# single_queries: the queries of one job id (hpod's confirms of an end).
single_queries() {
	rpcs REQUEST_JOB_INFO_SINGLE
}

start_daemon
sleep_campaign seq 1 3 1
# The submit's sbatch --test-only looks the federation up itself: what
# one costs.
fa=$(rpcs REQUEST_FED_INFO)
(cd "$T" && sbatch --test-only --wrap=true >/dev/null 2>&1)
ft=$(( $(rpcs REQUEST_FED_INFO) - fa ))
q0=$(user_queries)
s0=$(single_queries)
f0=$(rpcs REQUEST_FED_INFO)
check "submit three 1 s jobs, one at a time" "$HPOCTL" submit "$T/seq.json"
check "the campaign finishes long before a timed poll" wait_campaign seq 120
is "all three attempts completed" \
    "$(sql "select count(*) from attempts where state = 'completed'")" 3
is "each ran in its own job" \
    "$(sql "select count(distinct job_id) from attempts")" 3
q1=$(user_queries)
s1=$(single_queries)
f1=$(rpcs REQUEST_FED_INFO)
# A marker brings a query of its job alone, not of all the user's jobs.
check "slurmctld confirmed every end by its job id (single-job queries: $((s1 - s0)))" \
    test $((s1 - s0)) -ge 3
check "no end needed a query of all jobs (user queries: $((q1 - q0)))" \
    test $((q1 - q0)) -lt 3
# Not in a federation: asked once, not before every query.
check "the federation was looked up once, not per query ($((f1 - f0 - ft)) and the submit's sbatch --test-only's $ft)" \
    test $((f1 - f0 - ft)) -le 1
check "every attempt directory holds the end marker" test \
    "$(find "$RUNS" -name ended | wc -l)" -eq 3

# A forged marker: the query it brings sees the job run, and it goes on.
sleep_campaign forged 20 1 1
check "submit one 20 s job" "$HPOCTL" submit "$T/forged.json"
for _ in $(seq 1 300); do
	dir=$(squeue -h -t running -o '%Z')
	[ -n "$dir" ] && break
	sleep 0.2
done
check "the job runs" test -n "$dir"
is "hpod has not seen it start (no poll yet)" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'forged' and a.started is not null")" 0
check "forge its end marker" touch "$dir/ended"
check "the query it brings records the start" wait_sql \
    "select count(*) from attempts where started is not null and ended is null" 1 60
is "the attempt still runs" \
    "$(sql "select a.state from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'forged'")" running
check "the real end finishes the campaign" wait_campaign forged 120
is "and the attempt completed" \
    "$(sql "select a.state from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'forged'")" completed
check "the daemon stops" stop_daemon
done_testing
