#!/bin/sh
# Why is my trial pending?  Slurm's reason for a trial's job that waits
# (squeue's %r) is where the operator looks: hpoctl trials (text "pending
# (Resources)", JSON, CSV, -O pending_reason) and hpoctl status (how many
# pend, the commonest reason), recorded on the attempt when it changes (a
# hold: JobHeldAdmin, back when released) and cleared when the job starts.
# A hold, which will not clear by itself, is logged once as a warning
# naming campaign, trial and job.
. "$(dirname "$0")/lib.subr"

# Each trial takes a whole node (4 GPUs) of the 4: of 5, 1 pends.
sleep_campaign wait 300 5 5
jq '.resources.gpus_per_node = 4' "$T/wait.json" >"$T/w.json"
mv "$T/w.json" "$T/wait.json"
start_daemon
check "submit wait" "$HPOCTL" submit "$T/wait.json"
check "four run" wait_sql "select count(*) from $(of wait) and a.started is not null" 4 30
check "the fifth is submitted" wait_sql "select count(*) from $(of wait) and a.job_id is not null" 5 30
trial=$(sql "select t.number from $(of wait) and a.started is null")
job=$(job_of wait "$trial" 0)
echo "# trial $trial, job $job pends: $(squeue -h -j "$job" -o %r)"

# reason_is REASON: the ledger has REASON for the pending attempt (30 s).
reason_is() {
	wait_sql "select coalesce(a.pending_reason, '') from $(of wait) and t.number = $trial" "$1" 30
}
check "the ledger has Slurm's reason (Resources)" reason_is Resources
is "as squeue says" "$(squeue -h -j "$job" -o %r)" Resources
trials() {
	"$HPOCTL" trials "$@" wait
}
is "hpoctl trials: pending (Resources)" \
    "$(trials | awk -v t="$trial" '$1 == t { print $2, $3 }')" \
    "pending (Resources)"
is "hpoctl trials -O trial,state,pending_reason" \
    "$(trials -h --parsable -O trial,state,pending_reason | grep "^$trial|")" \
    "$trial|pending|Resources"
is "hpoctl trials --format json: pending_reason" \
    "$(trials --format json | jq -r ".[] | select(.trial == $trial) | .pending_reason")" \
    Resources
is "hpoctl trials --format csv: the pending_reason column" \
    "$(trials --format csv | awk -F, -v t="$trial" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "pending_reason") c = i } $1 == t { print $c }')" \
    Resources
is "hpoctl status: 1 pends, for Resources" \
    "$("$HPOCTL" status wait | grep 'pending:')" \
    "      pending: 1 trial, 1 for Resources"
is "hpoctl status --format json" \
    "$("$HPOCTL" status --format json wait | jq -r '"\(.pending) \(.pending_reason)"')" \
    "1 Resources"

# Held: a reason that will not clear by itself.
check "scontrol hold $job" scontrol hold "$job"
check "the ledger has JobHeldAdmin" reason_is JobHeldAdmin
is "hpoctl trials: pending (JobHeldAdmin)" \
    "$(trials | awk -v t="$trial" '$1 == t { print $2, $3 }')" \
    "pending (JobHeldAdmin)"
warn="campaign 'wait': trial $trial: job $job pending (JobHeldAdmin) will not clear by itself, nor by a change of the campaign (scontrol show job $job says what it waits for); hpoctl cancel ends it"
check "the warning names campaign, trial and job" wait_for_log "$warn" "$T/hpod.log" 10
check "scontrol release $job" scontrol release "$job"
check "released: Resources again" reason_is Resources
check "held again" scontrol hold "$job"
check "the ledger has JobHeldAdmin again" reason_is JobHeldAdmin
check "released again" scontrol release "$job"
check "Resources again" reason_is Resources
is "the warning was logged once for the attempt" \
    "$(grep -cF "$warn" "$T/hpod.log")" 1
is "each change is in the ledger's events: held twice" \
    "$(sql "select count(*) from events e join campaigns c on c.id = e.campaign_id where c.name = 'wait' and e.message = 'trial $trial attempt 0: job $job pending (JobHeldAdmin)'")" 2

# A node frees: the job starts, its reason is cleared.
other=$(sql "select t.number from $(of wait) and a.started is not null limit 1")
check "hpoctl cancel --trial $other" "$HPOCTL" cancel --trial "$other" wait
check "trial $trial starts" wait_sql "select count(*) from $(of wait) and t.number = $trial and a.started is not null" 1 30
is "its reason is cleared" \
    "$(sql "select coalesce(a.pending_reason, 'none') from $(of wait) and t.number = $trial")" none
is "hpoctl trials: running, no reason" \
    "$(trials -h --parsable -O trial,state,pending_reason | grep "^$trial|")" \
    "$trial|running|"
is "hpoctl status: no line of pending trials" \
    "$("$HPOCTL" status wait | grep -c 'pending:')" 0
check "hpoctl cancel wait" "$HPOCTL" cancel wait
check "wait ends" wait_campaign wait 30
check "the daemon stops" stop_daemon
done_testing
