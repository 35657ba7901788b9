#!/bin/sh
# A hunt, not a pass/fail test: restart slurmctld again and again while
# short jobs run and new ones (an array and single jobs, each of hpod's
# shape: 1 node, 2 GPUs) are submitted the moment it answers again, as
# tests/slurm/outage.sh does, and catch a job that ends FAILED without
# its script having run.  Each job's script first leaves a marker
# (ran/JOBID), then sleeps; a FAILED job without one never ran its
# script: its record, output file and every log line that names it are
# printed.
#
#	slurm-outage-launch.sh [ROUNDS [DOWN]]
#
# ROUNDS (default 20) restarts; slurmctld stays down DOWN seconds
# (default 30, outage.sh's).  As root, on the throwaway cluster of
# tests/slurm/cluster.sh; HPOD_BENCH_KEEP=1 keeps its directory.
set -eu
ROUNDS=${1:-20}
DOWN=${2:-30}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BENCH=outage
. "$TOP/tests/bench/slurm.subr"
[ -z "${HPOD_BENCH_KEEP:-}" ] || trap '"$TOP/tests/slurm/cluster.sh" stop \
    "$T/sc" >/dev/null 2>&1; echo "kept $T"' EXIT
CL="$TOP/tests/slurm/cluster.sh"
cluster
mkdir -p "$T/ran" "$T/out"
cat >"$T/job.sh" <<EOF
#!/bin/sh
echo "\$(date +%s.%N) \$(hostname) \$SLURMD_NODENAME" >"$T/ran/\$SLURM_JOB_ID"
exec sleep \${NAP:-6}
EOF

# submit: an array of 4 and two single jobs, as hpod's: their ids.
submit() {
	sbatch --parsable -N 1 --gpus-per-node=2 -c 1 -t 10 -D "$T" \
	    -o "$T/out/%A_%a.out" --array=0-3 "$T/job.sh"
	for _ in 1 2; do
		NAP=2 sbatch --parsable -N 1 --gpus-per-node=2 -c 1 -t 10 \
		    -D "$T" -o "$T/out/%j.out" "$T/job.sh"
	done
}

# settle: wait until no job of ours is left pending, running or completing.
settle() {
	for _ in $(seq 1 300); do
		[ -z "$(squeue -h -t PD,R,CG,CF -o %i 2>/dev/null)" ] && return 0
		sleep 0.5
	done
	echo "# jobs still queued after 150 s:"; squeue -t all
}

failed=0
for round in $(seq 1 "$ROUNDS"); do
	submit >/dev/null
	for _ in $(seq 1 100); do
		[ "$(squeue -h -t R -o %i | wc -l)" -ge 4 ] && break
		sleep 0.2
	done
	"$CL" ctld-stop "$T/sc"
	sleep "$DOWN"
	"$CL" ctld-start "$T/sc"
	ids=$(submit)
	settle
	# The final record of each job just submitted: id, state, exit code.
	for id in $ids; do scontrol -o show job "$id"; done 2>/dev/null | awk '{
	    for (i = 1; i <= NF; i++) {
		if ($i ~ /^JobId=/) id = substr($i, 7)
		if ($i ~ /^JobState=/) st = substr($i, 10)
		if ($i ~ /^ExitCode=/) ec = substr($i, 10)
	    }
	    print id, st, ec }' >"$T/states"
	bad=$(awk '$2 != "COMPLETED" { print $1 }' "$T/states")
	echo "round $round: $(awk '{ print $2 }' "$T/states" | sort | uniq -c | tr -s ' \n' ' ')"
	for id in $bad; do
		failed=$((failed + 1))
		echo "# job $id: $(grep "^$id " "$T/states")"
		[ -e "$T/ran/$id" ] && echo "#   its script ran: $(cat "$T/ran/$id")" ||
		    echo "#   its script never ran"
		scontrol -o show job "$id" | sed 's/^/#   /'
		for f in $(scontrol -o show job "$id" | tr ' ' '\n' |
		    sed -n 's/^StdOut=//p'); do
			echo "#   $f:"; sed 's/^/#     /' "$f" 2>/dev/null || true
		done
		grep -h "[^0-9]$id[^0-9]" "$T/sc/log/"*.log | sed 's/^/#   log: /'
	done
	[ "$failed" -eq 0 ] || [ -z "${HPOD_BENCH_STOP:-}" ] || break
done
echo "$failed job(s) not COMPLETED in $ROUNDS rounds"
