#!/bin/sh
# Pilot allocations ("dispatch": "pilot") on the local backend: trials run
# back to back inside two pilot jobs, each pilot's agent talks to the
# engine over a real TCP socket with the campaign's secret, a wrong secret
# is refused, and the cost by outcome has a pilot_idle line that, with
# the others, adds up to the total.  Then with the daemon.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/pilot.subr"

# write_pilot NAME TRIALS EPOCHS [PILOT]: a pilot campaign of minicosmo.
write_pilot() {
	write_campaign "$1" "$2" 2 "$3" 0.01
	jq --argjson p "${4:-{\"count\": 2, \"cpus\": 1\}}" \
	    '. + {"dispatch": "pilot", "pilot": $p}' "$T/$1.json" \
	    >"$T/$1.tmp" && mv "$T/$1.tmp" "$T/$1.json"
}

# Bad specs are refused before anything runs, naming the file and key.
# Each line: the jq filter that spoils the spec, what is refused, what the
# message names, and the message.
write_pilot badd 2 1
n=0
while IFS='|' read -r filter what names msg; do
	n=$((n + 1))
	jq "$filter" "$T/badd.json" >"$T/bad$n.json"
	rc=0
	"$HPOCTL" -f "$CONF" run "$T/bad$n.json" </dev/null 2>"$T/err.txt" ||
	    rc=$?
	is "$what" "$rc" 1
	check "$names" grep -q "bad$n.json: $msg" "$T/err.txt"
done <<'EOF'
.dispatch = "pilots"|dispatch "pilots" is refused|naming the file and key|dispatch: expected "job", "chain" or "pilot"
del(.pilot) + {"dispatch": "chain"}|dispatch "chain" on the local backend is refused|naming dispatch|dispatch: "chain" needs backend "slurm"
.pilot = {"count": 2, "cpus": 1, "size": 4}|an unknown pilot key is refused|naming it|pilot.size
.resources.cpus_per_task = 2|a pilot smaller than a trial is refused|naming pilot.cpus|pilot.cpus: 1 is less than one trial's 2 CPUs
del(.dispatch)|pilot without dispatch pilot is refused|naming pilot|pilot: only with "dispatch": "pilot"
. * {"pilot": {"time_limit": "00:00:25"}, "resources": {"time_limit": "00:00:20"}}|a trial longer than a pilot (with the margin) is refused|naming both keys|resources.time_limit: 20 s and a margin of 10 s exceed pilot.time_limit, 25 s: no pilot could run a trial
EOF
is "nothing was recorded" "$(sql 'select count(*) from campaigns' 2>/dev/null || echo 0)" 0

# A pilot the backend cannot run (4 CPUs, the local backend has 2): the
# trials fail with a message that says so, and the campaign ends.
write_pilot pbig 2 1 '{"count": 1, "cpus": 4}'
sed "s|^ledger = .*|ledger = $T/big.db|" "$CONF" >"$T/big.conf"
echo "local_cpus = 2" >>"$T/big.conf"
rc=0
timeout 60 "$HPOCTL" -f "$T/big.conf" run --format json "$T/pbig.json" \
    >"$T/pbig.out" 2>"$T/pbig.err" || rc=$?
is "a pilot too big for the backend: the run ends" "$rc" 0
is "its trials failed" "$(jq .trials.failed "$T/pbig.out")" 2
check "saying why" grep -q "the local backend refused a pilot of 4 CPUs" \
    "$T/pbig.err"

# Six trials through two pilots, in the foreground.
write_pilot pf 6 4
"$HPOCTL" -f "$CONF" check "$T/pf.json" >"$T/check.txt"
check "hpoctl check says how the trials are dispatched" grep -q \
    "pf.json: dispatch pilot: 2 pilots of 1 CPU and 0 GPUs at once" \
    "$T/check.txt"
"$HPOCTL" -f "$CONF" run --format json "$T/pf.json" >"$T/pf.out" \
    2>"$T/pf.err" &
fg=$!
# While the pilots run: the pilot file, and an agent with a wrong secret.
for _ in $(seq 1 300); do
	[ "$(sql "select count(*) from pilots where started > 0" 2>/dev/null)" = 2 ] && break
	sleep 0.1
done
PF="$RUNS/1-pf/pilot.json"
is "pilot file is mode 600" "$(stat -c %a "$PF")" 600
is "the pilot file names this host" "$(jq -r .host "$PF")" "$(hostname)"
# The fake agents below call loopback, as a real one on this host does
# first: the host's name need not resolve (a chroot, a fresh machine).
host=127.0.0.1
port=$(jq -r .port "$PF")
pilot=$(sql "select token from pilots limit 1")
reply=$(printf '{"op":"hello","secret":"%064d","pilot":"%s","slots":1}\n{"op":"next"}\n' \
    0 "$pilot" | timeout 3 bash -c "exec 3<>/dev/tcp/$host/$port; cat >&3; cat <&3" || echo TIMEOUT)
