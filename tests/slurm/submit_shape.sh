#!/bin/sh
# hpoctl submit puts a Slurm campaign's job to `sbatch --test-only`, as
# hpoctl check and hpoctl run do (tests/slurm/shape.sh): hpod refuses a
# job the controller refuses, or takes but can never run (more nodes than
# the cluster has: it would pend for ever), in sbatch's words, naming the
# spec file, the campaign and the key, and records nothing of it.  sbatch
# runs beside hpod's loop: while it waits for a frozen controller, hpod
# answers other clients; the controller's silence refuses nothing (the
# log says the job was not checked), and a stop meanwhile answers the
# submit "shutting down" and records nothing.
. "$(dirname "$0")/lib.subr"

start_daemon
sleep_campaign ok 1 1 1
check "a job the cluster can run: the submit is taken" \
    "$HPOCTL" submit "$T/ok.json"
check "hpod's log says the controller would take it" wait_for_log \
    "campaign 'ok': $T/ok.json: sbatch --test-only: sbatch: Job [0-9]* to start"
check "it runs to its end" wait_campaign ok 60

# refused NAME JQ SBATCH-OPTION: the ok campaign changed by JQ is refused
# by the submit, in the words of sbatch --test-only itself.
refused() {
	jq "$2" "$T/ok.json" | jq ".name = \"$1\"" >"$T/$1.json"
	says=$(cd "$T" && sbatch --test-only $3 --wrap=true 2>&1 |
	    sed 's/^sbatch: error: //' | paste -sd ';' | sed 's/;/; /g')
	check "$1: sbatch --test-only itself refuses it" test -n "$says"
	rc=0
	"$HPOCTL" submit "$T/$1.json" >"$T/out.txt" 2>"$T/err.txt" || rc=$?
	is "$1: the submit is refused" "$rc" 1
	is "$1: naming file, campaign and key, in sbatch's words" \
	    "$(cat "$T/err.txt")" \
	    "hpoctl: $(realpath "$T/$1.json"): campaign '$1': resources: sbatch --test-only refuses the job: $says"
	is "$1: nothing recorded" \
	    "$(sql "select count(*) from campaigns where name = '$1'")" 0
}
refused nodes '.resources.nodes = 5' '--nodes=5'
refused gpus '.resources.gpus_per_node = 8' '--gpus-per-node=8'
refused partition '.resources.partition = "nosuch"' '--partition=nosuch'
is "Slurm holds the ok campaign's job and no other" "$(slurm_jobs | wc -l)" 1

# frozen NAME: submit campaign NAME in the background ($SUB) while the
# controller is frozen, and wait until its sbatch --test-only runs.
ctld=$(cat "$SC/ctld/slurmctld.pid")
frozen() {
	sleep_campaign "$1" 1 1 1
	kill -STOP "$ctld"
	"$HPOCTL" submit "$T/$1.json" >"$T/$1.out" 2>&1 &
	SUB=$!
	for _ in $(seq 1 100); do
		pgrep -f "sbatch --parsable --job-name=$1 " >/dev/null && return 0
		sleep 0.1
	done
	return 1
}
check "frozen controller: the submit's sbatch --test-only waits" frozen frozen
check "hpod answers a ping meanwhile" "$HPOCTL" ping
check "while sbatch still waits for the controller" \
    pgrep -f "sbatch --parsable --job-name=frozen "
rc=0
wait "$SUB" || rc=$?
kill -CONT "$ctld"
sed 's/^/# /' "$T/frozen.out"
is "no answer from the controller refuses nothing" "$rc" 0
check "hpod's log says the job was not checked, and why" grep -q \
    "campaign 'frozen': $(realpath "$T/frozen.json"): resources not checked with the controller: .*Socket timed out" \
    "$T/hpod.log"
check "the campaign runs to its end" wait_campaign frozen 90

check "a submit waits for the controller" frozen stopped
kill -TERM "$DPID"
rc=0
wait "$SUB" || rc=$?
kill -CONT "$ctld"
is "hpod stopped meanwhile: the submit is refused" "$rc" 1
is "as hpod shuts down" "$(cat "$T/stopped.out")" \
    "hpoctl: hpod is shutting down"
rc=0
wait "$DPID" || rc=$?
DPID=
is "hpod exits 0" "$rc" 0
is "nothing recorded" \
    "$(sql "select count(*) from campaigns where name = 'stopped'")" 0
done_testing
