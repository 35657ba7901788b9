#!/bin/sh
# tests/bench/stop_screen.py, the offline stopper screen of "A stopper
# judged against the campaign's leader" in tests/bench/RESULTS.md: its cost and stopper
# model is the replay backend's and the target stopper's with its
# leader rule (checked on the
# ledgers of real `hpoctl run` campaigns, and a ledger that disagrees is
# refused naming the trial), its rules stop where the hand-worked curves
# below say, and on a two-configuration table its medians are the ones
# worked out by hand.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/benchpy.subr"
PY="python3 $TOP/tests/bench/stop_screen.py"

# hpod's random with the target stopper on minicosmo's table, one at a
# time (grace: warm-up 1 + 3 epochs; its leader rule, K 2, from the
# epoch after the warm-up: leader:2@2).  Seed 5 draws a run that
# diverged before its first epoch (it costs nothing, not its start_s)
# before the winner; seed 1 stops its trial 1 at the grace epoch, so a
# grace of 3 or 5 disagrees with the ledger, and its trial 2 at epoch 2
# by the leader rule, so the rule without it (target) or judging from
# epoch 3 disagrees too.
profile minicosmo
hpod_run random+target 5 1 >"$T/r.txt"
passes "seed 5: the ledger's epochs and cost are the replay's" \
    $PY check "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" 4 leader:2@2
gpu=$(awk '{ printf "%.4f", $3 }' "$T/r.txt")
has "the cost to target is bench-search.sh's ($gpu GPU-s)" \
    " $gpu GPU-seconds to target in both" "$T/out"
hpod_run random+target 1 1 >"$T/r.txt"
passes "seed 1: the ledger's epochs and cost are the replay's" \
    $PY check "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" 4 leader:2@2
n=$(sqlite3 "$T/l.db" "select min(number) + 1 from trials where reached")
has "it replayed every trial up to the winner ($n)" \
    ": $n trials replayed as the ledger played them" "$T/out"
for g in 3 5; do
	rc=0
	$PY check "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" $g leader:2@2 \
	    >"$T/out" 2>&1 || rc=$?
	is "a grace of $g disagrees with the ledger" "$rc" 1
	has "naming the trial and both epoch counts" \
	    "trial 1: 4 epochs in the ledger, the replay plays $g" "$T/out"
done
for r in target leader:2@3 leader:3@2; do
	rc=0
	$PY check "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" 4 $r >"$T/out" 2>&1 ||
	    rc=$?
	is "rule $r disagrees with the ledger" "$rc" 1
	has "at trial 2, stopped at epoch 2 by the leader" \
	    "trial 2: 2 epochs in the ledger, the replay plays 4" "$T/out"
done
cp "$T/l.db" "$T/cost.db"
sqlite3 "$T/cost.db" "update attempts set ended = ended + 0.5 where id =
    (select min(id) from attempts where state = 'completed')"
rc=0
$PY check "$TABLE" "$T/cost.db" "$TARGET" "$EPOCHS" 4 leader:2@2 >"$T/out" \
    2>&1 || rc=$?
is "a ledger half a second dearer is refused" "$rc" 1
has "naming both costs" \
    "GPU-seconds to target in the ledger, the replay says" "$T/out"

# The rules on hand-worked curves: target 0.2, 10 epochs of 10 s,
# grace 2.  B falls to 0.3 at epoch 2 and stays there: target.c's rate
# since its first point, 0.6 / (e - 1), misses the target first at
# epoch 9 (0.3 - 0.6 x 1 / 8 > 0.2).  C does the same at 0.35.  With B
# played before C: leader:2 stops C at epoch 4 (0.35 is worse than B's
# 0.3 by epoch 2; at 2 and 3, B's epoch 1 is 0.9), leadtime:2 too (the
# same clock), ratio:1.4 at the grace epoch (0.15 > 1.4 x 0.1), drop:1
# there too (B gained nothing after epoch 2), quantile:0.5 not (fewer
# than 5 earlier trials: target's epoch 9), and none never.
curves_py rules <<'PY'
b, c = run(10, [0.9] + [0.3] * 9), run(10, [0.9] + [0.35] * 9)
h = ss.History(10)
print("B alone: target %s" % ss.rule_stop("target", None, b, h, 0.2, 10, 2))
h.add(b, 10)
for r in ("none", "target", "leader:2", "leadtime:2", "ratio:1.4", "drop:1",
          "quantile:0.5"):
    name, arg, _ = ss.parse_rule(r)
    print("C after B: %s %s" % (r, ss.rule_stop(name, arg, c, h, 0.2, 10, 2)))
PY
is "the rules stop where worked out" "$(tr '\n' ';' <"$T/out")" \
    "B alone: target 9;C after B: none None;C after B: target 9;C after B: leader:2 4;C after B: leadtime:2 4;C after B: ratio:1.4 2;C after B: drop:1 2;C after B: quantile:0.5 9;"

