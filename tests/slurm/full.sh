#!/bin/sh
# A failed commit of the engines' ledger batch (the ledger's file system
# full, min_free = 0) is a crash of a Slurm campaign at that point, taken
# back as one once the ledger can be written: the engine is dropped with
# its Slurm jobs left running (sched_release: the backend follows them on
# and tells nobody), and hpod takes the campaign back from the ledger
# without a restart, its jobs adopted again from the controller's view.
# hpod runs with HPOD_TEST_PAUSE=before-launch-commit; at the third pause
# the test fills the ledger's tmpfs, pings hpod while it is full, frees it
# and lets the campaign finish.  With "dispatch": "job" that is trial 2,
# launched when a job of 2 s ended, while one of 12 s runs; with "chain",
# trial 3 queued behind its lane at the start, so that the job ids of
# the jobs already taken were in the lost batch.  Every job Slurm ran must be one attempt in
# the ledger, ended, with its job id, its start as Slurm's record has it
# and its end as its result.json; no attempt submitted twice.
. "$(dirname "$0")/lib.subr"

small_fs

# The first job to start runs 12 s (it runs on while its engine is
# dropped and taken back), the others 2 s.
cat >"$T/bin/nap.sh" <<SH
if mkdir "$T/bin/long" 2>/dev/null; then sleep 12; else sleep 2; fi
SH
# scenario NAME DISPATCH: the campaign NAME of 4 trials, 2 at a time,
# with "dispatch": DISPATCH, on a ledger of its own.
scenario() {
	name=$1
	rm -rf "$T/bin/long" "$T/small/filler"
	LEDGER="$T/small/$name.db"
	RUNS="$T/runs-$name"
	sed "s|^ledger = .*|ledger = $LEDGER|; s|^run_dir = .*|run_dir = $RUNS|" \
	    "$T/small.conf" >"$T/$name.conf"
	sleep_campaign "$name" 1 4 2
	jq ".workload = \"nap\" | .dispatch = \"$2\" |
	    .space = {\"value\": {\"type\": \"choice\", \"values\": [1]}}" \
	    "$T/$name.json" >"$T/$name.tmp" && mv "$T/$name.tmp" "$T/$name.json"

	HPOD_TEST_PAUSE=before-launch-commit "$HPOD" -d -v -f "$T/$name.conf" \
	    2>>"$T/hpod.log" &
	DPID=$!

	PYTHONPATH="$TOP/tests/t" python3 - "$SOCK" "$LEDGER" "$DPID" "$T" \
	    "$T/$name.json" >"$T/drive" <<'PY'
import sys
from paused import drive_full
path, ledger, pid, tdir, specf = sys.argv[1:6]
drive_full(path, ledger, int(pid), specf, tdir + "/small/filler", 180)
PY
	sed 's/^/# /' "$T/drive"

	is "$name: the campaign was submitted" "$(grep '^submit' "$T/drive" | cut -f2)" True
	check "$name: the ledger's file system was filled at the third launch" \
	    grep -q '^filled' "$T/drive"
	is "$name: hpod answered every ping while the disk was full" \
	    "$(grep '^ping-full' "$T/drive" | sort -u | cut -f2)" True
	is "$name: the campaign finished once space was back, without a restart" \
	    "$(sql "select state from campaigns")" finished
	check "$name: hpod logged the failed commit, saying the campaign is taken back" \
	    grep -q "campaign '$name': ledger '$LEDGER': .*database or disk is full; taken back from the ledger when it can be written" "$T/hpod.log"
	# What ran: the attempt directories with a result.json; Slurm's records.
	ran_recorded "$name"
	is "$name: four trials, one attempt each, all completed" \
	    "$(sql "select group_concat(t.number || ':' || a.number || ':' || a.state, ' ') from attempts a join trials t on t.id = a.trial_id")" \
	    "0:0:completed 1:0:completed 2:0:completed 3:0:completed"
	is "$name: Slurm ran one job per attempt that ran (none submitted twice)" \
	    "$(wc -l <"$T/jobs")" "$(echo "$ran" | wc -l)"
	is "$name: every Slurm job completed" "$(grep -vc ' COMPLETED ' "$T/jobs")" 0
	is "$name: every attempt has a job id of its own" \
	    "$(sql "select count(distinct job_id) from attempts where job_id is not null")" 4
	filled=$(grep '^filled' "$T/drive" | cut -f2)
	freed=$(grep '^freed' "$T/drive" | cut -f2)
	taken=0 through=0

	# Each attempt: its job's start and end as Slurm's record says them (whole
	# seconds; result.json's within them), its nodes as the job's.
	for d in $ran; do
		row=$(sql "select job_id || ' ' || printf('%.3f', started) || ' ' || printf('%.3f', ended) || ' ' || nodes from attempts where dir = '$RUNS/$d'")
		set -- $row none 0 0 0
		job=$1
		check "$name: $d: its job $job is one Slurm ran" \
		    grep -q "^$job COMPLETED " "$T/jobs"
		scontrol show job -o "$job" >"$T/rec" 2>/dev/null || true
		n=${d#*/trial-}; n=${n%%/*}; n=${n#"${n%%[1-9]*}"}
		if grep -q "campaign $name: trial ${n:-0} attempt 0: re-adopted" \
		    "$T/hpod.log"; then
			taken=$((taken + 1))
			[ "$(jq -r ".end > $freed" "$RUNS/$d/result.json")" = true ] &&
			    through=$((through + 1))
		fi
		is "$name: $d: its start is its Slurm record's" "${2%.*}" \
		    "$(date -d "$(sed -n 's/.* StartTime=\([^ ]*\) .*/\1/p' "$T/rec")" +%s)"
		is "$name: $d: its end is its Slurm record's" "${3%.*}" \
		    "$(date -d "$(sed -n 's/.* EndTime=\([^ ]*\) .*/\1/p' "$T/rec")" +%s)"
		check "$name: $d: result.json's run lies within them" python3 -c "
import json, sys; r = json.load(open('$RUNS/$d/result.json'))
sys.exit(not ($2 - 1 <= r['start'] and r['end'] <= $3 + 1))"
		is "$name: $d: billed its job's node" "$4" 1
	done
	echo "# $name: $taken attempts adopted again after the failed commit," \
	    "$through of them ended after the disk was freed"
	check "$name: the jobs Slurm had were adopted again, without a restart" \
	    test "$taken" -ge 2
	check "$name: one of them ended after the disk was freed" \
	    test "$through" -ge 1
	"$HPOCTL" report --ledger "$LEDGER" --format json "$name" \
	    >"$T/report.json" || true
	nh=$(jq -r .cost.node_hours "$T/report.json")
	el=$(sql "select sum((ended - started) * nodes) from attempts")
	el=${el:-0}
	echo "# report: $nh node-hours; attempts: $el node-s"
	check "$name: the report's node-hours are the sum of the attempts' cost" \
	    python3 -c "import sys; sys.exit(abs($nh * 3600 - $el) > 0.01)"
	check "$name: hpod stops cleanly" stop_daemon
	is "$name: the ledger is intact" "$(sql "pragma integrity_check")" ok
}

scenario nap-job job
scenario nap-chain chain
done_testing
