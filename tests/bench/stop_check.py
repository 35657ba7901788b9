#!/usr/bin/python3
"""stop_check.py: how many recorded runs of a replay table a target
stopper rule would stop although they go on to reach the target, and how
many epochs it saves on the runs that never reach it.

    python3 tests/bench/stop_check.py TABLE TARGET LAST GRACE [RULE [SLACK]]
    python3 tests/bench/stop_check.py ledger TABLE LEDGER TARGET LAST GRACE
                                         [LEADER [FROM]]

TABLE is a hpod-replay-1 table (goal "min"), TARGET the campaign's
target, LAST the epoch a trial ends at (the stopper's max_resource),
GRACE the first epoch the stopper may judge (warmup_steps: the warm-up
epochs + 3 by default).  RULE is the extrapolation of
search/stop/target.c, applied to each run alone, epoch by epoch, as the
stopper sees its reports:

- "target": the run's best so far moved on to LAST at the larger of its
  mean rate since its first point and its mean rate over the last 10
  epochs (target.c, slack 0);
- "recent": the rate over the last 10 epochs only (the flattening of
  the first epochs left out; a candidate, not in the code);
- "power": the most hopeful of the power laws a + b t^-c (c in 0.1,
  0.25, 0.5, 1, 2) fitted by least squares to the run's best values so
  far, at LAST, with twice the gain it predicts (search/stop/powerlaw.c
  and target.c's power_law, alone);
- "both": "target" or "power", whichever stops first (the stopper with
  "power_law": true).

Either rate, and the power law's doubled gain, is multiplied by 1 +
SLACK (target.c's slack; default 0).

A run is stopped at the first epoch >= GRACE and < LAST at which its
best so far misses the target and the extrapolation misses it too.
The reference-curve rule of target.c is left out: it needs 5 trials
that reached the target, after which a campaign of bench-search.sh has
ended.

"ledger" checks the rule "target" against the stopper itself: in the
last campaign of LEDGER, replayed one trial at a time from TABLE with
the stopper "target" (auto's), each trial up to the one that was fifth
to reach the target (after it the reference rule may act) must have
been stopped at the epoch the rule gives for its run (found by its
values), or by target.c's leader rule, or not at all.  The leader rule
(LEADER, default 2; 0 = off) stops a trial at epoch e >= FROM (default
1: the epoch after a warm-up of 0) when its best so far is worse than
the best any earlier trial had by epoch e / LEADER.  Uses python3's standard library only.
"""
import json
import math
import sqlite3
import sys

WINDOW = 10


def best_upto(values, k):
    """Best (least) value of values[0..k], NaN if none."""
    seen = [v for v in values[:k + 1] if not math.isnan(v)]
    return min(seen) if seen else math.nan


def extrapolate(values, k, last, rule, slack):
    """Best value at epoch last of the run cut after index k."""
    step = k + 1
    if k == 0:
        return math.nan
    now = best_upto(values, k)
    if math.isnan(now) or math.isnan(values[0]):
        return math.nan
    rate = (values[0] - now) / (step - 1) if rule == "target" else 0.0
    i = k
    while i > 0 and i + 1 > step - WINDOW:
        i -= 1
    past = best_upto(values, i)
    if i < k and not math.isnan(past):
        rate = max(rate, (past - now) / (step - (i + 1)))
    return now - max(rate, 0.0) * (1 + slack) * (last - step)


POWERS = (0.1, 0.25, 0.5, 1.0, 2.0)


def power_bound(values, k, last, slack):
    """Best value at epoch last of the run cut after index k by the most
    hopeful power law fitted to its best values so far, with twice its
    predicted gain times 1 + slack; NaN below three points."""
    ts, ys, best = [], [], math.nan
    for i in range(k + 1):
        if math.isnan(values[i]):
            continue
        best = values[i] if math.isnan(best) else min(best, values[i])
        ts.append(i + 1.0)
        ys.append(best)
    if len(ts) < 3:
        return math.nan
    lo = math.nan
    for c in POWERS:
        xs = [t ** -c for t in ts]
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        if not sxx > 0:
            continue
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx
        if not b >= 0:
            continue
        p = my - b * mx + b * (last - ts[0] + 1) ** -c
        lo = p if math.isnan(lo) else min(lo, p)
    if math.isnan(lo):
        return math.nan
    return best - 2 * (1 + slack) * max(best - lo, 0.0)


def misses(values, k, last, rule, slack, target):
    """1 if the rule's extrapolation of the run cut after index k misses
    the target."""
    if rule in ("power", "both"):
        e = power_bound(values, k, last, slack)
        if not math.isnan(e) and e > target:
            return 1
        if rule == "power":
            return 0
    e = extrapolate(values, k, last, "target" if rule == "both" else rule,
                    slack)
    return 1 if not math.isnan(e) and e > target else 0


