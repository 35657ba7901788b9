#!/bin/sh
# A batch-size scaling campaign on a real Slurm cluster: with
# scaling.local_batch, each trial's job is sized by its batch size (B / 16
# ranks, 2 GPUs per node), Slurm allocates exactly that, and the cost
# follows the allocation.  Its trials run slowcosmo (minicosmo behind a
# one-second sleep): Slurm bills whole seconds, and a plain minicosmo of 4
# small epochs ends in the second it started on a fast machine, billed 0 s
# (8 such jobs made the check of the cost below compare 0 with 0 and fail).
. "$(dirname "$0")/lib.subr"

start_daemon
cat >"$T/scale.json" <<JSON
{
  "name": "scale",
  "workload": "slowcosmo",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {"lr": {"type": "float", "min": 0.003, "max": 0.03, "scale": "log"}},
  "fixed": {"epochs": 4, "warmup_epochs": 0, "train_samples": 512, "eval_samples": 128},
  "batch_sizes": [16, 32, 64, 128],
  "scaling": {"lr_rule": "linear", "trials_per_batch": 1, "seeds": 1,
              "local_batch": 16},
  "search": {"algorithm": "random", "seed": 3},
  "budget": {"max_trials": 8, "max_parallel": 4},
  "backend": "slurm",
  "resources": {"gpus_per_node": 2, "cpus_per_task": 1,
      "time_limit": "00:05:00"}
}
JSON
check "hpoctl check accepts it" "$HPOCTL" check "$T/scale.json"
check "submit the scaling campaign" "$HPOCTL" submit "$T/scale.json"
check "the campaign finishes" wait_campaign scale 180
is "8 trials: a tuning trial and a confirmation run per batch size" \
    "$(sql "select group_concat(n, ' ') from (select batch_size || ':' || count(*) as n from trials group by batch_size order by batch_size)")" \
    "16:2 32:2 64:2 128:2"
# B / 16 ranks: 1 GPU on 1 node, 2 on 1, 2 x 2, 4 x 2.
is "Slurm allocated nodes x GPUs by batch size" \
    "$(sql "select group_concat(x, ' ') from (select distinct t.batch_size || '=' || a.nodes || 'x' || a.gpus as x from attempts a join trials t on t.id = a.trial_id order by t.batch_size)")" \
    "16=1x1 32=1x2 64=2x4 128=4x8"
check "each job.json asks for those nodes" sh -c "for d in \$(sqlite3 '$LEDGER' \"select a.dir from attempts a join trials t on t.id = a.trial_id where t.batch_size = 128\"); do jq -e '.nodes == 4' \"\$d/job.json\" >/dev/null || exit 1; done"
"$HPOCTL" report --format json scale >"$T/report.json"
want=$(sql "select printf('%.9f', sum((ended - started) * gpus) / 3600.0) from attempts")
got=$(jq -r '.cost.gpu_hours' "$T/report.json")
if awk -v a="$want" -v b="$got" \
    'BEGIN { exit !(a > 0 && a - b < 1e-9 && b - a < 1e-9) }'; then
	ok "GPU-hours = elapsed x allocated GPUs ($got)"
else
	not_ok "GPU-hours = elapsed x allocated GPUs ($got, want $want)"
	sql "select id, state, started, ended, gpus from attempts" |
	    sed 's/^/#   /'
fi
check "every job ran at least a second of Slurm's clock" test \
    "$(sql "select count(*) from attempts where ended - started >= 1")" = 8
check "the daemon stops" stop_daemon
done_testing
