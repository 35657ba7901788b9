#!/bin/sh
# A 2-node trial that hpod first sees as it ends (with the timed polls ten
# minutes apart, only its end marker brings a query) is billed its whole
# allocation.  While Slurm completes a job it shows only the nodes still
# completing (fewer nodes, a shorter node list), and a trial recorded
# from that view was billed 1 node of 2.  Here the first node of the
# job's node list takes 3 s in its epilog (slow_epilog), the other none;
# which nodes those are is read from Slurm while the job runs, never
# assumed (the last trial runs with n01 held by another job).  Checked
# for a trial scancelled as it runs ("dispatch": "job" and "chain") and
# one that completes between polls:
# the attempt's nodes, GPUs, CPUs and host list in the ledger and in
# `hpoctl trials`, and its node- and GPU-hours in `hpoctl report`.
HPOD_SLURM_EPILOG=$(cd "$(dirname "$0")" && pwd)/slow_epilog
export HPOD_SLURM_EPILOG
. "$(dirname "$0")/lib.subr"

# Timed polls ten minutes apart: no poll sees the trial run.
cat >>"$CONF" <<CONF
slurm_poll_min = 600000
slurm_poll_max = 600000
CONF

# two_nodes NAME DISPATCH SECONDS: a campaign of one trial of SECONDS, of 2
# nodes, 2 GPUs and 1 CPU on each.
two_nodes() {
	sleep_campaign "$1" "$3" 1 1
	jq ".resources.nodes = 2 | .dispatch = \"$2\"" "$T/$1.json" \
	    >"$T/$1.tmp" && mv "$T/$1.tmp" "$T/$1.json"
}

# running NAME: the Slurm job id of campaign NAME's job once Slurm runs it.
running() {
	cid=$(sql "select id from campaigns where name = '$1'")
	for _ in $(seq 1 600); do
		job=$(squeue -h -t running -o '%i %j' |
		    awk -v n="hpod-$cid-" 'index($2, n) == 1 { print $1 }')
		[ -n "$job" ] && break
		sleep 0.1
	done
	echo "$job"
}

# wait_running JOB: wait up to 30 s until Slurm runs job JOB.
wait_running() {
	for _ in $(seq 1 300); do
		[ "$(squeue -h -j "$1" -o %T)" = RUNNING ] && return 0
		sleep 0.1
	done
	return 1
}

# first_node JOB: the first node of running job JOB's node list, where
# slow_epilog holds it.
first_node() {
	scontrol show hostnames "$(squeue -h -j "$1" -o '%N')" | head -n 1
}

# shrinks JOB NODE: wait up to 10 s until Slurm shows job JOB on NODE
# alone (its other node done, NODE still in its epilog).
shrinks() {
	for _ in $(seq 1 100); do
		[ "$(squeue -h -t all -j "$1" -o '%D %N')" = "1 $2" ] &&
		    return 0
		sleep 0.1
	done
	return 1
}

# billed NAME JOB STATE: the checks of campaign NAME's one attempt, its
# Slurm job JOB, ended STATE.
billed() {
	check "$1: the campaign ends" wait_campaign "$1" 120
	is "$1: its attempt ended $3" \
	    "$(sql "select a.state from $(of "$1")")" "$3"
	is "$1: it is billed 2 nodes, 4 GPUs, 2 CPUs" \
	    "$(sql "select a.nodes || ' ' || a.gpus || ' ' || a.cpus from $(of "$1")")" \
	    "2 4 2"
	hosts=$(squeue -h -t all -j "$2" -o '%N')
	is "$1: its host is Slurm's node list of both nodes ($hosts)" \
	    "$(sql "select a.host from $(of "$1")")" "$hosts"
	is "$1: scontrol counts 2 nodes in it" \
	    "$(scontrol show hostnames "$hosts" | wc -l)" 2
	is "$1: hpoctl trials shows that host" \
	    "$("$HPOCTL" trials --format json "$1" | jq -r '.[0].host')" \
	    "$hosts"
	"$HPOCTL" report --format json "$1" >"$T/$1.report"
	for u in "node 2" "gpu 4"; do
		want=$(sql "select printf('%.9f', (a.ended - a.started) * ${u#* } / 3600.0) from $(of "$1")")
		check "$1: the report's ${u% *}-hours are its elapsed time x ${u#* } ($want)" \
		    jq -e ".cost.${u% *}_hours - $want | fabs < 1e-9 and $want > 0" \
		    "$T/$1.report"
	done
}

start_daemon
# A 60 s trial scancelled 2 s after it runs (so that it has cost), per
# job and chained.
for d in job chain; do
	two_nodes "c$d" "$d" 60
	check "c$d: submit a 2-node trial (dispatch $d)" \
	    "$HPOCTL" submit "$T/c$d.json"
	job=$(running "c$d")
	check "c$d: Slurm runs it ($job)" test -n "$job"
	sleep 2
	is "c$d: hpod has not seen it start" \
	    "$(sql "select count(*) from $(of "c$d") and a.started is not null")" 0
	slow=$(first_node "$job")
	check "c$d: scancel it" scancel "$job"
	check "c$d: while $slow completes it, Slurm shows it on $slow alone" \
	    shrinks "$job" "$slow"
	billed "c$d" "$job" cancelled
done

# A 2 s trial that completes between two polls, placed away from n01:
# another job holds n01's GPUs.
held=$(sbatch --parsable -w n01 -N 1 --gres=gpu:4 -D "$T" -o /dev/null \
    --wrap 'sleep 600')
check "a job holds n01 ($held)" wait_running "$held"
two_nodes short job 2
check "short: submit a 2-node trial of 2 s" "$HPOCTL" submit "$T/short.json"
job=$(running short)
check "short: Slurm runs it ($job)" test -n "$job"
slow=$(first_node "$job")
check "short: it runs elsewhere than n01 ($(squeue -h -j "$job" -o %N))" \
    test "$slow" != n01
is "short: hpod has not seen it start" \
    "$(sql "select count(*) from $(of short) and a.started is not null")" 0
check "short: it ends; while $slow completes it, Slurm shows it on $slow alone" \
    shrinks "$job" "$slow"
billed short "$job" completed
scancel "$held"
check "hpod stops cleanly" stop_daemon
done_testing
