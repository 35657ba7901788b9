#!/bin/sh
# A failed ledger commit drops hpod's campaigns (hpod_lost: engine_drop,
# sched_release) while the Slurm backend's submit of a job, sent on a
# worker, is not answered yet, and hpod takes the campaign back once the
# ledger can be written (hpod_retake).  slurmctld is frozen (SIGSTOP) so
# that the submit stays in flight; the ledger's tmpfs is filled and a
# budget request's commit fails.  The submit is answered while the
# campaign is dropped (slurmctld thawed before the disk is freed), after
# it was taken back (thawed after), or not in time (its job looked for
# by its token once slurmctld is thawed); with "dispatch": "job" and
# "chain", and for a pilot's own job ("dispatch": "pilot").  Each way the
# job is neither lost (running, unrecorded, unbilled) nor run twice:
# every job Slurm ran is one attempt (or the one pilot) in the ledger,
# with its job id, start, end and nodes as sacct has them, and
# the report's node- and GPU-hours are the jobs' elapsed time x nodes
# (x GPUs) by sacct's records (sacct --completion: the test cluster
# has no slurmdbd; the GPUs per node from scontrol's record).
. "$(dirname "$0")/lib.subr"

small_fs
ctld=$(cat "$SC/ctld/slurmctld.pid")
port=$(sed -n 's/^SlurmctldPort=//p' "$SLURM_CONF")

# in_flight: hpod holds a connection to slurmctld (its submit is sent
# and not answered).
in_flight() {
	for _ in $(seq 1 50); do
		ss -tnpH state established "( dport = :$port )" |
		    grep -q "pid=$DPID," && return 0
		sleep 0.1
	done
	return 1
}

# submit_frozen NAME: start a hpod of its own for campaign NAME (ledger
# $T/small/NAME.db, run directory $T/runs-NAME, log $T/hpod-NAME.log),
# freeze slurmctld and submit $T/NAME.json.  POLL_MS, if set, is hpod's
# slurm_poll_min and slurm_poll_max.
submit_frozen() {
	LEDGER="$T/small/$1.db"
	RUNS="$T/runs-$1"
	sed "s|^ledger = .*|ledger = $LEDGER|; s|^run_dir = .*|run_dir = $RUNS|" \
	    "$T/small.conf" >"$T/$1.conf"
	if [ -n "${POLL_MS:-}" ]; then
		sed -i "s|^slurm_poll_m\(in\|ax\) = .*|slurm_poll_m\1 = $POLL_MS|" \
		    "$T/$1.conf"
	fi
	"$HPOD" -d -v -f "$T/$1.conf" 2>"$T/hpod-$1.log" &
	DPID=$!
	for _ in $(seq 1 100); do
		"$HPOCTL" ping >/dev/null 2>&1 && break
		sleep 0.1
	done

	kill -STOP "$ctld"
	check "$1: submit the campaign (slurmctld frozen)" \
	    "$HPOCTL" submit "$T/$1.json"
}

# drop_campaign NAME: fill the ledger's file system; a budget request for
# campaign NAME fails to commit, and the failed commit drops NAME.
drop_campaign() {
	PYTHONPATH="$TOP/tests/t" python3 -c \
	    "import sys, paused; paused.fill(sys.argv[1])" "$T/small/filler"
	check "$1: a budget request while the disk is full fails" \
	    sh -c "! '$HPOCTL' budget --max-trials 3 '$1' >/dev/null 2>&1"
	check "$1: the failed commit dropped the campaign" wait_for_log \
	    "campaign '$1': .*taken back from the ledger when it can be written" \
	    "$T/hpod-$1.log"
}

# take_back NAME ORDER JOB: thaw slurmctld and free the disk, so that
# campaign NAME is taken back.  ORDER "dropped": slurmctld is thawed
# first and makes the job whose name matches the grep pattern JOB while
# NAME is dropped; "timedout": the submit's answer first times out while
# NAME is dropped, and slurmctld is thawed once it was taken back;
# "retaken": likewise, without waiting for the time-out; "running":
# as "dropped", until the job runs.
take_back() {
	if [ "$2" = dropped ]; then
		kill -CONT "$ctld"
		check "$1: slurmctld answers the submit while it is dropped" \
		    sh -c 'for i in $(seq 1 100); do squeue -h -t all -o %j |
			grep -q "$1" && exit 0; sleep 0.1; done; exit 1' sh "$3"
	elif [ "$2" = running ]; then
		kill -CONT "$ctld"
		check "$1: the job runs while the campaign is dropped" \
		    sh -c 'for i in $(seq 1 300); do squeue -h -t running -o %j |
			grep -q "$1" && exit 0; sleep 0.1; done; exit 1' sh "$3"
	elif [ "$2" = timedout ]; then
		check "$1: the submit's answer times out while it is dropped" \
		    wait_for_log "submit: .*will look for the job" "$T/hpod-$1.log"
	fi
	rm -f "$T/small/filler"
	check "$1: the campaign is taken back" wait_for_log \
	    "can be written again: campaigns taken back" "$T/hpod-$1.log"
	[ "$2" = dropped ] || [ "$2" = running ] || kill -CONT "$ctld"
}

