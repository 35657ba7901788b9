#!/bin/sh
# make-big-campaign.sh DIR: write DIR/big.json, a replay campaign of 2,000
# trials over DIR/table.json (a small synthetic learning-curve table), for
# a ledger with a large trials table (~430 kB in JSON) in a few seconds.
set -eu
T=$1
awk 'BEGIN {
	printf "{\"format\": \"hpod-replay-1\", \"workload\": \"minicosmo\",\n"
	printf " \"metric\": \"eval_error\", \"goal\": \"min\",\n"
	printf " \"params\": [{\"name\": \"lr\", \"scale\": \"log\"}, {\"name\": \"batch_size\", \"scale\": \"log\"}],\n"
	printf " \"fixed\": {\"epochs\": 3},\n \"runs\": ["
	n = 0
	for (i = 1; i <= 4; i++) for (b = 32; b <= 64; b *= 2) {
		printf "%s\n  {\"x\": [%g, %d], \"seed\": 0, \"start_s\": 5, ", n++ ? "," : "", 10 ^ -i, b
		printf "\"status\": 0, \"epoch_s\": [10, 10, 10], \"values\": [0.5, 0.4, %g]}", 0.2 + i / 100
	}
	printf "\n]}\n"
}' >"$T/table.json"
cat >"$T/big.json" <<JSON
{
  "name": "big",
  "workload": "minicosmo",
  "objective": {"metric": "eval_error", "goal": "min"},
  "space": {
    "lr": {"type": "float", "min": 0.0001, "max": 0.1, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64]}
  },
  "fixed": {"epochs": 3},
  "search": {"algorithm": "random", "seed": 5},
  "budget": {"max_trials": 2000, "max_parallel": 16},
  "resources": {"gpus_per_node": 1, "time_limit": "01:00:00"},
  "backend": "replay",
  "replay": {"table": "table.json"},
  "retry": {"limit": 0}
}
JSON