is "a wrong secret: connection closed, no job handed out" "$reply" ""
secret=$(jq -r .secret "$PF")
reply=$(printf '{"op":"hello","secret":"%s","pilot":"nosuch","slots":1}\n' \
    "$secret" | timeout 3 bash -c "exec 3<>/dev/tcp/$host/$port; cat >&3; cat <&3" || true)
is "an agent of a pilot it does not know is told to drain" "$reply" \
    '{"op":"drain"}'
rc=0
wait $fg || rc=$?
is "hpoctl run exits 0" "$rc" 0
check "a wrong secret is logged" grep -q "pilot agent from .*: wrong secret; connection closed" "$T/pf.err"
is "campaign finished" "$(jq -r .campaign.state "$T/pf.out")" finished
is "6 trials completed" "$(sql "select count(*) from trials where state = 'completed'")" 6
is "2 pilots, each started and ended" \
    "$(sql "select count(*) from pilots where started > 0 and ended >= started and state = 'completed'")" 2
is "every attempt ran in one of the pilots (job id PILOT.pN)" \
    "$(sql "select count(*) from attempts a where exists (select 1 from pilots p where a.job_id like p.job_id || '.p%')")" 6
is "each pilot ran more than one trial" \
    "$(sql "select count(*) from pilots p where (select count(*) from attempts a where a.job_id like p.job_id || '.p%') >= 2")" 2
is "every attempt ran within its pilot's lifetime" \
    "$(sql "select count(*) from attempts a join pilots p on a.job_id like p.job_id || '.p%' where a.started >= p.started and a.ended <= p.ended")" 6
missing=0
for d in $(sql 'select dir from attempts'); do
	[ -s "$d/job.json" ] && jq -e '.state == "exited" and .exit_code == 0' \
	    "$d/result.json" >/dev/null || missing=$((missing + 1))
done
is "the agent wrote each job.json; hpo-trial each result.json" "$missing" 0
is "the local backend ran only the pilots (2 wrappers' result.json)" \
    "$(ls "$RUNS"/1-pf/pilots/*/result.json | wc -l)" 2

# The accounting: pilot_idle is its own line; the lines add up.
check "cost by outcome has pilot_idle" \
    jq -e '.cost.by_outcome.pilot_idle.node_hours > 0' "$T/pf.out"
is "pilot_idle counts no attempt" \
    "$(jq .cost.by_outcome.pilot_idle.attempts "$T/pf.out")" 0
cost_adds_up "$T/pf.out" ""
# The pilots' allocation x elapsed is the total (one CPU each).
cost_of_pilots "$T/pf.out" "" cpu
"$HPOCTL" report --ledger "$LEDGER" pf >"$T/pf.txt"
check "text report: pilot_idle in the attempts by outcome" \
    grep -q "running 0 (0.0000), pilot_idle 0 (0\.0" "$T/pf.txt"

# Trials sharing a pilot's node: one pilot of 2 CPUs runs four one-CPU
# trials two at a time.  Each is charged half the node, the pilot's idle
# node-hours are the rest: the node-hours total is the pilot's node x
# elapsed, not a whole node per trial.
write_pilot ps 4 4 '{"count": 1, "cpus": 2}'
"$HPOCTL" -f "$CONF" run --format json "$T/ps.json" >"$T/ps.out" \
    2>"$T/ps.err"
is "ps: 4 trials completed in one pilot" \
    "$(jq .trials.completed "$T/ps.out"),$(sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'ps'")" "4,1"
PS="from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'ps'"
is "ps: its trials ran side by side (each overlaps another)" \
    "$(sql "select count(*) $PS and exists (select 1 from attempts b where b.trial_id in (select trial_id $PS) and b.id != a.id and b.started < a.ended and a.started < b.ended)")" 4
is "ps: each attempt is charged half the node" \
    "$(sql "select group_concat(a.node_share) $PS")" "0.5,0.5,0.5,0.5"
cost_of_pilots "$T/ps.out" ps node ps
check "ps: the trials were charged less than that" jq -e \
    '.cost.by_outcome.pilot_idle.node_hours > 0 and .cost.by_outcome.completed.node_hours < .cost.node_hours' \
    "$T/ps.out"
cost_adds_up "$T/ps.out" ps
"$HPOCTL" report --ledger "$LEDGER" --format json ps >"$T/ps.report"
check "ps: the report read from the ledger says the same" jq -e \
    --slurpfile r "$T/ps.out" '.cost.node_hours - $r[0].cost.node_hours | fabs < 1e-9' \
    "$T/ps.report"

