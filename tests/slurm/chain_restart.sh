#!/bin/sh
# "dispatch": "chain" across a restart: hpod is SIGKILLed while two jobs
# run and two wait behind them (--dependency=afterany), and the nodes of
# the two running fail while it is down (NODE_FAIL: their trials are
# retried).  The restarted daemon takes the four back with their lanes:
# each retry is queued behind a lane's running job, so that no more than
# max_parallel ever run at once; every trial ends, and the bill (the
# report's node-hours) is what Slurm's own records of the jobs add up to.
. "$(dirname "$0")/lib.subr"

# running_nodes CID: the nodes of campaign CID's running jobs.
running_nodes() {
	squeue -h -t running -o '%j %N' | grep "^hpod-$1-" | cut -d' ' -f2 |
	    sort -u
}
# slurm_node_s CID: the node-seconds of campaign CID's jobs that ran (all
# but those cancelled before a start), as Slurm's own records have them:
# (end - start) x nodes.
slurm_node_s() {
	squeue -h -t all -o '%j %T %S %e %D' | grep "^hpod-$1-" |
	    while read -r _ st s e n; do
		[ "$st" != CANCELLED ] || continue
		echo "$(( $(date -d "$e" +%s) - $(date -d "$s" +%s) )) $n"
	    done | awk '{ t += $1 * $2 } END { print t + 0 }'
}

start_daemon
chain_campaign restart 10 6 2
check "submit six 10 s trials in two lanes" "$HPOCTL" submit "$T/restart.json"
cid=$(sql "select id from campaigns where name = 'restart'")
check "two run and two wait behind them" wait_sql \
    "select count(*) from $(of restart) and a.job_id is not null" 4 60
for _ in $(seq 1 150); do
	[ "$(running_nodes "$cid" | wc -l)" -ge 1 ] &&
	    [ "$(squeue -h -t running -o %j | grep -c "^hpod-$cid-")" -eq 2 ] &&
	    break
	sleep 0.2
done
nodes=$(running_nodes "$cid" | tr '\n' ' ')
check "two of them run (on $nodes)" test -n "$nodes"
sleep 2		# so that the failed attempts have run a while, at a cost
kill -KILL "$DPID"
wait "$DPID" 2>/dev/null || true
DPID=
# Their nodes fail while hpod is down: both jobs end NODE_FAIL, and the
# two queued behind them start.
for n in $nodes; do
	scontrol update nodename="$n" state=down reason=hpod-test
done
for _ in $(seq 1 150); do
	[ "$(squeue -h -t node_fail -o %j | grep -c "^hpod-$cid-")" -eq 2 ] &&
	    break
	sleep 0.2
done
is "both running jobs ended NODE_FAIL" \
    "$(squeue -h -t node_fail -o %j | grep -c "^hpod-$cid-")" 2
# Back in service (slurmd registering again may have done it already).
for n in $nodes; do
	scontrol update nodename="$n" state=resume 2>/dev/null || true
done
check "hpod restarts" start_daemon
check "it takes the four jobs back" wait_for_log "4 attempts unfinished"
most=0
while [ "$("$HPOCTL" status --format json restart | jq -r .state)" = running ]
do
	n=$(squeue -h -t running -o '%j' | grep -c "^hpod-$cid-" || true)
	[ "$n" -gt "$most" ] && most=$n
	sleep 0.3
done
check "slurmctld never ran more than two at once (squeue: $most)" \
    test "$most" -le 2
is "never more than two ran at once (the ledger's starts and ends)" \
    "$(sql "select a.started || ' 1' from $(of restart) and a.started > 0
    union all select a.ended || ' -1' from $(of restart) and a.started > 0" |
    sort -k1,1g -k2,2n | awk '{ c += $2; if (c > m) m = c }
    END { print m + 0 }')" 2
is "all six trials completed" "$(sql "select count(*) from trials t join
    campaigns c on c.id = t.campaign_id where c.name = 'restart' and
    t.state = 'completed'")" 6
is "two attempts ended node_fail, six completed" "$(sql "select
    group_concat(n, ' ') from (select a.state || ' ' || count(*) as n
    from $(of restart) group by a.state order by a.state)")" \
    "completed 6 node_fail 2"
is "every job Slurm knows of it is in the ledger, ended" "$(squeue -h -t all \
    -o '%j %i' | grep "^hpod-$cid-" | cut -d' ' -f2 | sort | tr '\n' ' ')" \
    "$(sql "select a.job_id from $(of restart) and a.ended is not null" |
    sort | tr '\n' ' ')"
"$HPOCTL" report --format json restart >"$T/restart.report"
is "the report bills the eight attempts" \
    "$(jq -r '"\(.cost.attempts) \(.cost.retried_attempts)"' \
    "$T/restart.report")" "8 2"
want=$(slurm_node_s "$cid")
check "its node-hours ($(jq .cost.node_hours "$T/restart.report") h) are \
Slurm's records' ($want node-s, within 1 s a job)" \
    jq -e "(.cost.node_hours * 3600 - $want) | fabs <= 8" "$T/restart.report"
check "the daemon stops" stop_daemon
done_testing
