#!/bin/sh
# hpoctl check and hpoctl run ask the controller (sbatch --test-only)
# about every Slurm campaign's job, not only one with sbatch_extra: a job
# of more nodes than the cluster has is taken by slurmctld
# (EnforcePartLimits=NO, its default) and then waits for ever; one of
# more GPUs than a node has, or for a partition that does not exist, is
# refused only at its first submit.  Each is refused up front in sbatch's words, naming file,
# campaign and key, and hpoctl run records and submits nothing.  A
# controller that does not answer in time refuses nothing.
. "$(dirname "$0")/lib.subr"

sleep_campaign ok 1 1 1
check "a job the cluster can run: check says the controller takes it" sh -c \
    "'$HPOCTL' check '$T/ok.json' | grep -q 'ok.json: sbatch --test-only: sbatch: Job [0-9]* to start'"

# refused NAME JQ: a sleep campaign changed by JQ is refused by check and
# by run, in the words of sbatch --test-only itself.
refused() {
	jq "$2" "$T/ok.json" | jq ".name = \"$1\"" >"$T/$1.json"
	says=$(cd "$T" && sbatch --test-only $3 --wrap=true 2>&1 |
	    sed 's/^sbatch: error: //' | paste -sd ';' | sed 's/;/; /g')
	check "$1: sbatch --test-only itself refuses it" test -n "$says"
	rc=0
	"$HPOCTL" check "$T/$1.json" >/dev/null 2>"$T/err.txt" || rc=$?
	is "$1: check refuses it" "$rc" 1
	is "$1: naming file, campaign and key, in sbatch's words" \
	    "$(cat "$T/err.txt")" \
	    "hpoctl: $T/$1.json: campaign '$1': resources: sbatch --test-only refuses the job: $says"
	rc=0
	timeout 30 "$HPOCTL" -f "$CONF" run "$T/$1.json" >/dev/null \
	    2>"$T/err.txt" || rc=$?
	is "$1: run refuses it" "$rc" 1
	check "$1: in the same words" grep -qF \
	    "campaign '$1': resources: sbatch --test-only refuses the job: $says" \
	    "$T/err.txt"
	is "$1: nothing recorded" \
	    "$(sql "select count(*) from campaigns where name = '$1'" 2>/dev/null || echo 0)" 0
}
refused nodes '.resources.nodes = 5' '--nodes=5'
refused gpus '.resources.gpus_per_node = 8' '--gpus-per-node=8'
refused partition '.resources.partition = "nosuch"' '--partition=nosuch'
is "Slurm holds no job at all" "$(slurm_jobs | wc -l)" 0

# A controller that does not answer (frozen: sbatch's request times out)
# has not refused the job: check says it was not asked, and passes.
ctld=$(cat "$SC/ctld/slurmctld.pid")
kill -STOP "$ctld"
rc=0
"$HPOCTL" check "$T/ok.json" >"$T/out.txt" 2>&1 || rc=$?
kill -CONT "$ctld"
sed 's/^/# /' "$T/out.txt"
is "a frozen controller: check passes" "$rc" 0
check "saying the job was not checked, and why" grep -q \
    "ok.json: resources not checked with the controller: .*Socket timed out" \
    "$T/out.txt"
done_testing
