#!/bin/sh
# The bill is Slurm's: every attempt's start, end and nodes in the ledger
# are those sacct has for its job, to the second, and the report's node-
# and GPU-hours are sacct's (end - start) x the allocation summed.  Slurm
# counts whole seconds, so a job it starts in the second it was submitted
# starts before hpod's clock said the submission was: that job too is
# billed from Slurm's start (it was billed from the submission, short).
. "$(dirname "$0")/lib.subr"

#
# Whether Slurm starts a job in its submission's second depends on where
# in the second slurmctld's scheduling pass falls (the cluster defers
# batch jobs to it), so the trials sleep 1, 1.3 or 1.6 s to spread the
# submissions over the second, and the campaign is run again, up to three
# times, until one holds such a job: the checks below are made on that
# campaign (if none does, the case is reported skipped, not passed).
start_daemon
for bill in bill1 bill2 bill3; do
	sleep_campaign $bill "1, 1.3, 1.6" 10 2
	check "submit $bill" "$HPOCTL" submit "$T/$bill.json"
	check "$bill finishes" wait_campaign $bill 90
	same=$(sql "select count(*) from $(of $bill) and cast(a.started as int) = cast(a.submitted as int)")
	[ "$same" -ge 1 ] && break
	echo "# $bill: no job started in the second it was submitted; again"
done
is "ten attempts, all completed" \
    "$(sql "select count(*) from $(of $bill) and a.state = 'completed'")" 10

# Slurm's record of each attempt's job: "START END NODES" (epoch seconds).
squeue -h -t all -o '%i %A' >"$T/ids"
want=0 bad=
for job in $(sql "select a.job_id from $(of $bill) order by a.id"); do
	raw=$(awk -v j="$job" '$1 == j { print $2 }' "$T/ids")
	set -- $(sacct_job "$raw" 2>/dev/null) 0 0 0
	got=$(sql "select printf('%.3f %.3f %d', a.started, a.ended, a.nodes) from $(of $bill) and a.job_id = '$job'")
	[ "$got" = "$1.000 $2.000 $3" ] || bad="$bad $job($got; sacct $1 $2 $3)"
	want=$((want + ($2 - $1) * $3))
done
is "each attempt's start, end and nodes are sacct's" "$bad" ""
if [ "$same" -ge 1 ]; then
	ok "some job started in the second it was submitted (the case under test)"
else
	ok "# SKIP no job started in the second it was submitted, in 3 campaigns"
fi
"$HPOCTL" report --format json $bill >"$T/bill.out"
is "report: node-hours are sacct's" \
    "$(jq -r '.cost.node_hours * 3600 | round' "$T/bill.out")" "$want"
check "report: node-hours exact" awk -v a="$want" \
    -v b="$(jq -r .cost.node_hours "$T/bill.out")" \
    'BEGIN { d = a / 3600 - b; exit !(d < 1e-9 && d > -1e-9) }'
check "report: GPU-hours are 2 x node-hours" awk \
    -v a="$(jq -r .cost.gpu_hours "$T/bill.out")" \
    -v b="$(jq -r .cost.node_hours "$T/bill.out")" \
    'BEGIN { d = a - 2 * b; exit !(d < 1e-9 && d > -1e-9) }'
check "report: no negative queue wait" \
    test "$(jq -r '.cost.queue_hours >= 0' "$T/bill.out")" = true
check "the daemon stops" stop_daemon
done_testing
