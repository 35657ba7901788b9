#!/bin/sh
# slurmctld stopped for 30 s mid-campaign and started again: hpod keeps
# retrying with back-off, loses no trial, fails none, and submits nothing
# twice, also for a campaign submitted while the controller is down.
. "$(dirname "$0")/lib.subr"
. "$TOP/tests/t/crash.subr"

start_daemon
sleep_campaign before 6 8 4
check "submit a campaign" "$HPOCTL" submit "$T/before.json"
check "four jobs run" wait_sql \
    "select count(*) from attempts where started is not null and ended is null" 4 30
check "stop slurmctld" "$CLUSTER" ctld-stop "$SC"
check "sbatch fails while it is down" sh -c "! sbatch --wrap true 2>/dev/null"
sleep_campaign during 2 4 4
check "submit a campaign while slurmctld is down" "$HPOCTL" submit \
    "$T/during.json"
sleep 30
is "nothing failed during the outage" \
    "$(sql "select count(*) from attempts where state not in ('submitting', 'pending', 'running', 'completed')")" 0
check "start slurmctld again" "$CLUSTER" ctld-start "$SC"
check "the first campaign finishes" wait_campaign before 120
check "the second campaign finishes" wait_campaign during 60
states=$(sql "select group_concat(state || ' ' || n, ', ') from (select state, count(*) as n from trials group by state)")
is "all twelve trials completed" "$states" "completed 12"
# A job that Slurm failed to launch (it ended before hpo-trial started
# the workload: lost, "a launch failure", tests/slurm/launch_fail.sh) is
# the batch system's and is retried: one more attempt each, and nothing
# else may be left not completed (nor may hpo-trial's own refusals, 64
# and 74, which are hpod's doing).  Each such job's record and Slurm's
# output file (where slurmstepd says why) are shown, whether or not the
# test fails, and so is the rest on a failure.
relaunched=$(sql "select count(*) from attempts where state = 'lost' and reason like '%: a launch failure' and exit_code not in (64, 74)")
if [ "$states" != "completed 12" ] || [ "$relaunched" != \
    "$(sql "select count(*) from attempts where state != 'completed'")" ]; then
	sql "select t.id, t.state, a.id, a.state, a.job_id, a.reason from trials t left join attempts a on a.trial_id = t.id where t.state != 'completed'" >&2
	tail -n 40 "$T/hpod.log" >&2
fi
for d in $(sql "select dir from attempts where state != 'completed'"); do
	echo "# $d ($(sql "select state || ': ' || reason from attempts where dir = '$d'")):" >&2
	ls -la "$d" >&2 || true
	tail -n 20 "$d"/* >&2 2>/dev/null || true
	rec=$(scontrol -o show job "$(sql "select job_id from attempts where dir = '$d'")" 2>/dev/null) || rec=
	echo "$rec" >&2
	out=$(echo "$rec" | tr ' ' '\n' | sed -n 's/^StdOut=//p')
	[ -z "$out" ] || { echo "# $out:" >&2; tail -n 20 "$out" >&2 || true; }
done
is "one attempt per trial, one more per launch failure: none duplicated" \
    "$(sql 'select count(*) from attempts')" $((12 + relaunched))
is "Slurm ran one job per attempt" "$(slurm_jobs | wc -l)" $((12 + relaunched))
is "every job id is distinct" \
    "$(sql 'select count(distinct job_id) from attempts')" $((12 + relaunched))
check "the outage was logged" grep -q "cannot query slurmctld" "$T/hpod.log"
check "and the recovery" grep -q "slurmctld answers again" "$T/hpod.log"

# A submit whose answer is lost: slurmctld is frozen, so the request is
# sent but never answered in time; thawed, it creates the job anyway.
# hpod must find that job by its token instead of submitting a second.
# It is frozen once the campaign's sbatch --test-only has answered (hpod,
# restarted with a pause point, stops itself before it commits the
# submit), so that the job's submit is the request left unanswered.
check "the daemon stops" stop_daemon
export HPOD_TEST_PAUSE=before-commit
start_daemon
unset HPOD_TEST_PAUSE
ctld=$(cat "$SC/ctld/slurmctld.pid")
sleep_campaign lost 2 1 1
"$HPOCTL" submit "$T/lost.json" >/dev/null 2>&1 &
sub=$!
check "hpod stops itself before it commits the submit" settle "$DPID"
kill -STOP "$ctld"
kill -CONT "$DPID"
rc=0
wait "$sub" || rc=$?
is "submit while slurmctld is frozen" "$rc" 0
for _ in $(seq 1 40); do
	grep -q "submit: .*will look for the job" "$T/hpod.log" && break
	sleep 0.5
done
check "the lost answer was logged" grep -q "submit: .*will look for the job" \
    "$T/hpod.log"
kill -CONT "$ctld"
check "the campaign finishes" wait_campaign lost 60
is "lost: one attempt, completed" \
    "$(sql "select a.state || ' ' || count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'lost'")" \
    "completed 1"
tok=$(sql "select a.token from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'lost'")
is "Slurm holds exactly one job for it" "$(slurm_jobs | grep -c " $tok\$")" 1
check "the job the frozen controller made was found, not submitted again" \
    sh -c "! grep -q 'no job carries token $tok' '$T/hpod.log'"
check "the daemon stops" stop_daemon
done_testing
