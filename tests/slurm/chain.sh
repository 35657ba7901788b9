#!/bin/sh
# "dispatch": "chain": each of the max_parallel lanes keeps its next job
# queued behind its running one (--dependency=afterany), so that Slurm
# starts it as the slot frees.  On the test cluster: the dependency is on
# the pending job, never more than max_parallel jobs run at once, a
# failure in a lane does not stall it, and a campaign that stops (a
# budget, a cancel) leaves no job behind, every job it submitted in the
# ledger, those that never ran cancelled at no cost; after a SIGKILL the
# restarted daemon takes the queued jobs back as any other.
. "$(dirname "$0")/lib.subr"

# A workload that sleeps {seconds} and fails when told to.
cat >"$T/sleepfail.json" <<'JSON'
{
  "name": "sleepfail",
  "description": "Sleeps {seconds}, then exits {code}: a lane's failures.",
  "program": "sh",
  "args": ["-c", "sleep \"$0\"; exit \"$1\"", "{seconds}", "{code}"],
  "defaults": {"seconds": 1, "code": 0}
}
JSON
export HPOD_WORKLOAD_PATH="$HPOD_WORKLOAD_PATH:$T"

# alive NAME: jobs of campaign NAME that slurmctld still runs or queues.
alive() {
	squeue -h -t pending,running -o '%j' | grep -c "^hpod-$1-" || true
}

# A spec that cannot chain is refused, naming the file and key.
sleep_campaign local 1 2 1
jq '. + {"dispatch": "chain", "backend": "local"}' "$T/local.json" \
    >"$T/bad.json"
rc=0
"$HPOCTL" -f "$CONF" run "$T/bad.json" 2>"$T/err.txt" || rc=$?
is "dispatch chain on the local backend is refused" "$rc" 1
check "naming the file and key" grep -q \
    'bad.json: dispatch: "chain" needs backend "slurm"' "$T/err.txt"

start_daemon
# Twelve 3 s trials, two lanes.
chain_campaign lanes 3 12 2
check "submit twelve 3 s trials in two chained lanes" \
    "$HPOCTL" submit "$T/lanes.json"
check "the daemon says how it dispatches" wait_for_log \
    "dispatch: chain, 2 lanes"
cid=$(sql "select id from campaigns where name = 'lanes'")
dep=
for _ in $(seq 1 300); do
	dep=$(squeue -h -t pending -o '%j %E' | grep "^hpod-$cid-" |
	    grep afterany | head -n 1)
	[ -n "$dep" ] && break
	sleep 0.2
done
check "a pending job waits on its lane's running job ($dep)" \
    test -n "$dep"
most=0
: >"$T/deps"
while [ "$("$HPOCTL" status --format json lanes | jq -r .state)" = running ]
do
	n=$(squeue -h -t running -o '%j' | grep -c "^hpod-$cid-" || true)
	[ "$n" -gt "$most" ] && most=$n
	# Each pending job's lane predecessor: "JOB PREV" lines.
	squeue -h -t pending -o '%j %i %E' | grep "^hpod-$cid-" |
	    sed -n 's/^[^ ]* \([0-9_]*\) afterany:\([0-9_]*\).*/\1 \2/p' \
	    >>"$T/deps"
	sleep 0.3
done
check "slurmctld never ran more than two at once (squeue: $most)" \
    test "$most" -le 2
is "all twelve completed" \
    "$(sql "select count(*) from $(of lanes) and a.state = 'completed'")" 12
is "each in a job of its own" \
    "$(sql "select count(distinct a.job_id) from $(of lanes)")" 12
is "never more than two ran at once (their own clocks)" \
    "$(most_at_once "$cid-lanes")" 2
# A chained job waited in the queue from its predecessor's end, not from
# its submission (which was about its predecessor's start): its queue
# wait, as the ledger counts it (hpod-ledger(5)), is at most the time
# from that end to its start, plus a second (Slurm's whole seconds).
pairs=$(sort -u "$T/deps" | awk '{ printf "%s(\x27%s\x27, \x27%s\x27)",
    (NR > 1 ? ", " : ""), $1, $2 }')
check "ten jobs were seen queued behind another ($pairs)" \
    test "$(sort -u "$T/deps" | wc -l)" -ge 10
cat >"$T/wait.sql" <<SQL
with pair(job, prev) as (values $pairs),
w as (select x.id, x.started - p.ended + 1 as bound
    from pair join attempts x on x.job_id = pair.job
    join attempts p on p.job_id = pair.prev)
SQL
is "each chained job's queue wait is at most its predecessor's end to its start" \
    "$(sql "$(cat "$T/wait.sql") select count(*) || ' ' ||
    count(case when x.started - max(x.submitted, coalesce(x.eligible, 0))
    <= bound then 1 end) from w join attempts x on x.id = w.id")" \
    "$(sort -u "$T/deps" | wc -l | tr -d ' ') $(sort -u "$T/deps" | wc -l |
    tr -d ' ')"
