#!/bin/sh
# A job Slurm takes but can never start as the cluster is set: a campaign
# for 5 nodes of a 4-node partition, submitted to the daemon while the
# controller is frozen (sbatch --test-only gets no answer, which refuses
# nothing: tests/slurm/submit_shape.sh), pends for ever (PartitionNodeLimit).
# hpod says so once, in its log, naming campaign, trial, job, Slurm's
# reason and the key to change; hpoctl trials shows the reason; hpoctl
# cancel ends it, at no cost.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign big 1 1 1
jq '.resources.nodes = 5' "$T/big.json" >"$T/big.tmp" && mv "$T/big.tmp" "$T/big.json"
ctld=$(cat "$SC/ctld/slurmctld.pid")
kill -STOP "$ctld"
check "submit 5 nodes to a 4-node cluster" "$HPOCTL" submit "$T/big.json"
kill -CONT "$ctld"
check "its job pends" wait_sql "select count(*) from $(of big) and a.job_id is not null" 1 30
job=$(job_of big 0 0)
for _ in $(seq 1 100); do
	[ "$(squeue -h -j "$job" -o %r)" = PartitionNodeLimit ] && break
	sleep 0.2
done
is "Slurm says why" "$(squeue -h -j "$job" -o %r)" PartitionNodeLimit
# slurmctld may say PartitionConfig first, which is no warning.
check "hpod warns it will not start, why, and the key to change" \
    wait_for_log "campaign 'big': trial 0: job $job pending (PartitionNodeLimit) will not clear by itself: change resources\.nodes; hpoctl cancel ends it" \
    "$T/hpod.log" 60
grep "will not clear" "$T/hpod.log" | sed 's/^/# /'
is "said once" "$(grep -c "job $job pending .* will not clear" "$T/hpod.log")" 1
check "hpoctl trials shows Slurm's reason" wait_sql \
    "select a.pending_reason from $(of big)" PartitionNodeLimit 30
is "hpoctl trials: pending (PartitionNodeLimit)" \
    "$("$HPOCTL" trials -h big | awk '{ print $2, $3 }')" \
    "pending (PartitionNodeLimit)"
check "hpoctl cancel" "$HPOCTL" cancel big
check "the campaign ends" wait_campaign big 30
is "its attempt cancelled, never started, no cost" \
    "$(sql "select a.state || ' ' || coalesce(a.started, 0) from $(of big)")" \
    "cancelled 0"
check "the daemon stops" stop_daemon
done_testing
