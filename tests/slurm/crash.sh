#!/bin/sh
# Crash consistency on a real Slurm cluster: the daemon SIGKILLed again and
# again during a campaign of Slurm jobs (at the pause points between
# "attempt recorded" and "submitted", between "submitted" and "job id
# recorded", and between an attempt's end and its trial's new state, and
# at moments just after a restart), restarted each time.
# At the end every job Slurm ran is exactly one attempt, each costed from
# its result.json, and nothing is left in the queue.
#
# HPOD_CRASH_TRIALS and HPOD_CRASH_KILLS make it bigger.
. "$(dirname "$0")/lib.subr"
. "$TOP/tests/t/crash.subr"

TRIALS=${HPOD_CRASH_TRIALS:-60}
KILLS=${HPOD_CRASH_KILLS:-24}
PAR=3

sleep_campaign sc 2 "$TRIALS" "$PAR"
start_daemon
"$HPOCTL" submit "$T/sc.json" >/dev/null
kill_daemon
KILLED=1
crash_loop sc "$KILLS" "$HPOD" -d -v -f "$CONF"
check "hpod was SIGKILLed at least 20 times ($KILLED)" test "$KILLED" -ge 20
start_daemon
check "the campaign finishes after the last restart" wait_campaign sc 300
check "the daemon stops" stop_daemon
is "the campaign finished" "$(campaign_state sc)" finished
evidence sc "$TRIALS"
# Slurm's own record (MinJobAge keeps finished jobs): one job per attempt
# that ran, none submitted twice, every one ended.
slurm_jobs >"$T/sc.jobs"
is "Slurm ran one job per attempt that ran" "$(wc -l <"$T/sc.jobs")" \
    "$(wc -l <"$T/sc.results")"
is "every attempt that reached Slurm has its job id" \
    "$(q sc 'count(*)' 'and a.job_id is not null')" "$(wc -l <"$T/sc.jobs")"
is "every Slurm job completed" "$(grep -vc ' COMPLETED ' "$T/sc.jobs")" 0
echo "# sc: $TRIALS trials, hpod SIGKILLed $KILLED times:" \
    "$(q sc 'count(*)') attempts," \
    "$(q sc 'count(*)' "and (a.reason like 'never started%' or a.reason like '%no job carries%')") never started," \
    "$(grep -c 'sc: trial .* re-adopted' "$T/hpod.log") re-adoptions," \
    "$(wc -l <"$T/sc.jobs") Slurm jobs"
check "PRAGMA integrity_check: ok" \
    test "$(sql 'pragma integrity_check')" = ok
no_process_left
done_testing
