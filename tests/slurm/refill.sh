#!/bin/sh
# Refills of a burst go as one job array: when one poll sees several jobs
# end at once, the trials that take their slots are submitted together in
# one request, as the tasks of one array, not as one job each.
. "$(dirname "$0")/lib.subr"

# Timed polls only, 8 s apart: the first poll after the first four
# one-second jobs sees all four ended, and their four refills leave at once.
cat >>"$CONF" <<CONF
slurm_poll_min = 8000
slurm_poll_max = 8000
slurm_poll_kick = 0
CONF
# arrays FROM TO: the distinct job arrays of trials FROM..TO ("" for a job
# that is not an array task).
arrays() {
	sql "select count(distinct case when instr(a.job_id, '_') > 0 then
	    substr(a.job_id, 1, instr(a.job_id, '_') - 1) else a.job_id end)
	    from attempts a join trials t on t.id = a.trial_id
	    where t.number between $1 and $2"
}
tasks() {
	sql "select count(*) from attempts a join trials t on t.id = a.trial_id
	    where t.number between $1 and $2 and a.job_id like '%\\_%' escape '\\'"
}

start_daemon
sleep_campaign burst 1 8 4
check "submit eight 1 s trials, four at a time" "$HPOCTL" submit "$T/burst.json"
check "the campaign finishes" wait_campaign burst 120
is "all eight attempts completed" \
    "$(sql "select count(*) from attempts where state = 'completed'")" 8
lo=$(sql "select min(number) from trials")
is "the first four are tasks of an array" "$(tasks "$lo" $((lo + 3)))" 4
is "... of one array" "$(arrays "$lo" $((lo + 3)))" 1
is "the four refills are tasks of an array too" \
    "$(tasks $((lo + 4)) $((lo + 7)))" 4
is "... of one array, not one job each" "$(arrays $((lo + 4)) $((lo + 7)))" 1
is "two arrays in all" "$(arrays "$lo" $((lo + 7)))" 2
check "the daemon stops" stop_daemon
done_testing
