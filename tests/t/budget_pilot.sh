#!/bin/sh
# A node-hour budget after a crash that lost the record of the start of
# a trial running in a pilot (dispatch "pilot", local backend): as in
# budget_kill.sh, hpod SIGKILLed before the batch with the attempt's
# start was committed leaves it in the ledger handed to its pilot (its
# job id PILOT.pN) but never started.  The restarted hpod takes the pilot
# and its trials back and must count the trial against the budget from
# its real start (its result.json's); before, the pilot backend said
# nothing of it until its end, and more trials started than the budget
# allowed while it ran.
#
# One pilot of 2 CPUs runs two trials of 1 CPU at once (each charged half
# the node), trial 0 for 12 s, the others for 3 s, under a budget of 2.5
# node-seconds.  hpod is killed once both have started, the ledger is put
# back as the lost batch leaves it, and hpod is restarted 6 s later:
# trial 0 has then been charged more than the budget, which is spent at
# once: no third trial starts, and the campaign finishes with its two.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
# In a pilot the workload runs where its agent does: its trial's number
# is in its environment.
if [ "$HPO_TRIAL" = 0 ]; then sleep 12; else sleep 3; fi
SH
nap_budget bp 2.5 '"resources": {"cpus_per_task": 1},
 "dispatch": "pilot", "pilot": {"count": 1, "cpus": 2}'
printf 'local_cpus = 2\n' >>"$CONF"

start_daemon
check "the campaign is submitted" "$HPOCTL" submit "$T/bp.json"
wait_count 2 30 "select count(*) from attempts where started > 0 and job_id like '%.p%'"
kill_daemon
# The ledger as the lost batch leaves it: the attempts handed to the
# pilot (their job ids PILOT.pN, committed before their agent ran them),
# their starts not.
sqlite3 "$LEDGER" "update trials set state = 'pending' where id in (select trial_id from attempts where ended is null); update attempts set started = null, host = null, node_share = null, state = 'pending' where ended is null"
is "the ledger has not the start of the trial still running" \
    "$(sql "select count(*) from attempts a where a.started is null and a.job_id like '%.p%' and a.dir like '%/trial-0000/%'")" 1
sleep 6
start_daemon
check "the restarted hpod finishes the campaign" wait_campaign bp 60
check "its pilot was re-adopted" grep -q "campaign bp: pilot .*: re-adopted" "$T/hpod.log"
is "the budget stopped it with its two trials: none started after the restart" \
    "$(sql "select count(*) from trials")" 2
check "for the node-hour budget" \
    grep -q "campaign finished: node-hour budget spent (2 trials)" "$T/hpod.log"
is "both attempts were costed from their starts, at half the pilot's node" \
    "$(sql "select count(*) from attempts where started > 0 and ended >= started and node_share = 0.5")" 2
check "hpod stops cleanly" stop_daemon
done_testing
