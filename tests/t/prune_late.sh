#!/bin/sh
# A pruned trial's late points: the target stopper prunes the trial at
# epoch 2 (no progress over its grace of 2 epochs), and the trainer, which
# ignores SIGTERM, logs epochs 3 and 4 on target before its job ends (at
# the wrapper's SIGKILL, 10 s later).  The points are recorded, marked
# late, but the trial's best, whether and when it met the target, the
# report's best and time to solution and the guideline table are those at
# the prune.  Before, the late points counted: the pruned trial "met the
# target" at epoch 3 and the report named it best and its solution.
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
cat >"$T/wl/late.json" <<JSON
{"name": "late", "program": "sh", "args": ["$T/bin/late.sh", "{value}"]}
JSON
MLLOG=':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": %s}}\n'
cat >"$T/bin/late.sh" <<SH
trap 'touch "$T/termed"' TERM
printf '$MLLOG' 0.3 1
printf '$MLLOG' 0.3 2
while [ ! -e "$T/termed" ]; do sleep 0.1; done
printf '$MLLOG' 0.05 3
printf '$MLLOG' 0.04 4
i=0
while [ \$i -lt 600 ]; do sleep 0.1; i=\$((i + 1)); done
SH
cat >"$T/pl.json" <<JSON
{"name": "pl", "workload": "late",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1,
     "stopper": {"algorithm": "target", "max_resource": 10,
         "warmup_steps": 2, "leader": 2, "leader_running": 100}},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "resources": {"cpus_per_task": 1}}
JSON

start_daemon
check "the campaign is submitted" "$HPOCTL" submit "$T/pl.json"
check "the campaign ends" wait_campaign pl 60
is "the trial was pruned at epoch 2" \
    "$(sql "select t.state || ' ' || (a.reason like 'pruned by target at epoch 2 %') from trials t join attempts a on a.trial_id = t.id")" \
    "pruned 1"
is "its four points are recorded, the two after the prune marked late" \
    "$(sql "select group_concat(step || ':' || coalesce(late, 0), ' ') from (select * from metrics order by step)")" \
    "1.0:0 2.0:0 3.0:1 4.0:1"
is "the trial's best is its value at the prune, not on target" \
    "$(sql "select best || ' ' || best_step || ' ' || reached || ' ' || coalesce(reached_at, 0) from trials")" \
    "0.3 1.0 0 0"
"$HPOCTL" report --format json pl >"$T/report.json"
is "report: best 0.3, not on target; no time to solution" \
    "$(jq -c '[.best.value, .best.reached, .time_to_solution_s, .trials.reached_target]' "$T/report.json")" \
    '[0.3,false,null,0]'
"$HPOCTL" trials --format json pl >"$T/trials.json"
is "hpoctl trials: the reason says the points came late" \
    "$(jq -r '.[0].reason' "$T/trials.json")" \
    "pruned by target at epoch 2 (eval_error 0.3; rule: extrapolation); 2 eval_error points after it, to epoch 4, late: not counted"
"$HPOCTL" report --table --format json pl >"$T/table.json"
is "guideline table: no success, no epochs to the target" \
    "$(jq -c '[.rows[] | .successes, .epochs.mean]' "$T/table.json")" '[0,null]'
"$HPOCTL" report --format html -o "$T/report.html" pl
# The curve: its points to the prune, the cross there, then the late
# ones dotted from it (x: 1.0 and 2.0 before 3.0 and 4.0; the cut's
# path begins 4 px left of and above the last on-time point).
curve=$(grep -o '<polyline class="curve" data-trial="0"[^>]*points="[^"]*"' "$T/report.html" | sed 's/.*points="//; s/"$//')
late=$(grep -o '<polyline class="late" data-trial="0"[^>]*points="[^"]*"' "$T/report.html" | sed 's/.*points="//; s/"$//')
cut=$(grep -o '<path class="cut"[^>]*d="M[0-9.]* [0-9.]*' "$T/report.html" | sed 's/.*d="M//')
echo "# curve: $curve; late: $late; cut at: $cut"
is "html: the curve has the 2 points to the prune, the late line 3 (from the prune's)" \
    "$(echo "$curve" | wc -w) $(echo "$late" | wc -w)" "2 3"
is "html: the cross is at the last point before the prune" \
    "$(echo "$curve" | awk -v c="$cut" '{ split($NF, p, ","); split(c, q, " ");
        print (p[1] - 4 - q[1])^2 + (p[2] - 4 - q[2])^2 < 0.1 ? "yes" : "no" }')" yes
check "hpod stops cleanly" stop_daemon
done_testing