# The report's total: the chained jobs' bounds and the others' own waits.
bound=$(sql "$(cat "$T/wait.sql") select (select total(bound) from w) +
    (select total(a.started - a.submitted + 1) from $(of lanes)
    and a.job_id not in (select job from pair))") || bound=0
"$HPOCTL" report --format json lanes >"$T/lanes.report"
check "the report's queue wait is within that ($(jq .cost.queue_hours \
    "$T/lanes.report") h, at most $bound s)" \
    jq -e ".cost.queue_hours * 3600 <= $bound" "$T/lanes.report"

# One lane whose trials fail one in two: the lane goes on after each.
chain_campaign fails 1 6 1 \
    '.workload = "sleepfail" | .space.code = {"type": "choice", "values": [0, 3]} | .search.algorithm = "grid" | .space.seconds.values = [1, 2, 3]'
check "submit six trials in one lane, half of them failing" \
    "$HPOCTL" submit "$T/fails.json"
check "the campaign finishes" wait_campaign fails 120
is "every trial ran" \
    "$(sql "select count(*) from $(of fails) and a.started is not null")" 6
is "three failed" \
    "$(sql "select count(*) from $(of fails) and a.state = 'failed'")" 3
is "three completed" \
    "$(sql "select count(*) from $(of fails) and a.state = 'completed'")" 3

# A node-hour budget spent while the first two run: they end, and the two
# queued behind them are cancelled before they start.
chain_campaign budget 8 20 2 '.budget.max_node_hours = 0.002'
check "submit 8 s trials with a budget of 7.2 node-seconds" \
    "$HPOCTL" submit "$T/budget.json"
check "the campaign ends on its budget" wait_campaign budget 120
cid=$(sql "select id from campaigns where name = 'budget'")
is "no job of it is left in Slurm" "$(alive "$cid")" 0
is "four jobs were submitted: two ran, two queued behind them" \
    "$(sql "select count(*) from $(of budget) and a.job_id is not null")" 4
is "the two that ran completed" \
    "$(sql "select count(*) from $(of budget) and a.state = 'completed'")" 2
is "the two behind them were cancelled" \
    "$(sql "select count(*) from $(of budget) and a.state = 'cancelled'")" 2
is "... before they started" \
    "$(sql "select count(*) from $(of budget) and a.started is not null")" 2
is "... while they waited on their dependency: no queue wait counted" \
    "$(sql "select count(*) from $(of budget) and a.state = 'cancelled'
    and a.eligible = a.ended")" 2
is "every job Slurm knows of it is in the ledger, ended" "$(squeue -h -t all \
    -o '%j %i' | grep "^hpod-$cid-" | cut -d' ' -f2 | sort | tr '\n' ' ')" \
    "$(sql "select a.job_id from $(of budget) and a.ended is not null" |
    sort | tr '\n' ' ')"
"$HPOCTL" report --format json budget >"$T/budget.report"
is "the report counts the two cancelled trials" \
    "$(jq .trials.cancelled "$T/budget.report")" 2

# hpoctl cancel mid-way: nothing is left behind.
chain_campaign stop 30 10 2
check "submit 30 s trials in two lanes" "$HPOCTL" submit "$T/stop.json"
cid=$(sql "select id from campaigns where name = 'stop'")
check "two run and two wait behind them" wait_sql \
    "select count(*) from $(of stop) and a.job_id is not null" 4 60
check "cancel the campaign" "$HPOCTL" cancel stop
check "it ends" wait_campaign stop 60
is "no job of it is left in Slurm" "$(alive "$cid")" 0
is "every attempt ended cancelled" "$(sql "select count(*) from $(of stop) \
    and a.state = 'cancelled' and a.ended is not null")" 4
# hpod SIGKILLed while two run and two wait behind them: the restarted
# daemon takes all four back in their lanes, and the bound still holds
# (chain_restart.sh: with retries after the restart).
chain_campaign restart 4 8 2
check "submit eight 4 s trials in two lanes" "$HPOCTL" submit "$T/restart.json"
cid=$(sql "select id from campaigns where name = 'restart'")
check "two run and two wait behind them" wait_sql \
    "select count(*) from $(of restart) and a.job_id is not null" 4 60
kill_daemon
check "hpod restarts" start_daemon
check "the campaign finishes" wait_campaign restart 180
is "all eight completed" \
    "$(sql "select count(*) from $(of restart) and a.state = 'completed'")" 8
is "one attempt each" "$(sql "select count(*) from $(of restart)")" 8
is "one Slurm job each" "$(squeue -h -t all -o '%j %i' |
    grep -c "^hpod-$cid-")" 8
is "never more than two ran at once (their own clocks)" \
    "$(most_at_once "$cid-restart")" 2
check "the daemon stops" stop_daemon
done_testing
