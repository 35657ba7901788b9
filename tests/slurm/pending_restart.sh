#!/bin/sh
# A restart of hpod changes nothing of a pending trial's reason: the
# reason recorded on its attempt is taken back with it, so the restarted
# daemon writes no second event for it, and a hold it had already warned
# of ("will not clear by itself") is not warned of again, even when held
# anew after a release (once per attempt).  One held only after the
# restart is recorded and warned of, once.
. "$(dirname "$0")/lib.subr"

# Each trial takes a whole node (4 GPUs) of the 4: of 6, 2 pend.
sleep_campaign pr 300 6 6
jq '.resources.gpus_per_node = 4' "$T/pr.json" >"$T/p.json"
mv "$T/p.json" "$T/pr.json"
start_daemon
check "submit pr" "$HPOCTL" submit "$T/pr.json"
check "four run" wait_sql "select count(*) from $(of pr) and a.started is not null" 4 30
check "all six are submitted" wait_sql "select count(*) from $(of pr) and a.job_id is not null" 6 30
a=$(sql "select min(t.number) from $(of pr) and a.started is null")
b=$(sql "select max(t.number) from $(of pr) and a.started is null")
ja=$(job_of pr "$a" 0)
jb=$(job_of pr "$b" 0)
echo "# trials $a (job $ja) and $b (job $jb) pend"

# reason_is TRIAL REASON: the ledger has REASON for TRIAL's attempt (30 s).
reason_is() {
	wait_sql "select coalesce(a.pending_reason, '') from $(of pr) and t.number = $1" "$2" 30
}
# said TRIAL JOB REASON: how many events say TRIAL's JOB pends for REASON.
said() {
	sql "select count(*) from events e join campaigns c on c.id = e.campaign_id where c.name = 'pr' and e.message = 'trial $1 attempt 0: job $2 pending ($3)'"
}
# pends: how many events of pr say a job pends, whatever the reason.
pends() {
	sql "select count(*) from events e join campaigns c on c.id = e.campaign_id where c.name = 'pr' and e.message like 'trial % attempt %: job % pending%'"
}
# warned TRIAL JOB: how many times the log warned that JOB's hold stays.
warned() {
	grep -c "campaign 'pr': trial $1: job $2 pending (JobHeldAdmin) will not clear by itself" "$T/hpod.log" || true
}

check "both wait for Resources" reason_is "$b" Resources
check "scontrol hold $ja" scontrol hold "$ja"
check "the ledger has JobHeldAdmin for trial $a" reason_is "$a" JobHeldAdmin
check "the hold is warned of" wait_for_log \
    "trial $a: job $ja pending (JobHeldAdmin) will not clear" "$T/hpod.log" 10
before=$(pends)
is "one event says trial $a is held" "$(said "$a" "$ja" JobHeldAdmin)" 1
is "one says trial $b waits for Resources" "$(said "$b" "$jb" Resources)" 1

check "SIGTERM: the daemon exits 0" stop_daemon
start_daemon
check "trial $a is re-adopted" wait_for_log "trial $a attempt 0: re-adopted"
check "trial $b is re-adopted" wait_for_log "trial $b attempt 0: re-adopted"
# The backend asks for every job in one query: once the hold of trial $b
# is recorded, the restarted daemon has seen trial $a's job since.
check "scontrol hold $jb" scontrol hold "$jb"
check "the ledger has JobHeldAdmin for trial $b" reason_is "$b" JobHeldAdmin
is "the restart wrote no event for a reason unchanged: only trial $b's hold" \
    "$(pends)" "$((before + 1))"
is "still one event says trial $a is held" "$(said "$a" "$ja" JobHeldAdmin)" 1
is "still one says trial $b waited for Resources" "$(said "$b" "$jb" Resources)" 1
is "trial $a's hold was not warned of again" "$(warned "$a" "$ja")" 1
check "trial $b's hold, new, is warned of" wait_for_log \
    "trial $b: job $jb pending (JobHeldAdmin) will not clear" "$T/hpod.log" 10
is "hpoctl trials: still pending (JobHeldAdmin)" \
    "$("$HPOCTL" trials -h --parsable -O trial,state,pending_reason pr | grep "^$a|")" \
    "$a|pending|JobHeldAdmin"

# Released and held again: a change each, recorded; no second warning.
check "scontrol release $ja" scontrol release "$ja"
check "released: Resources" reason_is "$a" Resources
check "scontrol hold $ja again" scontrol hold "$ja"
check "the ledger has JobHeldAdmin again" reason_is "$a" JobHeldAdmin
is "each change is an event: held twice" "$(said "$a" "$ja" JobHeldAdmin)" 2
check "scontrol release $jb" scontrol release "$jb"
check "trial $b released: Resources" reason_is "$b" Resources
is "trial $a's hold is warned of once for its attempt" "$(warned "$a" "$ja")" 1
is "trial $b's once" "$(warned "$b" "$jb")" 1
check "hpoctl cancel pr" "$HPOCTL" cancel pr
check "pr ends" wait_campaign pr 30
check "the daemon stops" stop_daemon
done_testing