# scenario NAME ORDER [DISPATCH]: campaign NAME (2 trials of 3 s, one at
# a time, "dispatch": DISPATCH, "job" by default) on a ledger of its own;
# its first submit is in flight when a failed commit drops it (with
# "chain", the second trial's job waits behind it for its job id);
# ORDER "dropped": slurmctld answers while it is dropped,
# "retaken": once it was taken back; "timedout": it is not answered in
# time (slurmctld makes the job once thawed, after the campaign was taken
# back: hpod must find it by its token).
scenario() {
	name=$1
	sleep_campaign "$name" 3 2 1
	jq ".dispatch = \"${3:-job}\"" "$T/$name.json" >"$T/$name.tmp" &&
	    mv "$T/$name.tmp" "$T/$name.json"
	submit_frozen "$name"
	check "$name: its first attempt is recorded before its job is submitted" \
	    wait_sql "select count(*) > 0 from attempts" 1 10
	check "$name: the submit is in flight (hpod waits on slurmctld)" in_flight
	drop_campaign "$name"
	echo "# $name: at the drop: $(sql "select count(*) from attempts") attempts recorded, $(sql "select count(*) from attempts where after_id is not null") chained"
	cid=$(sql "select id from campaigns where name = '$name'")
	take_back "$name" "$2" "^hpod-$cid-"
	if grep -q "submit: .*will look for the job" "$T/hpod-$name.log"; then
		echo "# $name: the submit timed out: its job was looked for"
	fi
	check "$name: the campaign finishes" wait_campaign "$name" 120
	sed 's/^/# hpod: /' "$T/hpod-$name.log" | grep -i 'adopt\|taken\|submit' || true

	ran_recorded "$name"
	is "$name: two trials, one attempt each, both completed" \
	    "$(sql "select group_concat(t.number || ':' || a.number || ':' || a.state, ' ') from attempts a join trials t on t.id = a.trial_id")" \
	    "0:0:completed 1:0:completed"
	is "$name: Slurm ran one job per attempt (none submitted twice)" \
	    "$(wc -l <"$T/jobs")" 2
	is "$name: every Slurm job completed" "$(grep -vc ' COMPLETED ' "$T/jobs")" 0
	is "$name: every attempt has a job id of its own" \
	    "$(sql "select count(distinct job_id) from attempts where job_id is not null")" 2
	slurm_node_s=0 slurm_gpu_s=0
	for job in $(cut -d' ' -f1 "$T/jobs"); do
		set -- $(sacct_job "$job") 0 0 0
		s=$1 e=$2 n=$3
		scontrol show job -o "$job" >"$T/rec"
		# GPUs: per node as asked (the cluster does not count gres TRES).
		g=$(sed -n 's/.* TresPerNode=[^ ]*gpu:\([0-9]*\).*/\1/p' "$T/rec")
		g=$((${g:-0} * n))
		[ "$g" -gt 0 ] || sed 's/^/# no GPUs in: /' "$T/rec"
		row=$(sql "select cast(started as int) || ' ' || cast(ended as int) || ' ' || nodes || ' ' || gpus from attempts where job_id = '$job'")
		is "$name: job $job: one attempt, with sacct's start, end and nodes, its GPUs" \
		    "$row" "$s $e $n $g"
		slurm_node_s=$((slurm_node_s + (e - s) * n))
		slurm_gpu_s=$((slurm_gpu_s + (e - s) * g))
	done
	"$HPOCTL" report --ledger "$LEDGER" --format json "$name" >"$T/report.json"
	echo "# $name: report $(jq -c .cost "$T/report.json")"
	echo "# $name: sacct: $slurm_node_s node-s, $slurm_gpu_s GPU-s"
	# Slurm's records are in whole seconds: 1 s per job either way.
	check "$name: the report's node-hours are sacct's jobs' (within 1 s each)" \
	    jq -e "(.cost.node_hours * 3600 - $slurm_node_s) | fabs <= 2" \
	    "$T/report.json"
	check "$name: the report's GPU-hours are sacct's jobs' (within 1 s each)" \
	    jq -e "(.cost.gpu_hours * 3600 - $slurm_gpu_s) | fabs <= 2 * 2" \
	    "$T/report.json"
	check "$name: hpod stops cleanly" stop_daemon
	is "$name: the ledger is intact" "$(sql "pragma integrity_check")" ok
}

