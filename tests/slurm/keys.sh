#!/bin/sh
# The Slurm keys beyond the shape (mem, mem_per_gpu, exclusive, reservation,
# signal, gpus_per_task, cpus_per_gpu) reach the job as sbatch would set
# them (scontrol show job; signal by the signal it delivers); one the
# controller refuses fails the attempt
# with the controller's own message; SBATCH_RESERVATION is honoured.
. "$(dirname "$0")/lib.subr"

check "create reservation hpodres on n04" scontrol create \
    reservation=hpodres starttime=now duration=60 users=root nodes=n04
start_daemon

# keys_campaign NAME RESOURCES-JSON-MEMBERS
keys_campaign() {
	cat >"$T/$1.json" <<JSON
{
  "name": "$1",
  "workload": "sleep",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {"seconds": {"type": "choice", "values": [1]}},
  "search": {"algorithm": "random", "seed": 1},
  "budget": {"max_trials": 1, "max_parallel": 1},
  "retry": {"limit": 0},
  "backend": "slurm",
  "resources": {"nodes": 1, "cpus_per_task": 1, "time_limit": "0-0:10",
      $2}
}
JSON
}

# show NAME: scontrol show job of the campaign's first attempt, one line.
show() {
	id=$(sql "select a.job_id from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = '$1'")
	scontrol -o show job "$id"
}

keys_campaign keys '"mem": "500M", "exclusive": true, "reservation": "hpodres",
      "signal": "B:USR1@120", "gpus_per_task": 1, "cpus_per_gpu": 1'
check "submit the campaign with every key" "$HPOCTL" submit "$T/keys.json"
check "it finishes" wait_campaign keys 60
is "its trial completed" "$(sql "select state from trials")" completed
show keys >"$T/keys.job"
sed 's/^/# /' "$T/keys.job"
for want in MinMemoryNode=500M OverSubscribe=NO Reservation=hpodres \
    NodeList=n04 TimeLimit=00:10:00 TresPerTask=gres:gpu:1 \
    CpusPerTres=gres:gpu:1; do
	check "scontrol show job: $want" grep -q " $want " "$T/keys.job"
done

keys_campaign memgpu '"mem_per_gpu": "100M", "gpus_per_task": 2'
check "submit mem_per_gpu" "$HPOCTL" submit "$T/memgpu.json"
check "it finishes" wait_campaign memgpu 60
show memgpu >"$T/memgpu.job"
check "scontrol show job: MemPerTres=gres:gpu:100" \
    grep -q " MemPerTres=gres:gpu:100 " "$T/memgpu.job"

# signal: Slurm sends USR1 to the batch shell (hpo-trial) 110 s before a
# 2-minute limit; hpo-trial forwards it, and sleep dies of it.
cat >"$T/sig.json" <<JSON
{
  "name": "sig",
  "workload": "sleep",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {"seconds": {"type": "choice", "values": [300]}},
  "search": {"algorithm": "random", "seed": 1},
  "budget": {"max_trials": 1, "max_parallel": 1},
  "retry": {"limit": 0},
  "backend": "slurm",
  "resources": {"nodes": 1, "cpus_per_task": 1, "time_limit": "2",
      "signal": "B:USR1@110"}
}
JSON
check "submit signal B:USR1@110" "$HPOCTL" submit "$T/sig.json"
check "it ends before its time limit" wait_campaign sig 110
is "the workload died of SIGUSR1, forwarded by hpo-trial" \
    "$(sql "select a.signal from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'sig'")" \
    "$(/bin/kill -l USR1)"

# More memory than a node has: the controller says no, in its own words:
# to the submit's sbatch --test-only, and to the job's submit when the
# test got no answer (slurmctld frozen: tests/slurm/submit_shape.sh).
keys_campaign toobig '"mem": "64G"'
rc=0
"$HPOCTL" submit "$T/toobig.json" 2>"$T/err.txt" || rc=$?
is "submit 64G on 1000 MB nodes: refused" "$rc" 1
check "by sbatch --test-only" grep -q \
    "campaign 'toobig': resources: sbatch --test-only refuses the job: " \
    "$T/err.txt"
ctld=$(cat "$SC/ctld/slurmctld.pid")
kill -STOP "$ctld"
check "submit 64G on 1000 MB nodes, slurmctld frozen: taken unchecked" \
    "$HPOCTL" submit "$T/toobig.json"
kill -CONT "$ctld"
check "it finishes" wait_campaign toobig 60
is "its trial failed" "$(sql "select t.state from trials t join campaigns c on c.id = t.campaign_id where c.name = 'toobig'")" failed
r=$(sql "select a.reason from attempts a join trials t on t.id = a.trial_id join campaigns c on c.id = t.campaign_id where c.name = 'toobig'")
echo "# reason: $r"
says=$(cd "$T" && sbatch --mem=64G --wrap true 2>&1 |
    sed -n 's/^sbatch: error: Batch job submission failed: //p')
check "sbatch itself refuses it" test -n "$says"
is "the reason is the controller's message, as sbatch shows it" "$r" \
    "slurm: $says"
check "the daemon stops" stop_daemon

# SBATCH_RESERVATION in hpod's environment, as sbatch honours it.
export SBATCH_RESERVATION=hpodres
start_daemon
unset SBATCH_RESERVATION
keys_campaign envres '"mem": 100'
check "submit without a reservation key" "$HPOCTL" submit "$T/envres.json"
check "it finishes" wait_campaign envres 60
show envres >"$T/envres.job"
check "SBATCH_RESERVATION reached the job" \
    grep -q " Reservation=hpodres " "$T/envres.job"
check "the daemon stops" stop_daemon
done_testing
