#!/bin/sh
# A time limit over the partition's MaxTime, or memory over its
# MaxMemPerNode: Slurm (EnforcePartLimits=NO, its default) takes the job,
# and sbatch --test-only says it would start, but it pends for ever
# (PartitionTimeLimit, MaxMemPerLimit).  hpoctl check and hpod's
# submit refuse it, naming the file, the key and the partition's limit,
# and record and submit nothing; a limit within MaxTime is taken, and so
# is one that a second partition the job names allows.
. "$(dirname "$0")/lib.subr"

scontrol create PartitionName=short Nodes=n01,n02 MaxTime=5 State=UP
scontrol create PartitionName=lim Nodes=n03,n04 MaxMemPerNode=500 State=UP
start_daemon
sleep_campaign long 1 1 1 00:20:00
jq '.resources.partition = "short"' "$T/long.json" >"$T/l.json"
mv "$T/l.json" "$T/long.json"
jq '.name = "fits" | .resources.time_limit = "5:00"' "$T/long.json" \
    >"$T/fits.json"
says="campaign 'long': resources: sbatch --test-only refuses the job: time_limit: 20 minutes is over the MaxTime (5 minutes) of partition 'short': Slurm would keep the job pending for ever (PartitionTimeLimit)"

rc=0
"$HPOCTL" check "$T/long.json" >"$T/out.txt" 2>"$T/err.txt" || rc=$?
is "check: refused" "$rc" 1
is "check: names file, key and MaxTime" "$(cat "$T/err.txt")" \
    "hpoctl: $T/long.json: $says"
check "check: a limit of 5:00 fits" "$HPOCTL" check "$T/fits.json"
jq '.name = "either" | .resources.partition = "short,debug"' \
    "$T/long.json" >"$T/either.json"
check "check: 20 minutes in short or debug (no MaxTime) is taken" \
    "$HPOCTL" check "$T/either.json"

jq '.name = "fat" | .resources.partition = "lim" | .resources.time_limit = "5"
    | .resources.mem = "800M"' "$T/long.json" >"$T/fat.json"
rc=0
"$HPOCTL" check "$T/fat.json" >"$T/out.txt" 2>"$T/err.txt" || rc=$?
is "check: mem over MaxMemPerNode refused" "$rc" 1
is "check: names file, key and MaxMemPerNode" "$(cat "$T/err.txt")" \
    "hpoctl: $T/fat.json: campaign 'fat': resources: sbatch --test-only refuses the job: mem: 800 MB is over the MaxMemPerNode (500 MB) of partition 'lim': Slurm would keep the job pending for ever (MaxMemPerLimit)"
jq '.resources.mem = "500M"' "$T/fat.json" >"$T/slim.json"
check "check: 500M fits" "$HPOCTL" check "$T/slim.json"
jq 'del(.resources.mem) | .resources.mem_per_cpu = "300M"
    | .resources.cpus_per_task = 2' "$T/fat.json" >"$T/percpu.json"
rc=0
"$HPOCTL" check "$T/percpu.json" 2>"$T/err.txt" || rc=$?
is "check: mem_per_cpu x CPUs over MaxMemPerNode, refused, named" \
    "$rc $(sed 's/.*refuses the job: //' "$T/err.txt")" \
    "1 mem_per_cpu: 300 MB x 2 CPUs per node = 600 MB is over the MaxMemPerNode (500 MB) of partition 'lim': Slurm would keep the job pending for ever (MaxMemPerLimit)"
jq 'del(.resources.mem) | .resources.mem_per_gpu = "400M"' "$T/fat.json" \
    >"$T/pergpu.json"
rc=0
"$HPOCTL" check "$T/pergpu.json" 2>"$T/err.txt" || rc=$?
is "check: mem_per_gpu x GPUs over MaxMemPerNode, refused, named" \
    "$rc $(sed 's/.*refuses the job: //' "$T/err.txt")" \
    "1 mem_per_gpu: 400 MB x 2 GPUs per node = 800 MB is over the MaxMemPerNode (500 MB) of partition 'lim': Slurm would keep the job pending for ever (MaxMemPerLimit)"

rc=0
"$HPOCTL" submit "$T/long.json" >"$T/out.txt" 2>"$T/err.txt" || rc=$?
is "submit: refused" "$rc" 1
is "submit: names file, key and MaxTime" "$(cat "$T/err.txt")" \
    "hpoctl: $(realpath "$T/long.json"): $says"
is "submit: nothing recorded" \
    "$(sql "select count(*) from campaigns where name = 'long'")" 0
check "submit: a limit of 5:00 is taken" "$HPOCTL" submit "$T/fits.json"
check "and runs to its end" wait_campaign fits 60
is "Slurm saw only the fitting campaign's job" \
    "$(slurm_jobs | awk '$3 ~ /^hpod-/ { n++ } END { print n + 0 }')" 1
check "the daemon stops" stop_daemon
done_testing