# pilot_scenario NAME ORDER: the same for campaign NAME of 2 trials of 2
# s in one pilot ("dispatch": "pilot", 2 GPUs): the pilot's own job is
# the submit in flight (its row is committed before it is sent), handed
# over with sched_pilot_release.
pilot_scenario() {
	name=$1
	sleep_campaign "$name" 2 2 1
	jq '. + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1, "gpus": 2}}' \
	    "$T/$name.json" >"$T/$name.tmp" && mv "$T/$name.tmp" "$T/$name.json"
	submit_frozen "$name"
	check "$name: its pilot is recorded before its job is submitted" \
	    wait_sql "select count(*) from pilots" 1 10
	check "$name: the pilot's submit is in flight" in_flight
	drop_campaign "$name"
	take_back "$name" "$2" "^hpo-pilot-.*-$name\$"
	check "$name: the campaign finishes" wait_campaign "$name" 120
	squeue -h -t all -o '%i %T %j' |
	    awk -v n="$name" '$3 ~ "^hpo-pilot-.*-" n "$" { print $1, $2 }' \
	    >"$T/jobs"
	sed 's/^/# slurm: /' "$T/jobs"
	is "$name: Slurm ran one pilot job, and it completed" \
	    "$(cut -d' ' -f2 "$T/jobs" | tr '\n' ' ')" "COMPLETED "
	job=$(cut -d' ' -f1 "$T/jobs")
	is "$name: one pilot in the ledger, that job, ended" \
	    "$(sql "select count(*) || ' ' || group_concat(job_id) || ' ' || (ended > started) from pilots")" \
	    "1 $job 1"
	is "$name: two trials completed in it, one attempt each" \
	    "$(sql "select group_concat(t.number || ':' || a.state || ':' || a.job_id, ' ') from attempts a join trials t on t.id = a.trial_id")" \
	    "0:completed:$job.p1 1:completed:$job.p2"
	set -- $(sacct_job "$job") 0 0 0
	s=$1 e=$2 n=$3
	is "$name: the pilot with sacct's start, end and nodes" \
	    "$(sql "select cast(started as int) || ' ' || cast(ended as int) || ' ' || nodes || ' ' || gpus from pilots")" \
	    "$s $e $n 2"
	"$HPOCTL" report --ledger "$LEDGER" --format json "$name" >"$T/report.json"
	echo "# $name: report $(jq -c '.cost | {node_hours, gpu_hours}' "$T/report.json");" \
	    "sacct: $(((e - s) * n)) node-s"
	check "$name: the report's node-hours are the pilot job's (within 1 s)" \
	    jq -e "(.cost.node_hours * 3600 - $(((e - s) * n))) | fabs <= 2" \
	    "$T/report.json"
	check "$name: the report's GPU-hours are the pilot job's (within 1 s)" \
	    jq -e "(.cost.gpu_hours * 3600 - $(((e - s) * 2))) | fabs <= 4" \
	    "$T/report.json"
	check "$name: hpod stops cleanly" stop_daemon
	is "$name: the ledger is intact" "$(sql "pragma integrity_check")" ok
}

scenario drop-answered dropped
scenario drop-retaken retaken
scenario drop-timedout timedout
scenario chain-answered dropped chain
scenario chain-retaken retaken chain
pilot_scenario pilot-answered dropped
pilot_scenario pilot-retaken retaken
# Answered and running while dropped, polled every 4 s: the pilot's agent
# calls the campaign taken back before a poll has found the pilot's job
# id by its token, so the pilot runs with no id yet.  It is given no trial until its
# id is known: its trials' ids are JOBID.pN, by which the ledger charges
# them to it (given at once, they were TOKEN.pN and billed twice).
POLL_MS=4000 pilot_scenario pilot-late-id running
done_testing
