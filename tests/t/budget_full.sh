#!/bin/sh
# A node-hour budget after a failed commit (the ledger's file system
# full, min_free = 0) that lost the record of a trial's start: the
# campaign is dropped with its jobs running and taken back from the
# ledger when space returns (hpod_lost, hpod_retake), its running job
# rebound in the same local backend, which must say again since when it
# runs, so that it counts against the budget from its real start; before,
# it counted only at its end, and more trials were started than the
# budget allowed while it ran.
#
# One CPU, two trials at once: trial 1 waits in the backend until trial
# 0 (1 s) ends, then starts and runs 10 s.  hpod stops itself before each
# attempt's commit (HPOD_TEST_PAUSE=before-launch-commit); at the third,
# trial 2's, launched at trial 0's end, the test fills the ledger's
# tmpfs: the batch holding trial 0's end and trial 1's start is lost.
# Space returns 3 s later, when trial 1 has run more than the budget of
# 2.5 node-seconds less trial 0's 1: the budget is spent when the
# campaign is taken back, and no trial but the first two ever runs.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/tmpfs.subr"

small_ledger "budget after a failed commit"
sed -i 's/^local_cpus = .*/local_cpus = 1/' "$CONF"
cat >"$T/bin/nap.sh" <<'SH'
case $PWD in
*/1-bf/trial-0001/*) sleep 10 ;;
*) sleep 1 ;;
esac
SH
cat >"$T/bf.json" <<JSON
{"name": "bf", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min"},
 "space": {"value": {"type": "choice", "values": [0.5]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 6, "max_parallel": 2,
     "max_node_hours": $(awk 'BEGIN { printf "%.9f", 2.5 / 3600 }')},
 "resources": {"cpus_per_task": 1}}
JSON

drive_full "$T/bf.json"

check "the ledger's file system was filled at the third launch" \
    grep -q '^filled' "$T/drive"
check "the campaign was dropped at the failed commit and taken back" \
    grep -q "campaign 'bf': .*taken back from the ledger when it can be written" "$T/hpod.log"
is "the campaign finished once space was back" \
    "$(sql "select state from campaigns")" finished
check "for the node-hour budget, with its two trials" \
    grep -q "campaign finished: node-hour budget spent (2 trials)" "$T/hpod.log"
is "no trial but the first two ran" \
    "$(cd "$RUNS" && find . -name result.json | sed 's|^\./||; s|/attempt.*||' | sort | tr '\n' ' ')" \
    "1-bf/trial-0000 1-bf/trial-0001 "
is "both recorded with their starts and ends" \
    "$(sql "select count(*) from attempts where started > 0 and ended >= started")" 2
check "hpod stops cleanly" stop_daemon
done_testing
