#!/bin/sh
# A pilot campaign whose engine a failed ledger commit drops is taken
# back from the ledger once it can be written, as any campaign, without
# a restart of hpod: the engine hands its pilots' jobs over
# (sched_pilot_release: the inner backend holds them for the next
# adopter), its pilot backend goes with it (the agents lose hpod, keep
# their trials running and call again), and the campaign taken back
# adopts the pilots and, from the agents' hellos, the trials in them.
# Before, the engine stayed stopped until hpod's next start, and a
# budget or cancel reached it and was never acted on.  hpod runs with
# HPOD_TEST_PAUSE=before-commit on a ledger on a small tmpfs; the test
# fills it at a budget request of the pilot campaign, frees it, waits
# for hpod to take pf back, raises its budget (which must now reach it),
# and lets its trials end: two, completed, one attempt each, both in the
# one pilot, the first running all along.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/tmpfs.subr"
. "$(dirname "$0")/pilot.subr"

small_ledger "a pilot campaign after a failed commit"

# The trials wait for $T/go, then say eval_error VALUE.
cat >"$T/bin/nap.sh" <<SH
until [ -e "$T/go" ]; do sleep 0.2; done
printf ':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": 1}}\n' "\$1"
SH
cat >"$T/pf.json" <<JSON
{"name": "pf", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.2},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "resources": {"cpus_per_task": 1},
 "dispatch": "pilot", "pilot": {"count": 1, "cpus": 1}}
JSON

pilot_full "$CONF" 60
is "its first trial ran on in its pilot" \
    "$(sql "select count(*) from attempts where started > 0 and ended is null")" 1
touch "$T/go"
check "pf ends" wait_campaign pf 60
pilot_full_ended
is "the pilot ended, with its time" \
    "$(sql "select count(*) from pilots where ended > started")" 1
is "one hpod throughout" "$(grep -c 'listening on' "$T/hpod.log")" 1
check "hpod stops cleanly" stop_daemon
is "the ledger is intact" "$(sql "pragma integrity_check")" ok
done_testing
