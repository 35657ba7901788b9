#!/bin/sh
# Pilots of several nodes on a real Slurm cluster: a pilot of 2 nodes
# runs 2-node trials (launched by srun) as job steps across both its
# nodes, two at once; one-node trials two at a time on different nodes;
# the node-hours add up to the pilots' nodes x their elapsed time; and a
# pilot cancelled mid multi-node trial has that trial retried in a
# replacement pilot.
. "$(dirname "$0")/lib.subr"
. "$TOP/tests/t/pilot.subr"

# steps_campaign NAME SECONDS TRIALS PARALLEL NODES CPUS PILOT: trials
# of NODES nodes, one rank of CPUS CPUs on each, in pilots (PILOT: the
# "pilot" object).
steps_campaign() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "steps",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"seconds": {"type": "choice", "values": [$2]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": $3, "max_parallel": $4},
 "backend": "slurm",
 "resources": {"nodes": $5, "tasks_per_node": 1, "cpus_per_task": $6,
     "time_limit": "00:10:00"},
 "dispatch": "pilot", "pilot": $7}
JSON
}

# of CAMPAIGN: the ledger's FROM clause of a campaign's attempts.
of() {
	echo "attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1'"
}

# told CAMPAIGN: how many of its attempts' srun was given their nodes
# (the recorded host list) by the agent, in their job.json.
told() {
	sql "select a.dir || ' ' || a.host from $(of "$1")" |
	while read -r dir host; do
		[ "$(jq -r '.argv[1]' "$dir/job.json")" = "--nodelist=$host" ] &&
		    echo "$dir"
	done | wc -l
}

# adds_up CAMPAIGN: its cost lines add up, its node-hours are its pilots'.
adds_up() {
	"$HPOCTL" report --ledger "$LEDGER" --format json "$1" >"$T/$1.out"
	cost_adds_up "$T/$1.out" "$1" node
	cost_of_pilots "$T/$1.out" "$1" node "$1"
}

start_daemon
# Four 2-node trials of 2 CPUs a node in one pilot of 2 nodes x 4 CPUs.
steps_campaign pm 6 4 2 2 2 '{"count": 1, "nodes": 2, "cpus": 4}'
check "a campaign of 2-node trials in a 2-node pilot checks" \
    "$HPOCTL" check "$T/pm.json"
check "submit it" "$HPOCTL" submit "$T/pm.json"
check "two 2-node trials run at once" wait_sql "select count(*) from $(of pm) and a.started > 0 and a.ended is null" 2 120
check "the pilot has a Slurm job id" wait_sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pm' and p.job_id is not null" 1 60
pj=$(sql "select p.job_id from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pm' and p.job_id is not null")
squeue -s -h -o '%i %j %N' >"$T/pm-steps.txt"
is "each is a job step of the pilot on both its nodes" \
    "$(awk -v j="$pj" '$2 == "sleep" && index($1, j ".") == 1 { print $3 }' "$T/pm-steps.txt" | sort -u)" \
    "$(squeue -h -j "$pj" -o '%N')"
check "the campaign finishes" wait_campaign pm 240
is "its four trials completed in the one pilot" \
    "$(sql "select count(*) from $(of pm) and a.state = 'completed' and a.job_id like '$pj.p%'")" 4
is "the pilot: 2 nodes" \
    "$(sql "select nodes from pilots where job_id = '$pj'")" 2
is "each trial's hosts: both nodes of the pilot" \
    "$(sql "select group_concat(distinct a.host) from $(of pm)")" \
    "$(scontrol show hostnames "$(squeue -h -t all -j "$pj" -o '%N')" | paste -sd, -)"
is "each trial is charged 2 nodes x half of each (2 of 4 CPUs)" \
    "$(sql "select group_concat(distinct a.node_share) from $(of pm)")" 1.0
is "each trial's srun was told both nodes" "$(told pm)" 4
adds_up pm

# One-node trials in a 2-node pilot: two at a time, on different nodes.
steps_campaign po 6 4 2 1 2 '{"count": 1, "nodes": 2, "cpus": 4}'
check "submit one-node trials to a 2-node pilot" "$HPOCTL" submit "$T/po.json"
check "two run at once" wait_sql "select count(*) from $(of po) and a.started > 0 and a.ended is null" 2 120
is "on different nodes" \
    "$(sql "select count(distinct a.host) from $(of po) and a.started > 0 and a.ended is null")" 2
