#!/bin/sh
# An engine whose own batch cannot be committed (the ledger's file system
# full, min_free = 0) is a crash of its campaign at that point, recovered
# as one: it submits nothing, is dropped with its jobs left running, and
# is taken back from the ledger once it can be written.  hpod runs with
# HPOD_TEST_PAUSE=before-launch-commit, so that it stops itself before
# each attempt's commit; at the third (trial 2, launched when trial 0
# ended, while trial 1 still runs) the test fills the ledger's tmpfs, so
# that the batch holding trial 0's end and trial 2's records is lost.  It
# pings hpod while the disk is full, then frees it and lets the campaign
# finish.  Every attempt that ran (a run directory with a result.json)
# must be in the ledger once, with its end and cost as result.json says;
# the report's node-hours are their sum; hpod answered throughout.
# Then the same for `hpoctl run`, which stops with exit status 1 at the
# failed commit and says to `hpoctl resume` the campaign.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/tmpfs.subr"

small_ledger "engine commit on a full disk"

# Trial 1 runs long (it runs on while its engine is dropped and taken
# back), the others a second; each says one eval_error.
cat >"$T/bin/nap.sh" <<'SH'
case $PWD in
*/1-nap/trial-0001/*) sleep 10 ;;
*) sleep 1 ;;
esac
printf ':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": 1}}\n' "$1"
SH
cat >"$T/nap.json" <<JSON
{"name": "nap", "workload": "nap",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.01},
 "space": {"value": {"type": "choice", "values": [0.5]}},
 "search": {"algorithm": "random", "seed": 1},
 "budget": {"max_trials": 4, "max_parallel": 2},
 "resources": {"cpus_per_task": 1}}
JSON

drive_full "$T/nap.json"

is "the campaign was submitted" "$(grep '^submit' "$T/drive" | cut -f2)" True
check "the ledger's file system was filled at the third launch" \
    grep -q '^filled' "$T/drive"
is "hpod answered every ping while the disk was full" \
    "$(grep '^ping-full' "$T/drive" | sort -u | cut -f2)" True
check "and was pinged at least three times then" \
    test "$(grep -c '^ping-full' "$T/drive")" -ge 3
is "the campaign finished once space was back" \
    "$(sql "select state from campaigns")" finished
check "hpod logged the failed commit, saying the campaign is taken back" \
    grep -q "campaign 'nap': ledger '$LEDGER': .*database or disk is full; taken back from the ledger when it can be written" "$T/hpod.log"
is "said once" \
    "$(grep -c "taken back from the ledger when it can be written" "$T/hpod.log")" 1

# What ran: the attempt directories with a result.json.
ran=$(cd "$RUNS" && find . -name result.json | sed 's|^\./||; s|/result.json$||' | sort)
recorded=$(sql "select dir from attempts order by dir" | sed "s|^$RUNS/||")
echo "# ran: $(echo $ran)"
echo "# recorded: $(echo $recorded)"
is "every attempt that ran is in the ledger, and nothing else" \
    "$recorded" "$ran"
is "four trials, one attempt each, all completed" \
    "$(sql "select group_concat(t.number || ':' || a.number || ':' || a.state, ' ') from attempts a join trials t on t.id = a.trial_id")" \
    "0:0:completed 1:0:completed 2:0:completed 3:0:completed"
is "every attempt's end and start are recorded" \
    "$(sql "select count(*) from attempts where started > 0 and ended > 0")" 4

# Each attempt's end as its result.json says; its cost from its start.
sum=0
for d in $ran; do
	rend=$(jq -r .end "$RUNS/$d/result.json")
	rstart=$(jq -r .start "$RUNS/$d/result.json")
	row=$(sql "select printf('%.3f %.3f', ended, started) from attempts where dir = '$RUNS/$d'")
	[ -n "$row" ] || row="none 0"
	is "$d: its end is result.json's" "${row% *}" "$(printf '%.3f' "$rend")"
	check "$d: its start is result.json's, to a second" python3 -c "
import sys; sys.exit(abs($rstart - ${row#* }) >= 1)"
done
"$HPOCTL" report --ledger "$LEDGER" --format json nap >"$T/report.json"
nh=$(jq -r .cost.node_hours "$T/report.json")
el=$(sql "select sum(ended - started) from attempts")
echo "# report: $nh node-hours; attempts: $el s"
check "the report's node-hours are the sum of the attempts' elapsed time" \
    python3 -c "import sys; sys.exit(abs($nh * 3600 - $el) > 0.01)"
check "hpod stops cleanly" stop_daemon
is "the ledger is intact" "$(sql "pragma integrity_check")" ok

# hpoctl run: fill the file system at its second launch (trial 1, when
# trial 0 ended); it must stop, exit 1, and have started nothing more.
LEDGER="$T/small/fg.db"
sed 's/"name": "nap", "workload"/"name": "fgnap", "workload"/;
    s/"max_parallel": 2/"max_parallel": 1/; s/"max_trials": 4/"max_trials": 3/' \
    "$T/nap.json" >"$T/fgnap.json"
HPOD_TEST_PAUSE=before-launch-commit "$HPOCTL" -f "$CONF" run --ledger "$LEDGER" \
    --run-dir "$T/fgruns" "$T/fgnap.json" >/dev/null 2>"$T/fg.err" &
FPID=$!
python3 - "$FPID" "$T" <<'PY'
import os, signal, sys, time
from paused import fill, state
pid, tdir = int(sys.argv[1]), sys.argv[2]
pauses, deadline = 0, time.time() + 30
while time.time() < deadline:
    try:
        st = state(pid)
    except OSError:
        break
    if st == "Z":
        break
    if st == "T":
        pauses += 1
        if pauses == 2:
            fill(tdir + "/small/filler")
        os.kill(pid, signal.SIGCONT)
    time.sleep(0.01)
else:
    os.kill(pid, signal.SIGKILL)
PY
rc=0
wait "$FPID" || rc=$?
sed 's/^/# /' "$T/fg.err"
rm -f "$T/small/filler"
is "hpoctl run: a failed commit stops it with exit status 1" "$rc" 1
check "hpoctl run: it says why and to resume the campaign" \
    grep -q "campaign 'fgnap': ledger '$LEDGER': .*database or disk is full; stopped, its running trials go on: once the ledger can be written, .hpoctl resume fgnap. takes it back" "$T/fg.err"
check "hpoctl run: nothing of trial 1 was made" \
    test ! -e "$T/fgruns/1-fgnap/trial-0001"
"$HPOCTL" -f "$CONF" resume --ledger "$LEDGER" --run-dir "$T/fgruns" fgnap \
    >/dev/null 2>"$T/resume.err" || true
is "hpoctl resume: the campaign finished" \
    "$(sql "select state from campaigns")" finished
ran=$(cd "$T/fgruns" && find . -name result.json | sed 's|^\./||; s|/result.json$||' | sort)
recorded=$(sql "select dir from attempts order by dir" | sed "s|^$T/fgruns/||")
is "hpoctl run + resume: every attempt that ran is in the ledger, nothing else" \
    "$recorded" "$ran"
is "hpoctl run + resume: three trials, one attempt each, all completed" \
    "$(sql "select group_concat(t.number || ':' || a.number || ':' || a.state, ' ') from attempts a join trials t on t.id = a.trial_id")" \
    "0:0:completed 1:0:completed 2:0:completed"
for d in $ran; do
	is "$d: its end is result.json's" \
	    "$(sql "select printf('%.3f', ended) from attempts where dir = '$T/fgruns/$d'")" \
	    "$(printf '%.3f' "$(jq -r .end "$T/fgruns/$d/result.json")")"
done
done_testing
