#!/bin/sh
# "dispatch": "chain" taken back from a ledger that did not record its
# lanes: a campaign that ran under a build older than attempts.after_id
# (schema 8), its ledger upgraded in place, has no after_id for the jobs
# queued behind the running ones.  As in chain_restart.sh, hpod is
# SIGKILLed while two jobs run and two wait behind them, and the nodes of
# the two running fail while it is down; before the restart every
# after_id is set NULL, as the upgrade leaves them.  The restarted daemon
# must take the four back in two lanes (the later two queued behind the
# earlier, in submission order): each retry is queued behind a lane's
# running job, and never more than two run at once.
. "$(dirname "$0")/lib.subr"

# running_nodes CID: the nodes of campaign CID's running jobs.
running_nodes() {
	squeue -h -t running -o '%j %N' | grep "^hpod-$1-" | cut -d' ' -f2 |
	    sort -u
}

start_daemon
chain_campaign upgrade 10 6 2
check "submit six 10 s trials in two lanes" "$HPOCTL" submit "$T/upgrade.json"
cid=$(sql "select id from campaigns where name = 'upgrade'")
check "two run and two wait behind them" wait_sql \
    "select count(*) from $(of upgrade) and a.job_id is not null" 4 60
for _ in $(seq 1 150); do
	[ "$(running_nodes "$cid" | wc -l)" -ge 1 ] &&
	    [ "$(squeue -h -t running -o %j | grep -c "^hpod-$cid-")" -eq 2 ] &&
	    break
	sleep 0.2
done
nodes=$(running_nodes "$cid" | tr '\n' ' ')
check "two of them run (on $nodes)" test -n "$nodes"
is "the two waiting were recorded behind the running ones" \
    "$(sql "select count(*) from $(of upgrade) and a.after_id is not null")" 2
sleep 2
kill -KILL "$DPID"
wait "$DPID" 2>/dev/null || true
DPID=
# The ledger as an upgrade from schema 7 leaves it: no lanes.
sqlite3 "$LEDGER" "update attempts set after_id = NULL"
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
for n in $nodes; do
	scontrol update nodename="$n" state=resume 2>/dev/null || true
done
check "hpod restarts" start_daemon
check "it takes the four jobs back" wait_for_log "4 attempts unfinished"
check "it says it took the lanes from the submission order" \
    wait_for_log "2 of 4 unfinished attempts taken as queued behind"
most=0
while [ "$("$HPOCTL" status --format json upgrade | jq -r .state)" = running ]
do
	n=$(squeue -h -t running -o '%j' | grep -c "^hpod-$cid-" || true)
	[ "$n" -gt "$most" ] && most=$n
	sleep 0.3
done
check "slurmctld never ran more than two at once (squeue: $most)" \
    test "$most" -le 2
is "never more than two ran at once (the ledger's starts and ends)" \
    "$(sql "select a.started || ' 1' from $(of upgrade) and a.started > 0
    union all select a.ended || ' -1' from $(of upgrade) and a.started > 0" |
    sort -k1,1g -k2,2n | awk '{ c += $2; if (c > m) m = c }
    END { print m + 0 }')" 2
is "all six trials completed" "$(sql "select count(*) from trials t join
    campaigns c on c.id = t.campaign_id where c.name = 'upgrade' and
    t.state = 'completed'")" 6
is "two attempts ended node_fail, six completed" "$(sql "select
    group_concat(n, ' ') from (select a.state || ' ' || count(*) as n
    from $(of upgrade) group by a.state order by a.state)")" \
    "completed 6 node_fail 2"
check "the daemon stops" stop_daemon
done_testing
