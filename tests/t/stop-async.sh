#!/bin/sh
# tests/bench/stop_async.py, the offline stopper screen eight at a time
# of "The leader rule eight at a time" in tests/bench/RESULTS.md: its event
# simulation is the replay backend's and the target stopper's (checked
# on the ledger of a real `hpoctl run` campaign eight at a time), its
# leader rule counts a trial that has not yet played epoch e / K with its
# best so far and judges the trials still running at 3 (/run:3) as
# target.c does (stop_screen.py's history, /at, does not, nor the rule
# at 2 for all, and both disagree with that ledger), and on hand-worked
# curves two at a time it stops where worked out below.
. "$(dirname "$0")/lib.subr"
. "$(dirname "$0")/benchpy.subr"
PY="python3 $TOP/tests/bench/stop_async.py"

# hpod's random with the target stopper on CIFAR-10's table eight at a
# time (grace 3, no warm-up: leader:2@1, the trials still running judged
# at 3: /run:3, target.c's leader_running).  In seed 2 every one of the
# 36 trials up to the winner plays the ledger's epochs under
# leader:2@1/run:3; with the running trials judged at 2 as the ended
# ones (leader:2@1, the rule before leader_running), at 4, or with
# stop_screen.py's history (/at), some trials play other epochs.
profile cifar10-cnn
hpod_run random+target 2 8 >"$T/r.txt"
$PY check "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" 3 8 leader:2@1/run:3 \
    >"$T/out" 2>&1
sed 's/^/# /' "$T/out"
gpu=$(awk '{ printf "%.4f", $3 }' "$T/r.txt")
has "every trial plays the ledger's epochs, at bench-search.sh's cost ($gpu GPU-s)" \
    " 36 replayed (0 with other epochs); GPU-seconds to target: ledger $gpu, replay $gpu " \
    "$T/out"
for r in leader:2@1 leader:2@1/run:4 leader:2@1/at; do
	$PY check "$TABLE" "$T/l.db" "$TARGET" "$EPOCHS" 3 8 $r >"$T/out" 2>&1
	has "rule $r stops some trials at other epochs" \
	    " replayed ([1-9][0-9]* with other epochs)" "$T/out"
done

# Hand-worked, target 0.2, 10 epochs, grace 2, two at a time.  A (20 s
# an epoch) is at 0.3, then 0.25 (target.c's extrapolation would stop it
# at epoch 6); C (5 s an epoch) at 0.35 from its second epoch, and the
# extrapolation stops it at epoch 9 (45 s); W (10 s an epoch) meets the
# target at its second.  Drawn A, C, W:
# - leader:2@1: at 20 s A has 0.3 at epoch 1; C at epoch 4 trails it
#   (A's best by epoch 2, which A has not played), stops; W runs from
#   20 s to 40 s: A 40 + C 20 + W 20 = 80 s;
# - leader:2@1/at: C is judged only against trials that played epoch
#   e / 2: A's 0.25 at epoch 2 (40 s) comes too late for C's epochs 4
#   to 8 (C's own 0.35 at 2, 3 and 4), C stops at 45 s, W reaches at
#   65 s: 65 + 45 + 20 = 130 s, as target;
# - /done: A never ends, 130 s; none: C plays 10 epochs: 70 + 50 + 20.
curves_py hand <<'PY'
for r in ("leader:2@1", "leader:2@1/at", "leader:2@1/done", "target",
          "none"):
    order = iter([run(20, [0.3] + [0.25] * 9), run(5, [0.9] + [0.35] * 9),
                  run(10, [0.25, 0.15])])
    log = []
    cost, n = sa.simulate(order, 2, sa.parse_rule(r), 0.2, 10, 2, 1e9, log)
    print("%s %g %s" % (r, cost, sorted(log)))
PY
is "the rules cost and stop as worked out" "$(tr '\n' ';' <"$T/out")" \
    "leader:2@1 80 [(0, 2), (1, 4), (2, 2)];leader:2@1/at 130 [(0, 3), (1, 9), (2, 2)];leader:2@1/done 130 [(0, 3), (1, 9), (2, 2)];target 130 [(0, 3), (1, 9), (2, 2)];none 140 [(0, 3), (1, 10), (2, 2)];"

# Rules joined by + or & one at a time: B (10 s an epoch, 0.9, 0.3,
# 0.28, 0.26, 0.24, 0.22, 0.21, 0.205, 0.203, 0.202), D (the same at 40
# s an epoch), C (10 s, 0.9 then 0.35) and W (10 s, on target at its
# first epoch), drawn in that order.  leadtime:2@2 stops D at epoch 2
# (80 s; B had 0.26 by 40 s) and C at 4 (0.35 at 40 s, B 0.3 by 20 s):
# 100 + 80 + 40 + 10 = 230 s; leader:2@2 + leadtime:2@2 the same (the
# leader stops C at 4 too, D never); leader:2@2 & leadtime:2@2 needs
# both: D plays its 10 epochs, 100 + 400 + 40 + 10 = 550 s.
curves_py comb <<'PY'
f = [0.9, 0.3, 0.28, 0.26, 0.24, 0.22, 0.21, 0.205, 0.203, 0.202]
for r in ("leadtime:2@2", "leader:2@2+leadtime:2@2", "leader:2@2&leadtime:2@2"):
    order = iter([run(10, f), run(40, f), run(10, [0.9] + [0.35] * 9),
                  run(10, [0.15])])
    log = []
    cost, n = sa.simulate(order, 1, sa.parse_rule(r), 0.2, 10, 2, 1e9, log)
    print("%s %g %s" % (r, cost, log))
PY
is "+ and & stop as worked out" "$(tr '\n' ';' <"$T/out")" \
    "leadtime:2@2 230 [(0, 10), (1, 2), (2, 4), (3, 1)];leader:2@2+leadtime:2@2 230 [(0, 10), (1, 2), (2, 4), (3, 1)];leader:2@2&leadtime:2@2 550 [(0, 10), (1, 10), (2, 4), (3, 1)];"

# One at a time it is stop_screen.py's replay (its two-configuration
# table, worked out in tests/t/stop-screen.sh: 350, 320, 320 s).
two_table
$PY replay "$T/two.json" "$SP" 0.2 5000 10 2 1 2000 none =target leader:2 \
    >"$T/out"
sed 's/^/# /' "$T/out"
secs() {
	awk -v r="$1" '$1 == r && $2 == "reach" { printf "%.0f", $5 * 3600 }' "$T/out"
}
is "one at a time: medians none, target, leader:2 (s)" \
    "$(secs none) $(secs target) $(secs leader:2)" "350 320 320"
has "paired with the reference target: leader:2 alike in every seed" \
    "^leader:2 *x1.000 \[1.000-1.000\] target (paired)  cheaper/dearer 0/0$" \
    "$T/out"
has "none: dearer in the seeds where B ran to its end" \
    "^none *x1.094 \[1.[0-9]*-1.[0-9]*\] target (paired)  cheaper/dearer 0/[1-9]" \
    "$T/out"

# Bad input is refused naming it.
rc=0
$PY replay "$T/two.json" "$SP" 0.2 1e6 10 2 8 10 leader:2/late 2>"$T/err" ||
    rc=$?
is "an unknown /SEEN is refused" "$rc" 1
has "naming the rule" "got 'leader:2/late'" "$T/err"
rc=0
$PY replay "$T/two.json" "$SP" 0.2 1e6 10 2 0 10 2>"$T/err" || rc=$?
is "P 0 is refused" "$rc" 1
has "naming P" "P must be >= 1, got 0" "$T/err"

done_testing
