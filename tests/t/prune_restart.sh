#!/bin/sh
# A prune survives a restart.  The median stopper prunes trial V at epoch 2,
# its job is told to stop, and the process that decided it is killed while
# V's trainer, which ignores SIGTERM, runs on through the cancel's grace;
# by then another trial completed, with which the stopper, asked again,
# would let V go on.  V then logs epochs 3 and 4 on target.  The process
# that takes the campaign back (hpod, or hpoctl resume for a foreground
# hpoctl run) ends V pruned at epoch 2, those points recorded late and
# counted nowhere, as without the restart (tests/t/prune_late.sh).
# Before, the prune was forgotten: V ended failed (the wrapper's SIGKILL),
# met the target at epoch 3, and the report and the guideline table
# counted it a success.
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
cat >"$T/wl/late.json" <<JSON
{"name": "late", "program": "sh", "args": ["$T/bin/late.sh", "{campaign}", "{value}"]}
JSON
MLLOG=':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": %s}}\n'
# Three trials, two at a time, under the median stopper (warmup_steps 2):
# A completes at 0.3 (epochs 1, 2); then V logs 0.5 at epoch 2, worse
# than the median of the completed (A's 0.3), and is pruned; it ignores
# SIGTERM ($T/NAME/termed).  Then C completes at 0.9 (epochs 1 and 3):
# the median at epoch 2 is now 0.6, and V's 0.5 would no longer be
# pruned if the stopper were asked again.  Once $T/NAME/go is made, V
# logs epochs 3 and 4 on target.
cat >"$T/bin/late.sh" <<SH
c=\$1
d="$T/\$c"
done_n() {
	sqlite3 -readonly "$LEDGER" "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = '\$c' and t.state = 'completed'" 2>/dev/null || echo 0
}
if mkdir "\$d/a" 2>/dev/null; then
	printf '$MLLOG' 0.3 1
	printf '$MLLOG' 0.3 2
elif mkdir "\$d/v" 2>/dev/null; then
	trap 'touch "\$d/termed"' TERM
	i=0
	while [ "\$(done_n)" -lt 1 ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
	printf '$MLLOG' 0.5 2
	i=0
	while [ ! -e "\$d/go" ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
	printf '$MLLOG' 0.05 3
	printf '$MLLOG' 0.04 4
	i=0
	while [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
else
	i=0
	while [ ! -e "\$d/termed" ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
	printf '$MLLOG' 0.9 1
	printf '$MLLOG' 0.9 3
fi
SH

# campaign NAME: $T/NAME.json, and its folder $T/NAME.
campaign() {
	mkdir "$T/$1"
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "late",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1,
     "stopper": {"algorithm": "median", "warmup_steps": 2,
         "warmup_trials": 1}},
 "budget": {"max_trials": 3, "max_parallel": 2},
 "resources": {"cpus_per_task": 1}}
JSON
}

# wait_c NAME: wait (up to 30 s) until C completed (V was pruned and told
# to stop before): the moment to kill the process.
wait_c() {
	for _ in $(seq 1 300); do
		[ -e "$T/$1/termed" ] && [ "$(sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = '$1' and t.state = 'completed'")" -eq 2 ] && return 0
		sleep 0.1
	done
	return 1
}

# q NAME EXPR: EXPR over campaign NAME's trial V t and its attempt a.
q() {
	sql "select $2 from trials t join campaigns c on c.id = t.campaign_id join attempts a on a.trial_id = t.id where c.name = '$1' and exists (select 1 from metrics m where m.attempt_id = a.id and m.value = 0.5)"
}

# checks NAME: campaign NAME ended as prune_late.sh's, with no restart.
checks() {
	is "$1: the attempt and its trial ended pruned at epoch 2" \
	    "$(q "$1" "a.state || ' ' || t.state || ' ' || (a.reason like 'pruned by median at epoch 2 %')")" \
	    "pruned pruned 1"
	is "$1: its three points are recorded, the two after the prune late" \
	    "$(q "$1" "(select group_concat(step || ':' || coalesce(late, 0), ' ') from (select * from metrics m where m.attempt_id = a.id order by step))")" \
	    "2.0:0 3.0:1 4.0:1"
	is "$1: the trial's best is its value at the prune, not on target" \
	    "$(q "$1" "t.best || ' ' || t.best_step || ' ' || t.reached || ' ' || coalesce(t.reached_at, 0)")" \
	    "0.5 2.0 0 0"
	"$HPOCTL" report --ledger "$LEDGER" --format json "$1" >"$T/$1.report"
	is "$1: report: best 0.3, not on target; no time to solution" \
	    "$(jq -c '[.best.value, .best.reached, .time_to_solution_s, .trials.reached_target]' "$T/$1.report")" \
	    '[0.3,false,null,0]'
	"$HPOCTL" trials --ledger "$LEDGER" --format json "$1" >"$T/$1.trials"
	is "$1: hpoctl trials: the reason says the points came late" \
	    "$(jq -r '.[] | select(.state != "completed") | .reason' "$T/$1.trials")" \
	    "pruned by median at epoch 2 (eval_error 0.5); 2 eval_error points after it, to epoch 4, late: not counted"
	"$HPOCTL" report --ledger "$LEDGER" --table --format json "$1" \
	    >"$T/$1.table"
	is "$1: guideline table: no success, no epochs to the target" \
	    "$(jq -c '[.rows[] | .successes, .epochs.mean]' "$T/$1.table")" \
	    '[0,null]'
}

printf 'local_cpus = 2\n' >>"$CONF"

# hpod, killed once C completed.
campaign hd
start_daemon
check "hd: the campaign is submitted" "$HPOCTL" submit "$T/hd.json"
check "hd: V is pruned and told to stop, then C completes" wait_c hd
kill_daemon
touch "$T/hd/go"
start_daemon
check "hd: the campaign ends" wait_campaign hd 60
check "hpod stops cleanly" stop_daemon
checks hd

# A foreground hpoctl run, killed likewise, taken back by hpoctl resume.
campaign fg
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" "$T/fg.json" \
    >/dev/null 2>"$T/fg.err" &
pid=$!
check "fg: V is pruned and told to stop, then C completes" wait_c fg
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
touch "$T/fg/go"
check "fg: hpoctl resume takes it back to its end" \
    timeout 120 "$HPOCTL" resume -q --ledger "$LEDGER" --run-dir "$RUNS" fg
checks fg
done_testing
