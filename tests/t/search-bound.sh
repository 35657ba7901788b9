#!/bin/sh
# tests/bench/search_bound.py, the helper of tests/bench/search-bound.sh:
# its cost model is the replay backend's (checked against the ledger of
# a real `hpoctl run` on a bench table, and a ledger that disagrees is
# refused naming the trial), and on a two-configuration table its
# bounds, floor and replay of random are the figures worked out by hand
# below.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/benchpy.subr"
PY="python3 $TOP/tests/bench/search_bound.py"

# hpod's random on minicosmo's table (start_s 0.052 s: a model without
# it is off by that much), 8 at a time, through the replay backend.
profile minicosmo
hpod_run random 0 8 >"$T/r.txt"
passes "the ledger's costs and values are the helper's" \
    $PY check "$TABLE" "$T/l.db" "$TARGET"
has "it compared every attempt" \
    ' [1-9][0-9]* attempts ended at their last played epoch' "$T/out"
n=$(sqlite3 "$T/l.db" "select count(*) from attempts where started > 0")
has "as many attempts as the ledger holds ($n)" \
    " $n attempts" "$T/out"

# A ledger whose cost or values are not the table's is refused.
cp "$T/l.db" "$T/cost.db"
sqlite3 "$T/cost.db" "update attempts set ended = ended + 0.5 where id =
    (select min(id) from attempts where state = 'completed')"
rc=0
$PY check "$TABLE" "$T/cost.db" "$TARGET" >"$T/out" 2>&1 || rc=$?
is "half a second more is refused" "$rc" 1
has "naming the trial and both costs" \
    'trial [0-9]*: .* GPU-seconds in the ledger, the table says' "$T/out"
cp "$T/l.db" "$T/value.db"
sqlite3 "$T/value.db" "update metrics set value = value + 0.01 where
    rowid = (select min(rowid) from metrics where key = 'eval_error')"
rc=0
$PY check "$TABLE" "$T/value.db" "$TARGET" >"$T/out" 2>&1 || rc=$?
is "a value not the run's is refused" "$rc" 1
has "naming the metric" "eval_error values are not its run's" "$T/out"

# Two configurations over lr log-uniform in [0.01, 1000] (5 decades):
# A (lr 0.01, nearest for lr < 0.1: 1 decade, 20% of the draws) reaches
# the target 0.2 at its 3rd epoch of 10 s (time to target 30 s, first
# result 10 s); B (lr 1) never does (2 epochs of 20 s: first result 20 s,
# 40 s in all).  Floor: 30 s.
# One at a time: a wave of A costs 30 s; of B, 20 s and then A: 50 s;
# B 80% of the time, so every bound's median is 50 s.
# Two at a time: a wave without A (64% random, 60% Sobol': one of its
# two points in each half of the range) is stopped at 20 s each while A
# runs in the first slot that frees: 30 + 20 + 20 = 70 s, the median;
# with both slots busy until A reaches the target at 20 + 30 s, 100 s.
# Random, one at a time: B N times before A, N geometric (P(N <= 2) =
# 0.488, P(N <= 3) = 0.590), so its median is 3 x 40 + 30 = 150 s.
cat >"$T/two.json" <<'JSON'
{"format": "hpod-replay-1", "workload": "minicosmo",
 "metric": "eval_error", "goal": "min",
 "params": [{"name": "lr", "scale": "log"}], "fixed": {},
 "runs": [
  {"x": [0.01], "seed": 0, "status": 0, "start_s": 0, "epoch_s": [10, 10, 10, 10], "values": [0.5, 0.3, 0.1, 0.05]},
  {"x": [1], "seed": 0, "status": 0, "start_s": 0, "epoch_s": [20, 20], "values": [0.6, 0.5]}
 ]}
JSON
SP='{"lr": {"type": "float", "min": 0.01, "max": 1000, "scale": "log"}}'
# random's results (reached epochs gpu_s best trials), median 360 s.
printf '1 3 360 0.1 2\n1 3 720 0.1 4\n1 3 180 0.1 1\n' >"$T/rr.txt"
# secs FIELDS LINE: those fields of the line, GPU-hours, in seconds.
secs() {
	echo "$2" | awk -v f="$1" '{ n = split(f, a, " "); o = ""
	    for (i = 1; i <= n; i++) o = o (i == 1 ? "" : " ") \
	        sprintf("%.0f", $(a[i]) * 3600)
	    print o }'
}
l1=$($PY bound "$T/two.json" "$SP" 0.2 1e6 1 "$T/rr.txt")
echo "# one at a time: $l1"
is "one at a time: random's 3 seeds, median 360 s" \
    "$(echo "$l1" | cut -d' ' -f1) $(secs 3 "$l1")" "3 360"
is "one at a time: the helper's random, median 150 s" \
    "$(secs 6 "$l1")" 150
is "one at a time: six bounds of 50 s, floor 30 s" \
    "$(secs "7 8 9 10 11 12 13" "$l1")" "50 50 50 50 50 50 30"
check "one at a time: 20% of the waves hold A" \
    awk -v l="$l1" 'BEGIN { split(l, f, " ")
    exit !(f[14] > 0.18 && f[14] < 0.22 && f[15] > 0.18 && f[15] < 0.22) }'
l2=$($PY bound "$T/two.json" "$SP" 0.2 1e6 2 "$T/rr.txt")
echo "# two at a time: $l2"
is "two at a time: bounds of 70 s, busy 100 s, floor 30 s" \
    "$(secs "7 8 9 10 11 12 13" "$l2")" "70 70 100 70 70 100 30"
check "two at a time: 36% of random waves, 40% of Sobol' ones hold A" \
    awk -v l="$l2" 'BEGIN { split(l, f, " ")
    exit !(f[14] > 0.34 && f[14] < 0.38 && f[15] > 0.38 && f[15] < 0.42) }'

# The cheaper per epoch of two Sobol' points is A (10 s against 20 s)
# unless both are B: A in 1 - 0.8^2 = 36% of the waves of one.
$PY wave "$T/two.json" "$SP" 0.2 1e6 1 >"$T/wave"
sed 's/^/# /' "$T/wave"
check "waves of one: 20% random, 20% Sobol', 36% cheaper-of-two hold A" \
    awk '{ v[NR] = $(NF - 7) + 0 } END { exit !(v[1] > 18 && v[1] < 22 &&
        v[2] > 18 && v[2] < 22 && v[3] > 34 && v[3] < 38) }' "$T/wave"

# Bad input names the file and the key.
rc=0
$PY bound "$T/two.json" '{"momentum": {"type": "float", "min": 0, "max": 1}}' \
    0.2 1e6 1 "$T/rr.txt" 2>"$T/err" || rc=$?
is "a space without the table's parameter is refused" "$rc" 1
has "naming it" "parameter 'lr' is not in the space" "$T/err"
rc=0
$PY bound "$T/two.json" "$SP" 0.01 1e6 1 "$T/rr.txt" 2>"$T/err" || rc=$?
is "a target no run reaches is refused" "$rc" 1
has "naming the table" "two.json: no run reaches the target 0.01" "$T/err"

done_testing
