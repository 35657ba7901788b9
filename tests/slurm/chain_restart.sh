#!/bin/sh
# "dispatch": "chain" across a restart: hpod is SIGKILLed while two jobs
# run and two wait behind them (--dependency=afterany), and the nodes of
# the two running fail while it is down (NODE_FAIL: their trials are
# retried).  The restarted daemon takes the four back with their lanes:
# each retry is queued behind a lane's running job, so that no more than
# max_parallel ever run at once; every trial ends, and the bill (the
# report's node-hours) is what Slurm's own records of the jobs add up to.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/chain.subr"

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

chain_start restart
chain_kill
chain_fail
chain_end restart
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