def stop_epoch(values, target, last, grace, rule, slack):
    """Epoch the rule stops the run at, None if it never does."""
    for k in range(len(values)):
        step = k + 1
        b = best_upto(values, k)
        if not math.isnan(b) and b <= target:
            return None
        if step < grace or step >= last or math.isnan(b):
            continue
        if misses(values, k, last, rule, slack, target):
            return step
    return None


def leader_epoch(values, env, target, last, k, start):
    """Epoch the leader rule stops the run at, None if never: env[j] is
    the best any earlier trial had by epoch j."""
    for e in range(max(start, 1), min(len(values), last - 1) + 1):
        b = best_upto(values, e - 1)
        if not math.isnan(b) and b <= target:
            return None
        j = int(e // k) if k > 0 else 0
        if j >= 1 and j < len(env) and not math.isnan(b) and b > env[j]:
            return e
    return None


def runs_of(path):
    """The runs' values of a goal-"min" table, NaN for null."""
    with open(path) as f:
        table = json.load(f)
    if table.get("goal") != "min":
        sys.exit("stop_check.py: %s: goal must be min" % path)
    return [[math.nan if v is None else float(v) for v in run["values"]]
            for run in table["runs"]]


def ledger(argv):
    """Compare the rule with the stopper's verdicts in a ledger."""
    if len(argv) not in (7, 8, 9):
        sys.exit("usage: stop_check.py ledger TABLE LEDGER TARGET LAST "
                 "GRACE [LEADER [FROM]]")
    runs = runs_of(argv[2])
    target, last, grace = float(argv[4]), int(argv[5]), int(argv[6])
    k = float(argv[7]) if len(argv) > 7 else 2.0
    start = int(argv[8]) if len(argv) > 8 else 1
    env = [math.inf] * (last + 1)
    db = sqlite3.connect("file:%s?mode=ro" % argv[3], uri=True)
    trials = db.execute(
        "select t.id, t.number, t.state, t.reached from trials t "
        "where t.campaign_id = (select max(id) from campaigns) "
        "order by t.number").fetchall()
    compared = agree = reached = 0
    for tid, number, state, got_reached in trials:
        values = [math.nan if v is None else v for (v,) in db.execute(
            "select m.value from metrics m join attempts a "
            "on a.id = m.attempt_id where a.trial_id = ? "
            "and m.key = 'eval_error' order by m.step", (tid,))]
        match = [r for r in runs if len(r) >= len(values) and all(
            a == b or (math.isnan(a) and math.isnan(b))
            for a, b in zip(r, values))]
        if not match:
            sys.exit("stop_check.py: %s: trial %d: no run of %s has its "
                     "values" % (argv[3], number, argv[2]))
        want = stop_epoch(match[0], target, last, grace, "target", 0.0)
        lead = leader_epoch(match[0], env, target, last, k, start) \
            if k > 0 else None
        if lead is not None and (want is None or lead < want):
            want = lead
        for e in range(1, min(len(values), last) + 1):
            b = best_upto(values, e - 1)
            if not math.isnan(b):
                env[e] = min(env[e], b)
        got = len(values) if state == "pruned" else None
        compared += 1
        if want == got:
            agree += 1
        else:
            print("trial %d: stopped at %s, the rule says %s"
                  % (number, got, want))
        reached += got_reached
        if reached == 5:
            break
    print("%d trials compared, %d agree" % (compared, agree))
    return 0 if compared == agree else 1


def main(argv):
    if len(argv) > 1 and argv[1] == "ledger":
        sys.exit(ledger(argv))
    if len(argv) not in (5, 6, 7):
        sys.exit("usage: stop_check.py TABLE TARGET LAST GRACE "
                 "[RULE [SLACK]]")
    path, target, last, grace = argv[1], float(argv[2]), int(argv[3]), \
        int(argv[4])
    rule = argv[5] if len(argv) >= 6 else "target"
    slack = float(argv[6]) if len(argv) == 7 else 0.0
    if not slack >= 0:
        sys.exit("stop_check.py: SLACK must be >= 0, got %s" % argv[6])
    if rule not in ("target", "recent", "power", "both"):
        sys.exit("stop_check.py: RULE must be target, recent, power or "
                 "both, got %s" % rule)
    runs = runs_of(path)
    reach = wrong = saved = 0
    for values in runs:
        reaches = any(v <= target for v in values)
        reach += reaches
        step = stop_epoch(values, target, last, grace, rule, slack)
        if step is not None and reaches:
            wrong += 1
        elif step is not None:
            saved += len(values) - step
    print("%s: rule %s, slack %g, grace %d: %d runs, %d reach the target, "
          "%d of them stopped, %d epochs saved on the others"
          % (path.rsplit("/", 1)[-1], rule, slack, grace, len(runs),
             reach, wrong, saved))


if __name__ == "__main__":
    main(sys.argv)
