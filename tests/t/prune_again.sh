#!/bin/sh
# A pruned trial whose trainer evaluates again a step it already logged,
# up to the one it was pruned at (several evaluations an epoch, as
# DeepCAM's reference makes): the target stopper prunes the trial at
# epoch 2 with 0.3, and in the cancel's grace its trainer logs epoch 2
# again with 0.05, on target, and epoch 1 with 0.04.  Those values came
# after the prune: the ledger keeps the values the stopper acted on, and
# the trial's best and its reach of the target are those at the prune,
# with or without a restart of the process in between.  Before, a
# repeated step's better value (ledger_metric_set(), the live curve's
# keep-best) replaced the pruned one: the pruned trial "met the target".
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
cat >"$T/wl/again.json" <<JSON
{"name": "again", "program": "sh", "args": ["$T/bin/again.sh", "{campaign}", "{value}"]}
JSON
MLLOG=':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": %s}}\n'
# Once told to stop ($T/NAME/termed) and let go ($T/NAME/go), it logs
# epochs 2 and 1 again, then epoch 3 (late), and runs on to its SIGKILL.
cat >"$T/bin/again.sh" <<SH
d="$T/\$1"
trap 'touch "\$d/termed"' TERM
printf '$MLLOG' 0.3 1
printf '$MLLOG' 0.3 2
i=0
while [ ! -e "\$d/termed" ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done
while [ ! -e "\$d/go" ] && [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
printf '$MLLOG' 0.05 2
printf '$MLLOG' 0.04 1
printf '$MLLOG' 0.03 3
i=0
while [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
SH

# campaign NAME: $T/NAME.json, and its folder $T/NAME.
campaign() {
	mkdir "$T/$1"
	cat >"$T/$1.json" <<JSON
{"name": "$1", "workload": "again",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1,
     "stopper": {"algorithm": "target", "max_resource": 10,
         "warmup_steps": 2, "leader": 2, "leader_running": 100}},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "resources": {"cpus_per_task": 1}}
JSON
}

# q NAME EXPR: EXPR over campaign NAME's trial t and its attempt a.
q() {
	sql "select $2 from trials t join campaigns c on c.id = t.campaign_id join attempts a on a.trial_id = t.id where c.name = '$1'"
}

# checks NAME: the ledger is the one the stopper acted on.
checks() {
	is "$1: the trial was pruned at epoch 2" \
	    "$(q "$1" "t.state || ' ' || (a.reason like 'pruned by target at epoch 2 %')")" \
	    "pruned 1"
	is "$1: epochs 1 and 2 keep the values before the prune, 3 is late" \
	    "$(q "$1" "(select group_concat(step || ':' || value || ':' || coalesce(late, 0), ' ') from (select * from metrics m where m.attempt_id = a.id order by step))")" \
	    "1.0:0.3:0 2.0:0.3:0 3.0:0.03:1"
	is "$1: the trial's best is its value at the prune, not on target" \
	    "$(q "$1" "t.best || ' ' || t.best_step || ' ' || t.reached || ' ' || coalesce(t.reached_at, 0)")" \
	    "0.3 1.0 0 0"
	"$HPOCTL" report --ledger "$LEDGER" --format json "$1" >"$T/$1.report"
	is "$1: report: best 0.3, not on target" \
	    "$(jq -c '[.best.value, .best.reached, .time_to_solution_s, .trials.reached_target]' "$T/$1.report")" \
	    '[0.3,false,null,0]'
}

# Run to its end in one process.
campaign pa
touch "$T/pa/go"
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" "$T/pa.json" \
    >/dev/null 2>"$T/pa.err" || sed 's/^/# /' "$T/pa.err"
checks pa

# Killed once the trial was pruned and told to stop, taken back by
# hpoctl resume, which reads its output anew from the start.
campaign pr
"$HPOCTL" run -q --ledger "$LEDGER" --run-dir "$RUNS" "$T/pr.json" \
    >/dev/null 2>"$T/pr.err" &
pid=$!
for _ in $(seq 1 300); do
	[ -e "$T/pr/termed" ] && break
	sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
check "pr: the trial was told to stop before the kill" test -e "$T/pr/termed"
touch "$T/pr/go"
check "pr: hpoctl resume takes it back to its end" \
    timeout 120 "$HPOCTL" resume -q --ledger "$LEDGER" --run-dir "$RUNS" pr
checks pr
done_testing
