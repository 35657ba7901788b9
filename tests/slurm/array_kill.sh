#!/bin/sh
# hpod SIGKILLed while a campaign's first wave runs as one Slurm job
# array, and restarted: every array task is taken back and billed as
# Slurm bills it.  Trials 0 and 1 sleep 3 s and end while hpod is dead,
# trials 2 and 3 sleep 12 s and still run when it is back; each
# attempt's start, end and nodes must be those sacct has for its task
# (sacct --completion: the test cluster has no slurmdbd), and the
# report's node-hours their sum.  Twice: as the kill leaves the ledger,
# and with the batch that held the tasks' starts lost (as
# tests/slurm/budget_kill.sh loses it: the array's job ids, committed at
# its submission, kept), so that every start is Slurm's word.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/bin/nap.sh" <<'SH'
if [ "$HPO_TRIAL" -ge 2 ]; then sleep 12; else sleep 3; fi
SH

# array_kill NAME [SQL]: run campaign NAME, SIGKILL hpod under its array,
# change the ledger by SQL, restart hpod, and check the bill.
array_kill() {
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 4, "max_parallel": 4},
 "backend": "slurm",
 "resources": {"nodes": 1, "cpus_per_task": 1, "time_limit": "00:05:00"}}
JSON
	start_daemon
	check "$1: the campaign is submitted" "$HPOCTL" submit "$T/$1.json"
	check "$1: its four trials start" wait_sql \
	    "select count(*) from $(of $1) and a.started > 0" 4 60
	is "$1: they went as one job array" \
	    "$(sql "select count(distinct substr(a.job_id, 1, instr(a.job_id, '_') - 1)) || ' ' || count(*) from $(of $1) and a.job_id like '%\\_%' escape '\\'")" \
	    "1 4"
	kill_daemon
	[ -z "${2:-}" ] || sqlite3 "$LEDGER" "$2"
	# Trials 0 and 1 end while hpod is dead.
	sleep 5
	start_daemon
	check "$1: the restarted hpod finishes the campaign" \
	    wait_campaign "$1" 120
	check "$1: the daemon stops" stop_daemon
	is "$1: four attempts, all completed" \
	    "$(sql "select count(*) from $(of $1) and a.state = 'completed'")" 4

	# Slurm's record of each task: "START END NODES" by its own job id.
	squeue -h -t all -o '%i %A' >"$T/ids"
	want=0 bad= n=0
	for job in $(sql "select a.job_id from $(of $1) order by a.id"); do
		raw=$(awk -v j="$job" '$1 == j { print $2 }' "$T/ids")
		set -- "$1" $(sacct_job "$raw" 2>/dev/null) 0 0 0
		got=$(sql "select printf('%.3f %.3f %d', a.started, a.ended, a.nodes) from $(of $1) and a.job_id = '$job'")
		echo "# $job (job $raw): ledger $got; sacct $2 $3 $4"
		[ "$got" = "$2.000 $3.000 $4" ] ||
		    bad="$bad $job($got; sacct $2 $3 $4)"
		want=$((want + ($3 - $2) * $4))
		n=$((n + 1))
	done
	is "$1: Slurm ran one job per attempt" "$n" 4
	is "$1: each task's start, end and nodes are sacct's" "$bad" ""
	check "$1: Slurm billed every task a whole second or more" \
	    test "$want" -ge 4
	"$HPOCTL" report --ledger "$LEDGER" --format json "$1" >"$T/report.json"
	is "$1: report: node-seconds are sacct's" \
	    "$(jq -r '.cost.node_hours * 3600 | round' "$T/report.json")" \
	    "$want"
}

array_kill ak
array_kill akl "update trials set state = 'pending' where id in (select trial_id from attempts where ended is null); update attempts set started = null, host = null, state = 'pending' where ended is null"
is "the ledger lost the starts of akl's tasks, not their job ids" \
    "$(grep -c "campaign akl: trial [0-3] attempt 0: re-adopted ([0-9]*_[0-3])" "$T/hpod.log")" 4
is "Slurm ran one job per attempt, in all" "$(slurm_jobs | wc -l)" 8
done_testing
