#!/bin/sh
# A workload's metric_file on the Slurm backend: the trainer, run by
# sbatch and hpo-trial on the cluster's node, writes its MLLOG lines to a
# file of the attempt directory, and the daemon reads them from there
# (its stdout has a point of its own, which is not read); a trial that
# never writes the file ends saying so, naming it.
. "$(dirname "$0")/lib.subr"

nap_workload
cat >"$T/wl/nap.json" <<JSON
{"name": "nap", "program": "sh", "args": ["$T/bin/nap.sh", "{value}", "{dir}"],
 "defaults": {"value": 1}, "metric_file": "out/mllog_{value}.log"}
JSON
cat >"$T/bin/nap.sh" <<'SH'
ml() {
	echo ":::MLLOG {\"key\": \"eval_error\", \"value\": $1, \"metadata\": {\"epoch_num\": $2}}"
}
ml 0.9 1
if [ "$1" = 1 ]; then
	mkdir -p "$2/out"
	{ ml 0.5 1; ml 0.1 2; } >"$2/out/mllog_1.log"
fi
SH
sleep_campaign mf 1 2 2
jq '.workload = "nap" | .space = {"value": {"type": "choice", "values": [1, 2]}} | .search = {"algorithm": "grid"}' \
    "$T/mf.json" >"$T/mf.tmp" && mv "$T/mf.tmp" "$T/mf.json"
start_daemon
check "submit mf" "$HPOCTL" submit "$T/mf.json"
check "mf ends" wait_campaign mf 120
is "the points are the file's, not stdout's" \
    "$(sql "select group_concat(m.step || ':' || m.value, ' ') from (select m.* from metrics m join $(of mf) and m.attempt_id = a.id and t.number = 0 order by m.step) m")" \
    "1.0:0.5 2.0:0.1"
check "a file never written is named" grep -q \
    "campaign mf: trial 1: completed: slurm COMPLETED, no eval_error reported: $RUNS/[0-9]*-mf/trial-0001/attempt-0/out/mllog_2.log was never written" \
    "$T/hpod.log"
check "the daemon stops" stop_daemon
done_testing
