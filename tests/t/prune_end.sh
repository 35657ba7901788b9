#!/bin/sh
# A point read only with its job's end prunes nothing: the job is gone.
# With output polled every 5 s, the trainer logs epochs 1 and 2 at 0.3
# (the target stopper's no-progress rule would prune it at epoch 2) and 3
# on target, and exits 0 before the next poll: its end's last read finds
# them all.  The trial completed on target, its points all counted, and
# no prune is recorded.  Before a prune was recorded ahead of its cancel
# (tests/t/prune_restart.sh), the cancel of such a job failed and nothing
# was pruned either; a prune recorded there would have marked epoch 3
# late and the trial not on target.
. "$(dirname "$0")/lib.subr"

mkdir -p "$T/wl" "$T/bin"
export HPOD_WORKLOAD_PATH="$T/wl:$HPOD_WORKLOAD_PATH"
sed -i 's/^poll_interval = .*/poll_interval = 5000/' "$CONF"
cat >"$T/wl/ended.json" <<JSON
{"name": "ended", "program": "sh", "args": ["$T/bin/ended.sh", "{value}"]}
JSON
MLLOG=':::MLLOG {"namespace": "", "time_ms": 0, "event_type": "POINT_IN_TIME", "key": "eval_error", "value": %s, "metadata": {"file": "t", "epoch_num": %s}}\n'
cat >"$T/bin/ended.sh" <<SH
sleep 1
printf '$MLLOG$MLLOG$MLLOG' 0.3 1 0.3 2 0.05 3
SH
cat >"$T/en.json" <<JSON
{"name": "en", "workload": "ended",
 "objective": {"metric": "eval_error", "goal": "min", "target": 0.1},
 "space": {"value": {"type": "float", "min": 0.3, "max": 0.6}},
 "search": {"algorithm": "random", "seed": 1,
     "stopper": {"algorithm": "target", "max_resource": 10,
         "warmup_steps": 2, "leader": 2, "leader_running": 100}},
 "budget": {"max_trials": 1, "max_parallel": 1},
 "resources": {"cpus_per_task": 1}}
JSON

start_daemon
check "the campaign is submitted" "$HPOCTL" submit "$T/en.json"
check "the campaign ends" wait_campaign en 60
check "hpod stops cleanly" stop_daemon
is "completed on target at epoch 3, no point late, no prune recorded" \
    "$(sql "select t.state || ' ' || a.state || ' ' || t.best || ' ' || t.reached || ' ' || (select count(*) from metrics m where m.attempt_id = a.id and m.late) || ' ' || (select count(*) from events e where e.kind = 'prune') from trials t join attempts a on a.trial_id = t.id")" \
    "completed completed 0.05 1 0 0"
done_testing
