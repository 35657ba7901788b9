#!/bin/sh
# A campaign of the real proxy trainer on a real Slurm cluster, through the
# daemon: every trial is a Slurm job (alike trials go as one job array),
# its allocation and cost are recorded, and a daemon restarted
# mid-campaign re-adopts its jobs without submitting any twice.
. "$(dirname "$0")/lib.subr"

start_daemon
# No target: every trial trains all its epochs.  slowcosmo is minicosmo
# behind a one-second sleep: Slurm times jobs in whole seconds and the cost
# checks need elapsed > 0, which 6 small epochs of a plain trainer do not
# give on a fast machine.
cat >"$T/cosmo.json" <<JSON
{
  "name": "cosmo",
  "workload": "slowcosmo",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {
    "lr": {"type": "float", "min": 0.005, "max": 0.1, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}
  },
  "fixed": {"epochs": 6, "warmup_epochs": 0, "train_samples": 512, "eval_samples": 128},
  "search": {"algorithm": "random", "seed": 3},
  "budget": {"max_trials": 6, "max_parallel": 4},
  "backend": "slurm",
  "resources": {"nodes": 2, "gpus_per_node": 2, "tasks_per_node": 1,
      "cpus_per_task": 1, "time_limit": "00:05:00"}
}
JSON
check "submit a Slurm campaign" "$HPOCTL" submit "$T/cosmo.json"
check "the campaign finishes" wait_campaign cosmo 120
is "all six trials completed" \
    "$(sql "select count(*) from trials where state = 'completed'")" 6
is "one attempt per trial" "$(sql 'select count(*) from attempts')" 6
is "every attempt has a Slurm job id" \
    "$(sql "select count(*) from attempts where job_id glob '[0-9]*'")" 6
check "the first four went as one job array" test \
    "$(sql "select count(distinct substr(job_id, 1, instr(job_id, '_') - 1)) from attempts where job_id like '%\\_%' escape '\\'")" -ge 1
is "allocation: 2 nodes, 4 GPUs, 2 CPUs per attempt" \
    "$(sql "select distinct nodes || ' ' || gpus || ' ' || cpus from attempts")" \
    "2 4 2"
check "hosts are Slurm node lists" test \
    "$(sql "select count(*) from attempts where host glob 'n[[0]*'")" -eq 6
check "queue wait recorded (submitted <= started, Slurm's whole second)" test \
    "$(sql "select count(*) from attempts where submitted is not null and started >= cast(submitted as int)")" -eq 6
check "eval_error curves recorded for every trial" test \
    "$(sql "select count(distinct a.trial_id) from metrics m join attempts a on a.id = m.attempt_id where m.key = 'eval_error'")" -eq 6
"$HPOCTL" report --format json cosmo >"$T/report.json"
# GPU-hours are elapsed time times allocated GPUs, over every attempt.
want=$(sql "select printf('%.9f', sum((ended - started) * gpus) / 3600.0) from attempts")
got=$(jq -r '.cost.gpu_hours' "$T/report.json")
check "GPU-hours = elapsed x GPUs ($got)" awk -v a="$want" -v b="$got" \
    'BEGIN { exit !(a > 0 && a - b < 1e-9 && b - a < 1e-9) }'
want=$(sql "select printf('%.9f', sum((ended - started) * nodes) / 3600.0) from attempts")
got=$(jq -r '.cost.node_hours' "$T/report.json")
check "node-hours = elapsed x nodes ($got)" awk -v a="$want" -v b="$got" \
    'BEGIN { exit !(a > 0 && a - b < 1e-9 && b - a < 1e-9) }'
check "the report names the best trial" jq -e '.best.value > 0 and .best.value < 1' "$T/report.json"
# Slurm holds exactly one job per attempt, each carrying hpod's comment.
is "Slurm ran one job per attempt" "$(slurm_jobs | wc -l)" 6
is "every Slurm job completed" "$(slurm_jobs | grep -vc ' COMPLETED ')" 0
tok=$(sql "select token from attempts a join trials t on t.id = a.trial_id where t.number = 5")
jid=$(sql "select job_id from attempts a join trials t on t.id = a.trial_id where t.number = 5")
check "a job's comment carries its attempt's token" sh -c \
    "scontrol show job '$jid' | grep -q 'Comment=\\(hpod-array .*\\|$tok\\)'"
check "job.json holds the argv (no parameter in the batch script)" jq -e \
    '.argv | index("--lr")' \
    "$(sql "select dir from attempts a join trials t on t.id = a.trial_id where t.number = 5")/job.json"

# Restart mid-campaign: the daemon stops, jobs run on, the new daemon
# re-adopts them and submits nothing twice.
sleep_campaign naps 8 6 3
check "submit a campaign of 8 s jobs" "$HPOCTL" submit "$T/naps.json"
check "three jobs are running" wait_sql \
    "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'naps' and a.started is not null" 3 30
check "SIGTERM: the daemon exits 0" stop_daemon
before=$(slurm_jobs | wc -l)
sleep 2
start_daemon
check "the campaign finishes after the restart" wait_campaign naps 120
is "naps: six trials completed" \
    "$(sql "select count(*) from trials t join campaigns c on c.id = t.campaign_id where c.name = 'naps' and t.state = 'completed'")" 6
is "naps: no attempt was submitted twice" \
    "$(sql "select count(*) from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'naps'")" 6
is "Slurm got no extra job across the restart" "$(slurm_jobs | wc -l)" \
    $((before + 3))
check "re-adoption was logged" grep -q "re-adopted" "$T/hpod.log"
check "the daemon stops" stop_daemon
done_testing
