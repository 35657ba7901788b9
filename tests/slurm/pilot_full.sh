#!/bin/sh
# tests/t/pilot_full.sh on Slurm: a pilot campaign whose engine a failed
# ledger commit drops hands its pilot's Slurm job over (the Slurm backend
# follows it on and tells nobody) and is taken back once the ledger can
# be written, without a restart: the pilot is adopted again from the
# controller's view, its agent calls the new listener, and the trial in
# it, running all along, is taken back from its hello.  The ledger is on
# a small tmpfs, hpod stops at before-commit, and the test fills the file
# system at a budget request of the campaign.
. "$(dirname "$0")/lib.subr"
. "$TOP/tests/t/pilot.subr"

small_fs
LEDGER="$T/small/ledger.db"
sed -i "s|^ledger = .*|ledger = $LEDGER|" "$T/small.conf"

# The trials wait for $T/go, then say eval_error VALUE.
cat >"$T/bin/nap.sh" <<SH
until [ -e "$T/go" ]; do sleep 0.2; done
printf ':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": 1}}\n' "\$1"
SH
sleep_campaign pf 1 1 1
jq '.workload = "nap" | .objective.target = 0.2 |
    .space = {"value": {"type": "float", "min": 0.3, "max": 0.6}} |
    . + {"dispatch": "pilot", "pilot": {"count": 1, "cpus": 1, "gpus": 2}}' \
    "$T/pf.json" >"$T/pf.tmp" && mv "$T/pf.tmp" "$T/pf.json"

pilot_full "$T/small.conf" 120
touch "$T/go"
check "pf ends" wait_sql "select state from campaigns" finished 120
pilot_full_ended
pj=$(sql "select job_id from pilots")
is "Slurm ran one pilot job, and it completed" \
    "$(squeue -h -t all -o '%i %T' | awk -v j="$pj" '$1 == j { print $2 }')" COMPLETED
is "the pilot ended, with its time and its node" \
    "$(sql "select count(*) || ' ' || nodes from pilots where ended > started")" "1 1"
is "one hpod throughout" "$(grep -c 'listening on' "$T/hpod.log")" 1
check "hpod stops cleanly" stop_daemon
is "the ledger is intact" "$(sql "pragma integrity_check")" ok
done_testing
