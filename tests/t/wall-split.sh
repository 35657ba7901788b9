#!/bin/sh
# tests/bench/wall_split.py, where the wall time to target goes eight at
# a time (tests/bench/RESULTS.md, "Where the wall time goes eight at a
# time"): on the
# ledger of a real `hpoctl run` campaign of auto on CIFAR-10's table it
# counts the GPU-seconds bench-search.sh counts and splits them whole;
# on a one-configuration table worked out by hand two at a time it finds
# the winner, its start and own time, and the second trial replaying the
# configuration still running; a ledger that cannot be read is named.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/benchpy.subr"
PY="python3 $TOP/tests/bench/wall_split.py"

profile cifar10-cnn
hpod_run auto 0 8 >"$T/r.txt"
$PY "$TABLE" "$TARGET" 8 "$T/l.db" >"$T/out" 2>&1
sed 's/^/# /' "$T/out"
gpuh=$(awk '{ printf "%.4g", $3 / 3600 }' "$T/r.txt")
has "auto on CIFAR-10, seed 0: bench-search.sh's $gpuh GPU-hours to target" \
    "^GPU-hours to target, median $gpuh;" "$T/out"
check "its GPU-seconds are split whole" awk '/^GPU-seconds: stopped/ {
    gsub(/[(),:]/, " "); s = $3 + $10 + $17; found = 1 }
    END { exit !(found && s > 0.985 && s < 1.015) }' "$T/out"

# One configuration, 10 epochs of 10 s, on target (0.1 <= 0.2) at its
# 5th.  Two at a time both trials play it from 0 s and meet the target
# at 50 s: the winner is trial 0 (started at 0 s, its own time 50 s, of
# the first wave), 100 GPU-seconds (0.02778 GPU-hours), all of them
# running at the target; trial 1 replays the configuration of trial 0,
# still running: half of them.
cat >"$T/one.json" <<'JSON'
{"format": "hpod-replay-1", "workload": "minicosmo",
 "metric": "eval_error", "goal": "min",
 "params": [{"name": "lr", "scale": "log"}], "fixed": {},
 "runs": [
  {"x": [0.01], "seed": 0, "status": 0, "start_s": 0, "epoch_s": [10, 10, 10, 10, 10, 10, 10, 10, 10, 10], "values": [0.9, 0.5, 0.4, 0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1]}
 ]}
JSON
TABLE=$T/one.json WORKLOAD=minicosmo FIXED='{"epochs": 10}'
SPACE='{"lr": {"type": "float", "min": 0.01, "max": 1000, "scale": "log"}}'
TARGET=0.2 BUDGET=1000000 EPOCHS=10
hpod_run random 0 2 >"$T/r.txt"
$PY "$TABLE" "$TARGET" 2 "$T/l.db" >"$T/out" 2>&1
sed 's/^/# /' "$T/out"
has "one configuration two at a time: 0.02778 GPU-hours, 50 s of wall" \
    "^GPU-hours to target, median 0.02778; wall to target, median 50 s (GPU-seconds / wall, median 2.00)" "$T/out"
has "the winner started at 0 s, its own time 50 s" \
    "^winner started at, median 0 s; its own time to target, median 50 s" "$T/out"
has "the winner is of the first wave" "^winner from the first wave: 1 seeds" "$T/out"
has "every GPU-second is of trials running at the target" \
    "stopped 0.00 (after epoch 10: 0.00), played out 0.00, running at the target (winner included) 1.00" "$T/out"
has "half of them replay the configuration still running" \
    "^GPU-seconds replaying a configuration still running: 0.50; one ended: 0.00" "$T/out"
has "the first wave held the configuration and met the target" \
    "reaches the target: 1; of them no first-wave trial met it: 0" "$T/out"

rc=0
$PY "$TABLE" "$TARGET" 2 "$T/none.db" >"$T/out" 2>&1 || rc=$?
is "a ledger that cannot be read is refused" "$rc" 1
has "naming it" "wall_split.py: $T/none.db: " "$T/out"
done_testing
