#!/bin/sh
# resources.sbatch_extra: sbatch options hpod does not model go through the
# sbatch program.  hpoctl check, run and submit ask sbatch --test-only
# about them first.
# A good one lands on the job (scontrol show job), and the
# job is followed as any other: it completes, or is cancelled by hpoctl
# cancel.  One the controller refuses fails the attempt with the message
# sbatch itself gives, and so does one sbatch does not know.  sbatch reads
# the SBATCH_* variables of hpod's environment (SBATCH_RESERVATION here).
. "$(dirname "$0")/lib.subr"

start_daemon

# extra_campaign NAME SECONDS SBATCH-EXTRA-JSON
extra_campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "sleep",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {"seconds": {"type": "choice", "values": [$2]}},
  "search": {"algorithm": "random", "seed": 1},
  "budget": {"max_trials": 1, "max_parallel": 1},
  "retry": {"limit": 0},
  "backend": "slurm",
  "resources": {"nodes": 1, "cpus_per_task": 1, "time_limit": "10",
      "mem": 100, "sbatch_extra": $3}
}
JSON
}
# of NAME COLUMN: a column of the campaign's first attempt.
of() {
	sql "select a.$2 from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1'"
}

extra_campaign good 1 '["--licenses=hpodlic:1", "--nice=7"]'
# hpoctl check asks the controller first: sbatch --test-only.
check "hpoctl check: sbatch --test-only takes it" sh -c \
    "'$HPOCTL' check '$T/good.json' | grep -q 'good.json: sbatch --test-only: sbatch: Job [0-9]* to start'"
extra_campaign badlic 1 '["--licenses=nosuch"]'
rc=0
"$HPOCTL" check "$T/badlic.json" >"$T/out.txt" 2>"$T/err.txt" || rc=$?
is "hpoctl check: a license the cluster lacks: exit 1" "$rc" 1
says=$(cd "$T" && sbatch --test-only --licenses=nosuch --wrap=true 2>&1 |
    sed 's/^sbatch: error: //')
check "sbatch --test-only itself refuses it" test -n "$says"
check "naming file, campaign and key, in sbatch's words: $says" grep -qF \
    "badlic.json: campaign 'badlic': resources.sbatch_extra: sbatch --test-only refuses the job: $says" \
    "$T/err.txt"
is "and no ok line" "$(grep -c ': ok:' "$T/out.txt")" 0
# hpoctl run asks too, before it records anything.
rc=0
"$HPOCTL" run -q --ledger "$T/run.db" --run-dir "$T/runs" "$T/badlic.json" \
    >/dev/null 2>"$T/err.txt" || rc=$?
is "hpoctl run: refused up front, exit 1" "$rc" 1
check "in sbatch's words" grep -qF "campaign 'badlic': resources.sbatch_extra: sbatch --test-only refuses the job: $says" "$T/err.txt"
is "nothing recorded" "$(sqlite3 "$T/run.db" 'select count(*) from campaigns' 2>/dev/null || echo 0)" 0
check "submit with sbatch_extra" "$HPOCTL" submit "$T/good.json"
check "it finishes" wait_campaign good 60
is "its trial completed" "$(of good state)" completed
scontrol -o show job "$(of good job_id)" >"$T/good.job"
sed 's/^/# /' "$T/good.job"
for want in Licenses=hpodlic:1 Nice=7 MinMemoryNode=100M TimeLimit=00:10:00 \
    "Comment=$(of good token)"; do
	check "scontrol show job: $want" grep -q " $want " "$T/good.job"
done
check "the job ran hpod's script" grep -q "sbatch.sh" "$T/good.job"
check "Requeue=0, as for libslurm's submits" grep -q " Requeue=0 " "$T/good.job"

# Cancelled like any job: scancel'd, the trial cancelled.
extra_campaign long 300 '["--nice=3"]'
check "submit a long one" "$HPOCTL" submit "$T/long.json"
check "it runs" wait_sql "select count(*) from attempts where state = 'running'" 1 60
check "hpoctl cancel" "$HPOCTL" cancel long
check "it ends" wait_campaign long 60
is "its trial is cancelled" "$(of long state)" cancelled
check "the controller cancelled the job" sh -c \
    "scontrol -o show job '$(of long job_id)' | grep -q JobState=CANCELLED"

# refused NAME OPTION [local]: a campaign with the option is refused at its
# submit by sbatch --test-only; submitted while the controller cannot be
# asked (frozen), it fails its attempt with sbatch's words, unless sbatch
# refuses the option without the controller (local: then the submit is
# refused whatever the controller).
ctld=$(cat "$SC/ctld/slurmctld.pid")
refused() {
	extra_campaign "$1" 1 "[\"$2\"]"
	rc=0
	"$HPOCTL" submit "$T/$1.json" 2>"$T/err.txt" || rc=$?
	is "submit $2: refused" "$rc" 1
	check "by sbatch --test-only, naming the key" grep -qF \
	    "campaign '$1': resources.sbatch_extra: sbatch --test-only refuses the job: " \
	    "$T/err.txt"
	[ -z "${3:-}" ] || return 0
	kill -STOP "$ctld"
	check "submit $2, the controller frozen: taken unchecked" \
	    "$HPOCTL" submit "$T/$1.json"
	kill -CONT "$ctld"
	check "it finishes" wait_campaign "$1" 60
	is "its trial failed" "$(of "$1" state)" failed
	r=$(of "$1" reason)
	echo "# reason: $r"
	says=$(cd "$T" && sbatch "$2" --wrap true 2>&1 | head -n 1 |
	    sed 's/^sbatch: error: //')
	check "sbatch itself refuses $2" test -n "$says"
	case "$r" in
	"sbatch (resources.sbatch_extra): $says"*) ok "the reason is sbatch's: $says" ;;
	*) not_ok "the reason is sbatch's: $says" ;;
	esac
	is "no job was left" "$(of "$1" job_id)" ""
}
refused nolic --licenses=nosuch
refused unknown --frobnicate local
check "the daemon stops" stop_daemon

# On this path sbatch itself reads the SBATCH_* variables of hpod's
# environment: here SBATCH_RESERVATION, which no key of the campaign sets.
check "create reservation hpodx on n03" scontrol create \
    reservation=hpodx starttime=now duration=60 users=root nodes=n03
export SBATCH_RESERVATION=hpodx
start_daemon
unset SBATCH_RESERVATION
extra_campaign envres 1 '["--nice=2"]'
check "submit with sbatch_extra, no reservation key" "$HPOCTL" submit "$T/envres.json"
check "it finishes" wait_campaign envres 60
scontrol -o show job "$(of envres job_id)" >"$T/envres.job"
check "SBATCH_RESERVATION reached the job through sbatch" \
    grep -q " Reservation=hpodx " "$T/envres.job"
check "the daemon stops" stop_daemon
done_testing