check "its pilot has a Slurm job id" wait_sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'po' and p.job_id is not null" 1 60
po_pj=$(sql "select p.job_id from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'po' and p.job_id is not null")
sleep 1
squeue -s -h -o '%i %j %N' >"$T/po-steps.txt"
is "Slurm ran their steps on the two nodes, one each" \
    "$(awk -v j="$po_pj" '$2 == "sleep" && index($1, j ".") == 1 { print $3 }' "$T/po-steps.txt" | sort | tr '\n' ' ')" \
    "$(sql "select a.host from $(of po) and a.started > 0 and a.ended is null order by a.host" | tr '\n' ' ')"
check "the one-node campaign finishes" wait_campaign po 240
is "its four trials completed" \
    "$(sql "select count(*) from $(of po) and a.state = 'completed'")" 4
is "every pair that ran at once ran on different nodes" \
    "$(sql "select count(*) from $(of po) and exists (select 1 from attempts b where b.trial_id != a.trial_id and b.trial_id in (select t2.id from trials t2 where t2.campaign_id = c.id) and b.host = a.host and b.started < a.ended and a.started < b.ended)")" 0
is "each one-node trial is charged half a node" \
    "$(sql "select group_concat(distinct a.node_share) from $(of po)")" 0.5
is "each trial's srun was told its node" "$(told po)" 4
adds_up po

# A pilot cancelled mid 2-node trial: the trial ends node_fail and is
# retried in a replacement pilot.
steps_campaign pc 20 1 1 2 2 '{"count": 1, "nodes": 2, "cpus": 4}'
check "submit a long 2-node trial" "$HPOCTL" submit "$T/pc.json"
check "it starts" wait_sql "select count(*) from $(of pc) and a.started > 0" 1 120
check "its pilot has a Slurm job id" wait_sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pc' and p.job_id is not null" 1 60
victim=$(sql "select p.job_id from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pc' and p.job_id is not null")
check "scancel its pilot" scancel "$victim"
check "the campaign still finishes" wait_campaign pc 240
is "the trial completed" \
    "$(sql "select t.state from trials t join campaigns c on c.id = t.campaign_id where c.name = 'pc'")" completed
is "its first attempt ended node_fail in the cancelled pilot" \
    "$(sql "select a.state from $(of pc) and a.job_id like '$victim.p%'")" node_fail
is "2 attempts: the retry" "$(sql "select count(*) from $(of pc)")" 2
is "a replacement pilot of 2 nodes ran the retry" \
    "$(sql "select count(*) || ' ' || min(p.nodes) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pc' and p.started > 0")" "2 2"
adds_up pc

# hpod SIGKILLed while a pilot of 2 nodes x 1 CPU runs two one-node
# trials, one on each node: the restarted daemon takes them back on the
# nodes they run on.  The short one (node 0) ends, and the next trial
# must go to node 0, not to node 1 where the long one still runs (a
# restart that counted every trial taken back on the first node sent it
# there: two trials on one CPU while node 0 idled).
steps_campaign pn '12, 40, 4' 3 2 1 1 '{"count": 1, "nodes": 2, "cpus": 1}'
jq '.search = {"algorithm": "grid"}' "$T/pn.json" >"$T/pn.grid" &&
    mv "$T/pn.grid" "$T/pn.json"
check "submit trials of 12 s and 40 s to a pilot of 2 nodes x 1 CPU" \
    "$HPOCTL" submit "$T/pn.json"
check "both run, one on each node" wait_sql "select count(distinct a.host) from $(of pn) and a.started > 0 and a.ended is null" 2 120
check "the pilot's Slurm job id is in the ledger" wait_sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pn' and p.job_id is not null" 1 60
kill_daemon
is "the short one had not ended when hpod was killed" \
    "$(sql "select count(*) from $(of pn) and a.ended is not null")" 0
start_daemon
check "the campaign finishes after the restart" wait_campaign pn 240
is "its three trials completed, one attempt each" \
    "$(sql "select count(*) from $(of pn) and a.state = 'completed'")" 3
host_of() {
	sql "select a.host from $(of pn) and t.number = $1 and a.state = 'completed'"
}
is "the short trial ran on the pilot's first node (its agent's)" \
    "$(host_of 0)" "$(scontrol show hostnames "$(sql "select p.host from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pn'")" | head -n 1)"
is "the third trial ran on the short one's node, not the long one's" \
    "$(host_of 2)" "$(host_of 0)"
is "no node ran two trials at once (1 CPU each)" \
    "$(sql "select count(*) from $(of pn) and exists (select 1 from attempts b join trials t2 on t2.id = b.trial_id where t2.campaign_id = c.id and b.id != a.id and b.host = a.host and b.started < a.ended and a.started < b.ended)")" 0
adds_up pn
check "hpod stops cleanly" stop_daemon
done_testing
