#!/bin/sh
# A 2-node trial that hpod first sees as it ends (with the timed polls ten
# minutes apart, only its end marker brings a query) is billed its whole
# allocation.  While Slurm completes a job it shows only the nodes still
# completing (fewer nodes, a shorter node list); here n01's epilog takes
# 3 s (slow_epilog), the other node's none, and a trial recorded from that
# view was billed 1 node of 2.  Checked for a trial scancelled as it runs
# ("dispatch": "job" and "chain") and one that completes between polls:
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

# shrinks JOB: wait up to 10 s until Slurm shows job JOB on n01 alone (its
# other node done, n01 still in its epilog).
shrinks() {
	for _ in $(seq 1 100); do
		[ "$(squeue -h -t all -j "$1" -o '%D %N')" = "1 n01" ] &&
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
	check "c$d: scancel it" scancel "$job"
	check "c$d: while n01 completes it, Slurm shows it on n01 alone" \
	    shrinks "$job"
	billed "c$d" "$job" cancelled
done

# A 2 s trial that completes between two polls.
two_nodes short job 2
check "short: submit a 2-node trial of 2 s" "$HPOCTL" submit "$T/short.json"
job=$(running short)
check "short: Slurm runs it ($job)" test -n "$job"
is "short: hpod has not seen it start" \
    "$(sql "select count(*) from $(of short) and a.started is not null")" 0
check "short: it ends; while n01 completes it, Slurm shows it on n01 alone" \
    shrinks "$job"
billed short "$job" completed
check "hpod stops cleanly" stop_daemon
done_testing
