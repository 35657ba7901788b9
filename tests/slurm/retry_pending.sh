#!/bin/sh
# A trial retried after its node failed waits in the queue again: while
# its new attempt pends (every other node taken), hpoctl trials and the
# ledger say pending, not running; it then completes, both attempts
# recorded.  One whose retry.limit is spent fails, and hpod's log says
# why it was not retried.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign crash 5 1 1
check "submit crash" "$HPOCTL" submit "$T/crash.json"
running="select count(*) from $(of crash) and a.started is not null"
check "crash runs" wait_sql "$running" 1 30
jid=$(job_of crash 0 0)
node=$(squeue -h -j "$jid" -o %N)
# Take every other node, so that the retry has to wait.
for n in n01 n02 n03 n04; do
	[ "$n" = "$node" ] && continue
	sbatch -Q -w "$n" --exclusive -o /dev/null -J blocker \
	    --wrap 'sleep 300' >/dev/null
done
check "set $node DOWN" scontrol update nodename="$node" state=down \
    reason=hpod-test
check "the retry is submitted" wait_sql \
    "select count(*) from $(of crash) and a.number = 1 and a.job_id is not null" 1 30
retry=$(job_of crash 0 1)
check "Slurm holds the retry $retry pending" sh -c \
    "squeue -h -j '$retry' -o %T | grep -qx PENDING"
is "the trial is pending while its retry waits" \
    "$(sql "select t.state from trials t join campaigns c on c.id = t.campaign_id where c.name = 'crash'")" pending
is "hpoctl trials says pending" \
    "$("$HPOCTL" trials crash | awk 'NR == 2 { print $2 }')" pending
scancel -J blocker 2>/dev/null || squeue -h -o '%i %k' |
    awk '$2 == "blocker" { print $1 }' | xargs -r scancel
check "crash finishes" wait_campaign crash 60
is "attempts: node_fail, completed" \
    "$(sql "select group_concat(a.state, ',') from $(of crash) order by a.number")" \
    node_fail,completed
is "the trial completed" \
    "$(sql "select t.state from trials t join campaigns c on c.id = t.campaign_id where c.name = 'crash'")" completed

sleep_campaign once 60 1 1
jq '. + {"retry": {"limit": 0}}' "$T/once.json" >"$T/o.json"
mv "$T/o.json" "$T/once.json"
check "submit once (retry.limit 0)" "$HPOCTL" submit "$T/once.json"
check "once runs" wait_sql "select count(*) from $(of once) and a.started is not null" 1 30
node=$(squeue -h -j "$(job_of once 0 0)" -o %N)
check "set $node DOWN" scontrol update nodename="$node" state=down \
    reason=hpod-test
check "once ends" wait_campaign once 60
is "once: one attempt, node_fail; the trial failed" \
    "$(sql "select group_concat(a.state) || ' ' || t.state from $(of once)")" \
    "node_fail failed"
check "the log says why it was not retried" grep -q \
    "campaign once: trial 0: node_fail: slurm NODE_FAIL, no eval_error reported; not retried: retry.limit 0 spent" \
    "$T/hpod.log"
check "the daemon stops" stop_daemon
done_testing