# The cost-aware rules of "The leader rule in GPU-seconds, combined":
# target 0.2, 10 epochs, grace 2.  B (10 s an epoch) falls 0.9, 0.3,
# 0.28, 0.26, 0.24, 0.22, 0.21, 0.205, 0.203, 0.202 and misses; D plays
# the same curve at 40 s an epoch after B.  target.c's extrapolation
# keeps D to its end (at epoch 9: 0.203 - 0.697 / 8 < 0.2), and so
# does leader:2 (D at e is never worse than B at e / 2).  leadtime:2
# stops it at epoch 2 (0.3 at 80 s; B had 0.26 by 40 s); with %4 never
# (D's 40 s an epoch is not more than 4 x B's 10), with %3 at 2; with ,1
# once D has spent more than 1 x 10 epochs x 10 s: at epoch 3 (0.28 at
# 120 s, B 0.21 by 60 s), with ,2 more than 200 s: at epoch 6 (0.22, B
# 0.202 by 120 s); leader:2 + leadtime:2,2 at the first of the two: 6.
curves_py dear <<'PY'
f = [0.9, 0.3, 0.28, 0.26, 0.24, 0.22, 0.21, 0.205, 0.203, 0.202]
h = ss.History(10)
h.add(run(10, f), 10)
for r in ("target", "leader:2", "leadtime:2", "leadtime:2%4", "leadtime:2%3",
          "leadtime:2,1", "leadtime:2,2", "leader:2+leadtime:2,2"):
    name, arg, since = ss.parse_rule(r)
    print("%s %s" % (r, ss.rule_stop(name, arg, run(40, f), h, 0.2, 10, 2,
                                     since)))
PY
is "the cost-aware rules stop the dear run where worked out" \
    "$(tr '\n' ';' <"$T/out")" \
    "target None;leader:2 None;leadtime:2 2;leadtime:2%4 None;leadtime:2%3 2;leadtime:2,1 3;leadtime:2,2 6;leader:2+leadtime:2,2 6;"

# Two configurations over lr log-uniform in [0.01, 1000] (5 decades): A
# (lr 0.01, nearest for lr < 0.1: 20% of the draws) reaches the target at
# its 5th epoch (50 s); B (lr 1, 80%) is the curve above (100 s, 90 s
# under target, 20 s stopped at the grace).  B is drawn N times before
# A, N geometric (P(N <= 2) = 0.488, P(N <= 3) = 0.590): every median is
# 3 B's and A.  none 350 s; target 320 s; oracle (B stopped at the
# grace) 110 s; envelope (B is worse than A's 0.3 by epoch 4 first at
# epoch 5, where no winner is left short of the target) 200 s; leader:2
# is target in every seed (B never trails B, and A never trails B's
# value at half its epoch); leader:1 stops A behind B at epoch 2 (0.5
# against 0.3), so only seeds whose first draw is A (20%) reach it.
two_table
$PY replay "$T/two.json" "$SP" 0.2 5000 10 2 2000 none target oracle \
    envelope leader:2 leader:1 >"$T/out"
sed 's/^/# /' "$T/out"
secs() {
	awk -v r="$1" '$1 == r { printf "%.0f", $5 * 3600 }' "$T/out"
}
is "medians none, target, oracle, envelope, leader:2 (s)" \
    "$(secs none) $(secs target) $(secs oracle) $(secs envelope) $(secs leader:2)" \
    "350 320 110 200 320"
has "leader:2 costs what target does in every seed" \
    "^leader:2 .* x1.00 target  cheaper/dearer 0/0 " "$T/out"
check "leader:1 stops the winner behind B: about 20% reach" \
    awk '$1 == "leader:1" { r = $3 + 0; exit !(r > 17 && r < 23) }' "$T/out"

# Bad input is refused naming it.
rc=0
$PY replay "$T/two.json" "$SP" 0.2 1e6 10 2 10 leader:0.5 2>"$T/err" || rc=$?
is "a K below 1 is refused" "$rc" 1
has "naming the rule" "got 'leader:0.5'" "$T/err"
for r in leadtime:3%0.5 leader:2%4 leader:2+leadtime:3,x; do
	rc=0
	$PY replay "$T/two.json" "$SP" 0.2 1e6 10 2 10 "$r" 2>"$T/err" || rc=$?
	is "rule $r is refused" "$rc" 1
done
has "naming the rule at fault" "got 'leadtime:3,x'" "$T/err"
rc=0
$PY replay "$T/two.json" "$SP" 0.01 1e6 10 2 10 2>"$T/err" || rc=$?
is "a target no run reaches is refused" "$rc" 1
has "naming the table" "two.json: no run reaches the target 0.01" "$T/err"

done_testing
