#!/bin/sh
# A node-hour budget after a crash that lost the record of a trial's
# start: the engine's writes go in batches, and hpod SIGKILLed before the
# batch with an attempt's start was committed leaves the attempt in the
# ledger as never started.  The restarted hpod takes the job back
# (local backend) and must count it against the budget from its real
# start, as it counts an attempt whose start was recorded; before, it
# counted it only at its end, and started more trials than the budget
# allowed while it ran.
#
# The campaign runs two trials at once, trial 0 to run for 12 s, the
# others for 3 s, under a budget of 5 node-seconds.  hpod is killed once
# both have started, the ledger is put back as the lost batch leaves it
# (the starts, job ids and running states of the attempts not ended not
# recorded), and hpod is restarted 6 s later: trial 0 has then
# run for more than the budget, which is spent at once: no third trial
# starts, and the campaign finishes with its two when trial 0 ends.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
case $PWD in
*/1-bk/trial-0000/*) sleep 12 ;;
*) sleep 3 ;;
esac
SH
nap_budget bk 5 '"resources": {"cpus_per_task": 1}'
printf 'local_cpus = 2\n' >>"$CONF"

start_daemon
check "the campaign is submitted" "$HPOCTL" submit "$T/bk.json"
wait_count 2 30 "select count(*) from attempts where started > 0"
kill_daemon
# The ledger as the lost batch leaves it: the attempts recorded (their
# commit comes before their jobs exist), their starts not.
sqlite3 "$LEDGER" "update trials set state = 'pending' where id in (select trial_id from attempts where ended is null); update attempts set started = null, job_id = null, host = null, state = 'submitting' where ended is null"
is "the ledger has not the start of the trial still running" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id where a.started is null and a.dir like '%/trial-0000/%'")" 1
sleep 6
start_daemon
check "the restarted hpod finishes the campaign" wait_campaign bk 60
is "the budget stopped it with its two trials: none started after the restart" \
    "$(sql "select count(*) from trials")" 2
check "for the node-hour budget" \
    grep -q "campaign finished: node-hour budget spent (2 trials)" "$T/hpod.log"
is "both attempts were costed from their starts, the running one with its job id" \
    "$(sql "select count(*) from attempts where started > 0 and ended >= started") $(sql "select count(*) from attempts where job_id > 0")" "2 1"
check "hpod stops cleanly" stop_daemon
done_testing
