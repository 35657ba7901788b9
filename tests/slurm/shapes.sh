#!/bin/sh
# Every distinct job shape a Slurm campaign submits is put to `sbatch
# --test-only` before the campaign is taken, not only the spec's
# resources: each batch size's job in a scaling campaign with
# scaling.local_batch (B / 16 ranks of 2 GPUs a node: 256 needs 8 nodes,
# the cluster has 4), and a pilot campaign's pilot job (5 nodes).  The
# controller takes such jobs and they pend for ever; hpoctl check, hpoctl
# run and hpoctl submit refuse them in sbatch's words, naming file,
# campaign, the key (the batch size's place in the file) and the shape,
# and record nothing.  A campaign whose shapes all fit is taken.
. "$(dirname "$0")/lib.subr"

# scale_campaign NAME SIZES: a scaling campaign of batch sizes SIZES.
scale_campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "slowcosmo",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {"lr": {"type": "float", "min": 0.003, "max": 0.03, "scale": "log"}},
  "fixed": {"epochs": 4, "warmup_epochs": 0, "train_samples": 512, "eval_samples": 128},
  "batch_sizes": [$2],
  "scaling": {"lr_rule": "linear", "trials_per_batch": 1, "seeds": 1,
              "local_batch": 16},
  "search": {"algorithm": "random", "seed": 3},
  "budget": {"max_trials": 8, "max_parallel": 4},
  "backend": "slurm",
  "resources": {"gpus_per_node": 2, "cpus_per_task": 1,
      "time_limit": "00:05:00"}
}
JSON
}

# sbatch_says OPTIONS: what sbatch --test-only itself says of a job.
sbatch_says() {
	(cd "$T" && sbatch --test-only "$@" --wrap=true 2>&1) |
	    sed 's/^sbatch: error: //' | paste -sd ';' | sed 's/;/; /g'
}

# refused NAME WHAT: campaign NAME is refused by check, run and submit,
# with the words WHAT (key, shape and sbatch's own refusal).
refused() {
	rc=0
	"$HPOCTL" check "$T/$1.json" >/dev/null 2>"$T/err.txt" || rc=$?
	is "$1: check refuses it" "$rc" 1
	is "$1: naming file, campaign, key and shape, in sbatch's words" \
	    "$(cat "$T/err.txt")" "hpoctl: $T/$1.json: campaign '$1': $2"
	rc=0
	timeout 60 "$HPOCTL" -f "$CONF" run "$T/$1.json" >/dev/null \
	    2>"$T/err.txt" || rc=$?
	is "$1: run refuses it" "$rc" 1
	check "$1: in the same words" grep -qF "campaign '$1': $2" \
	    "$T/err.txt"
	rc=0
	"$HPOCTL" submit "$T/$1.json" >/dev/null 2>"$T/err.txt" || rc=$?
	is "$1: submit refuses it" "$rc" 1
	is "$1: in the same words" "$(cat "$T/err.txt")" \
	    "hpoctl: $(realpath "$T/$1.json"): campaign '$1': $2"
	is "$1: nothing recorded" \
	    "$(sql "select count(*) from campaigns where name = '$1'")" 0
}

start_daemon

# 16 to 128 need 1 to 4 nodes of 2 GPUs: taken, its four shapes asked.
scale_campaign fits "128, 16, 64, 32"
check "a scaling campaign whose batch sizes all fit: check takes it" sh -c \
    "'$HPOCTL' check '$T/fits.json' | grep -q \"fits.json: sbatch --test-only takes the campaign's 4 job shapes; the last, batch_sizes\\[0\\] = 128: needs 4 nodes x 2 GPUs: sbatch: Job [0-9]* to start\""
check "so does submit" "$HPOCTL" submit "$T/fits.json"
check "hpod's log says the controller takes its 4 shapes" wait_for_log \
    "campaign 'fits': $(realpath "$T/fits.json"): sbatch --test-only takes the campaign's 4 job shapes"
check "it runs to its end" wait_campaign fits 180
is "a trial ran at each batch size, on the nodes x GPUs asked about" \
    "$(sql "select group_concat(x, ' ') from (select distinct t.batch_size || '=' || a.nodes || 'x' || a.gpus as x from attempts a join trials t on t.id = a.trial_id order by t.batch_size)")" \
    "16=1x1 32=1x2 64=2x4 128=4x8"

# 256, third in the file, needs 8 nodes of 2 GPUs.
scale_campaign big "16, 32, 256, 64"
says=$(sbatch_says --nodes=8 --gpus-per-node=2)
check "sbatch --test-only itself refuses 8 nodes" test -n "$says"
refused big "batch_sizes[2] = 256: needs 8 nodes x 2 GPUs; sbatch --test-only refuses the job: $says"

# A pilot of 5 nodes for trials of 1: the trial's shape fits, the
# pilot's does not.
sleep_campaign pilot 1 2 1
jq '. + {"dispatch": "pilot", "pilot": {"count": 1, "nodes": 5}}' \
    "$T/pilot.json" >"$T/pilot.tmp" && mv "$T/pilot.tmp" "$T/pilot.json"
says=$(sbatch_says --nodes=5 --gpus-per-node=2)
check "sbatch --test-only itself refuses 5 nodes" test -n "$says"
refused pilot "pilot: needs 5 nodes x 1 CPU and 2 GPUs; sbatch --test-only refuses the job: $says"

is "Slurm holds no job of the refused campaigns" \
    "$(squeue -h -t all -o %j | grep -c -e big -e pilot)" 0
check "the daemon stops" stop_daemon
done_testing