# Trials that fit their pilot: a pilot of 30 s is given a trial with a
# time limit of 20 s only while it has 20 s and the margin (10 s) left,
# i.e. once; then it drains and a new pilot takes the next trial, which
# is never killed by its pilot's time limit.  Any trial that takes time
# leaves less than that, so the trials are 2 epochs: far from their 20 s
# under ASan on a loaded machine (12 epochs hit it in a CI run at load 16).
write_pilot pl 3 2 '{"count": 1, "cpus": 1, "time_limit": "00:00:30"}'
jq '.budget.max_parallel = 1 | .resources.time_limit = "00:00:20"' \
    "$T/pl.json" >"$T/pl.tmp" && mv "$T/pl.tmp" "$T/pl.json"
"$HPOCTL" -f "$CONF" run --format json "$T/pl.json" >"$T/pl.out" \
    2>"$T/pl.err"
PL="from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pl'"
is "pl: 3 trials completed, one attempt each" \
    "$(jq -c '[.trials.completed, .cost.attempts]' "$T/pl.out")" "[3,3]"
is "pl: each pilot ran one trial (3 pilots, each ended completed)" \
    "$(sql "select count(*), total((select count(*) from attempts a where a.job_id like p.job_id || '.p%')) $PL and p.state = 'completed'")" "3|3.0"
check "pl: a pilot too short for the next trial says so" grep -q \
    "s left, less than a trial's time limit of 20 s and a margin of 10 s: drained" \
    "$T/pl.err"
cost_adds_up "$T/pl.out" pl node

# A pilot that dies mid-trial (its job cancelled: SIGTERM to its
# wrapper) fails only its running trial, which is retried in a new pilot.
write_pilot pk 2 20
"$HPOCTL" -f "$CONF" run --format json "$T/pk.json" >"$T/pk.out" \
    2>"$T/pk.err" &
fg=$!
check "both trials start in their pilots" wait_sql_fg \
    "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pk' and a.started > 0" 2
victim=$(sql "select p.token from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pk' order by p.id limit 1")
vdir=$(sql "select dir from pilots where token = '$victim'")
kill -TERM "$(jq .pid "$vdir/result.json")"
rc=0
wait $fg || rc=$?
is "the campaign still finishes" "$rc" 0
is "both trials completed" "$(jq .trials.completed "$T/pk.out")" 2
is "the dead pilot's trial ended node_fail, naming its pilot" \
    "$(sql "select a.state, a.reason like 'its pilot % ended%' from attempts a join pilots p on a.job_id like p.job_id || '.p%' where p.token = '$victim'")" \
    "node_fail|1"
is "and was retried: 3 attempts, 1 retried" \
    "$(jq -c '[.cost.attempts, .cost.retried_attempts]' "$T/pk.out")" "[3,1]"
is "a replacement pilot ran it: 3 pilots" \
    "$(sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pk' and p.started > 0")" 3
cost_adds_up "$T/pk.out" pk node

# The daemon: "auto" (one pilot of a trial's size per parallel trial),
# SIGKILLed while its pilots run trials: the restarted daemon takes back
# the pilots and their trials, which finish; nothing lost or run twice.
start_daemon
write_pilot pd 4 16 '"auto"'
"$HPOCTL" submit "$T/pd.json" >/dev/null
check "daemon: two trials start in their pilots" wait_sql_fg \
    "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pd' and a.started > 0" 2
kill_daemon
start_daemon
check "daemon: the campaign ends after the restart" wait_campaign pd 180
is "daemon: 4 trials completed" \
    "$(sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'pd' and t.state = 'completed'")" 4
is "daemon: one attempt each (the running ones were taken back)" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pd'")" 4
is "daemon: auto made 2 pilots (max_parallel), both taken back" \
    "$(sql "select count(*) from pilots p join campaigns c on c.id = p.campaign_id where c.name = 'pd' and p.ended > 0 and p.state = 'completed'")" 2
check "daemon: the pilots were re-adopted" grep -q "pilot .*: re-adopted" "$T/hpod.log"
is "daemon: no job id twice" \
    "$(sql "select count(distinct job_id) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pd'")" 4
"$HPOCTL" report --ledger "$LEDGER" --format json pd >"$T/pd.json.out"
cost_adds_up "$T/pd.json.out" daemon node
cost_of_pilots "$T/pd.json.out" daemon cpu pd
# Stopped with SIGTERM while its pilots run trials (the sanitizer build
# checks that nothing leaks), then started: the trials go on in them.
write_pilot pt 2 16 '"auto"'
"$HPOCTL" submit "$T/pt.json" >/dev/null
check "pt: two trials start in their pilots" wait_sql_fg \
    "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pt' and a.started > 0" 2
check "hpod stops cleanly with pilots running" stop_daemon
start_daemon
check "pt: the campaign ends after the restart" wait_campaign pt 180
is "pt: both trials completed, one attempt each" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'pt' and a.state = 'completed'")" 2
check "hpod stops cleanly" stop_daemon
done_testing
