#!/usr/bin/python3
"""stop_screen.py: screen stopper rules offline, on `random` replayed one
trial at a time, before any is built.

    stop_screen.py replay TABLE SPACE_JSON TARGET BUDGET_GPU_S LAST GRACE
                   [DRAWS [RULE...]]
    stop_screen.py check TABLE LEDGER TARGET LAST GRACE [RULE]

Standard library only.  It uses search_bound.py's table, lookup, cost
and random draws (the replay backend's: a job costs 1 GPU from its start
for start_s, then epoch_s[i] per epoch, and ends at the first epoch that
meets the target, after its last epoch, or when stopped) and
stop_check.py's rule "target" (search/stop/target.c's extrapolation,
applied from epoch GRACE to LAST - 1; its reference-curve rule needs 5
trials on target, after the first of which a benchmark campaign has
ended).

replay: DRAWS seeds (default 10000) of `random` one trial at a time, a
new trial while the GPU-seconds spent are below BUDGET_GPU_S, until the
first trial meets the target, under each RULE (default: all of them).
Every rule replays the same draws (seed i draws the same runs in the
same order), so the rules are compared seed by seed.  The rules:

  none          no stopping;
  oracle        every run that will not meet the target is stopped at
                GRACE, every other one goes on: what a stopper that
                judges from GRACE on and stops no winner saves at most;
  target        target.c's extrapolation alone (auto's stopper before
                its leader rule, which is leader:2@W, W the warm-up
                epochs + 1);
  envelope      target, or, from GRACE on, the trial's best so far is
                worse than every run of the table that will meet the
                target had by then: the best a rule on the values by
                epoch, knowing the table, can do without stopping a
                winner;
  leader:K      target, or, from GRACE on, the trial's best so far is
                worse than the best value any earlier trial had by epoch
                floor(e / K) (it is K times slower than the campaign's
                leader, which has not met the target either), counting
                only earlier trials that played that epoch: target.c
                counts one stopped before it with its best so far, which
                on the tuning tables changes no seed's cost one at a
                time (stop_async.py's leader:K and leader:K/at at P 1);
  leadtime:K    target, or the trial's best so far after t GPU-seconds
                is worse than the best value any earlier trial had after
                t / K (the leader in GPU-seconds, not epochs);
  leadtime:K%M  leadtime:K judged only while the trial is dear: its
                seconds per epoch so far (from its first epoch's end to
                its last, as the engine's step_s) are more than M times
                the least of the earlier trials' (those that played 2
                epochs or more); the cheap trials are left to the other
                rules;
  leadtime:K,M  leadtime:K judged only once the trial has spent more
                GPU-seconds than M times the cheapest earlier trial would
                to play all LAST epochs at its seconds per epoch (those
                that played 2 epochs or more);
  quantile:Q    target, or, from GRACE on, the trial's best so far is
                worse than the Q-quantile of the best values by epoch e
                of the earlier trials that played epoch e (at least 5 of
                them; Q 0.5 is the median rule on best values);
  ratio:R       target, or, from GRACE on, the trial's distance to the
                target is more than R times the least distance any
                earlier trial had by the same epoch;
  drop:D        target, or, from GRACE on, the trial's distance to the
                target is more than D times the most any earlier trial
                that played all LAST epochs gained from epoch e to its
                end (extrapolation fitted on the campaign's own curves).

Any rule but none and target may end in @G: its own part then judges
from epoch G (the target rule's part still from GRACE on); leader:2@2.
Rules joined by + stop a trial at the first epoch any of them stops it
at (leader:2@2+leadtime:3@2: the epoch leader or the GPU-second leader,
whichever stops it first).

Prints one line per rule: the rule, the fraction of seeds that met the
target, the median GPU-hours to target with its bootstrap 90% interval
(search_bound.median_ci), the ratio of that median to rule "target"'s,
the seeds (of DRAWS) cheaper / dearer than under "target", the mean
trials per seed, and the mean GPU-hours to target of the seeds that met
it.

check: the replay's cost and stopper model against a replayed campaign.
The last campaign of LEDGER (bench-search.sh's random+target, one trial
at a time) is replayed from its own trials' runs (found as the replay
backend finds them) under RULE (default leader:2@1, the target stopper
of a workload without warm-up): every trial must have played the epochs
the ledger holds, and the GPU-seconds to target must be the ledger's to
within 10^-3 s.  Exits 1, naming the trial, if not.
"""
import bisect
import math
import os
import random
import sqlite3
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bound  # noqa: E402
import stop_check    # noqa: E402

QUANTILE_MIN = 5


def die(msg):
    sys.exit("stop_screen.py: " + msg)


class Run:
    """A recorded run as a stopper and the cost model see it."""

    def __init__(self, run, target, last, grace):
        vals = [math.nan if v is None else float(v) for v in run["values"]]
        self.n = len(vals)
        # A run without epochs ends at once, at no cost (replay.c).
        self.cost = [run["start_s"] if self.n else 0.0]
        for s in run["epoch_s"][:self.n]:
            self.cost.append(self.cost[-1] + s)
        # bsf[e]: best value by epoch e (1-based), NaN before any.
        self.bsf = [math.nan]
        for k in range(self.n):
            self.bsf.append(stop_check.best_upto(vals, k))
        self.reach = next((e for e in range(1, self.n + 1)
                           if self.bsf[e] <= target), None)
        self.tstop = stop_check.stop_epoch(vals, target, last, grace,
                                           "target", 0.0)


class History:
    """What a relative rule knows of the earlier trials of one seed."""

    def __init__(self, last, wenv=None):
        self.wenv = wenv
        self.env = [math.inf] * (last + 1)     # least best by epoch e
        self.at = [[] for _ in range(last + 1)]    # sorted bests at e
        self.last = last
        self.drop = [-math.inf] * (last + 1)   # most gained from e on
        self.full = 0
        self.curves = []     # (cost by epoch, best by epoch) of each

    def least_pace(self):
        """Least seconds per epoch of the earlier trials (from the end of
        their first epoch to their last), inf if none played 2."""
        return min((pace(cost, len(cost) - 1) for cost, _ in self.curves
                    if len(cost) > 2), default=math.inf)

    def best_by(self, t):
        """Best value any earlier trial had after t GPU-seconds."""
        best = math.inf
        for cost, bsf in self.curves:
            i = bisect.bisect_right(cost, t) - 1
            if i >= 1 and bsf[i] < best:
                best = bsf[i]
        return best

    def add(self, run, played):
        self.curves.append((run.cost[:played + 1], run.bsf[:played + 1]))
        for e in range(1, played + 1):
            b = run.bsf[e]
            if math.isnan(b):
                continue
            if b < self.env[e]:
                self.env[e] = b
            bisect.insort(self.at[e], b)
        if played >= self.last and not math.isnan(run.bsf[self.last]):
            self.full += 1
            end = run.bsf[self.last]
            for e in range(1, self.last + 1):
                b = run.bsf[e]
                if not math.isnan(b):
                    self.drop[e] = max(self.drop[e], b - end)


def pace(cost, e):
    """Seconds per epoch of a run's cost by epoch (cost[e]: GPU-seconds
    after e epochs) from the end of its first epoch to epoch e >= 2, as
    the engine's step_s sees it."""
    return (cost[e] - cost[1]) / (e - 1)


def rule_stop(rule, arg, run, hist, target, last, grace, since=None):
    """The epoch rule stops run at, given the earlier trials; None if
    never (run then plays to its end or to the target).  The target
    rule judges from grace on, the others from since (default grace)."""
    if rule == "any":
        stops = [rule_stop(r, a, run, hist, target, last, grace, g)
                 for r, a, g in arg]
        return min((e for e in stops if e is not None), default=None)
    end = run.n if run.reach is None else run.reach
    grace = grace if since is None else since
    stop = run.tstop
    if rule == "none":
        return None
    if rule == "target":
        return stop
    if rule == "oracle":
        return None if run.reach is not None or run.n <= grace else grace
    if rule == "envelope":
        for e in range(grace, min(end, last - 1) + 1):
            if run.bsf[e] > hist.wenv[e]:
                return e if stop is None else min(e, stop)
        return stop
    hi = min(end, last - 1, stop if stop is not None else end)
    for e in range(grace, hi + 1):
        b = run.bsf[e]
        if math.isnan(b) or b <= target:
            continue
        if rule == "leader":
            j = int(e // arg)
            if j >= 1 and b > hist.env[j]:
                return e
        elif rule == "leadtime":
            if b > hist.best_by(run.cost[e] / arg):
                return e
        elif rule == "leaddear":
            k, m = arg
            if e >= 2 and pace(run.cost, e) > m * hist.least_pace() and \
                    b > hist.best_by(run.cost[e] / k):
                return e
        elif rule == "leadspent":
            k, m = arg
            if run.cost[e] > m * last * hist.least_pace() and \
                    b > hist.best_by(run.cost[e] / k):
                return e
        elif rule == "drop":
            if hist.full >= 1 and b - target > arg * hist.drop[e]:
                return e
        elif rule == "ratio":
            if hist.env[e] < math.inf and \
                    b - target > arg * max(hist.env[e] - target, 0.0):
                return e
        else:
            xs = hist.at[e]
            if len(xs) >= QUANTILE_MIN:
                pos = arg * (len(xs) - 1)
                i = int(pos)
                q = xs[i] if i + 1 >= len(xs) else \
                    xs[i] + (xs[i + 1] - xs[i]) * (pos - i)
                if b > q:
                    return e
    return stop


def winner_envelope(runs, target, last):
    """Per epoch, the worst best-so-far of the runs that will meet the
    target after it (the target itself where none is left)."""
    env = [target] * (last + 1)
    for r in runs:
        if r.reach is not None:
            for e in range(1, min(r.reach, last + 1)):
                env[e] = max(env[e], r.bsf[e])
    return env


def replay_seed(runs, rule, target, last, grace, budget, order, wenv=None):
    """GPU-seconds to target of one seed whose trials play the runs
    order() yields, and the trials it ran (inf if none met the target);
    rule as parse_rule() gives it."""
    rule, arg, since = rule
    hist = History(last, wenv)
    spent, trials = 0.0, 0
    for run in order:
        if spent >= budget:
            return math.inf, trials
        trials += 1
        stop = rule_stop(rule, arg, run, hist, target, last, grace, since)
        if stop is None and run.reach is not None:
            return spent + run.cost[run.reach], trials
        played = run.n if stop is None else stop
        spent += run.cost[played]
        hist.add(run, played)
    return math.inf, trials


def parse_rule(text):
    """(name, argument, since) of a rule NAME[:ARG][@SINCE], or ("any",
    [(name, argument, since) of each], None) of rules joined by +."""
    if "+" in text:
        return "any", [parse_rule(t) for t in text.split("+")], None
    rule, _, at = text.partition("@")
    since = None
    if at:
        since = int(at) if at.isdigit() and int(at) >= 1 else 0
    name, _, arg = rule.partition(":")
    for sep, gated in (("%", "leaddear"), (",", "leadspent")):
        arg, cut, dear = arg.partition(sep)
        if not cut:
            continue
        try:
            k, m = float(arg), float(dear)
        except ValueError:
            k = m = math.nan
        if name == "leadtime" and k >= 1 and m >= 1 and since != 0:
            return gated, (k, m), since
        die("RULE: %sM follows leadtime:K only, K and M >= 1, got '%s'" %
            (sep, text))
    if since == 0 or since is not None and name in ("none", "target"):
        pass
    elif name in ("none", "target", "oracle", "envelope") and not arg:
        return name, None, since
    elif name in ("leader", "leadtime", "quantile", "ratio", "drop"):
        try:
            a = float(arg)
        except ValueError:
            a = math.nan
        if name in ("leader", "leadtime", "ratio", "drop") and a >= 1 or \
                name == "quantile" and 0 <= a <= 1:
            return name, a, since
    die("RULE: want none, target, oracle, envelope, leader:K, "
        "leadtime:K[%%M or ,M], quantile:Q (0 <= Q <= 1), ratio:R or "
        "drop:D (K, R, D >= 1), each but none and target with @G (G >= 1) to judge "
        "from epoch G, or such rules joined by +, got '%s'" % text)


def replay(argv):
    if len(argv) < 7:
        sys.exit(__doc__)
    path, space_json, target, budget, last, grace = argv[:6]
    draws = int(argv[6]) if len(argv) > 6 else 10000
    names = argv[7:] or ["none", "target", "oracle", "envelope",
                         "envelope@2", "leader:1.5", "leader:2",
                         "leader:3", "leader:2@2", "leadtime:2",
                         "leadtime:3", "quantile:0.25", "quantile:0.5",
                         "quantile:0.5@2", "ratio:2", "drop:2"]
    rules = [parse_rule(r) for r in names]
    last, grace = int(last), int(grace)
    table, space, budget, target, runs = table_runs(
        path, space_json, target, budget, draws, last, grace)
    _, pool = search_bound.random_pool(table, space, draws)
    wenv = winner_envelope(runs.values(), target, last)
    results = {}
    for name, rule in zip(names, rules):
        results[name] = [
            replay_seed(runs, rule, target, last, grace, budget,
                        seed_order(table, pool, runs, seed), wenv)
            for seed in range(draws)]
    report(names, results)


def table_runs(path, space_json, target, budget, draws, last, grace):
    """(table, space, budget, target, runs) of replay's arguments: runs
    maps the id of each run record of the table to its Run."""
    table, space, budget, _, _ = search_bound.replay_args(
        [path, space_json, target, budget, "1", str(draws)])
    target = float(target)
    runs = {}
    for c in table.configs:
        for s in c["runs"]:
            runs[id(s)] = Run(s["run"], target, last, grace)
    return table, space, budget, target, runs


def seed_order(table, pool, runs, seed):
    """The Runs `random` with seed draws, one after another: a point of
    pool, then one of its configuration's runs."""
    rng = random.Random(seed)
    while True:
        c = table.configs[rng.choice(pool)]
        yield runs[id(rng.choice(c["runs"]))]


def report(names, results):
    """One line per rule of results (name: (GPU-seconds, trials) per
    seed), compared seed by seed with rule "target" where it ran."""
    ref = results.get("target")
    for name in names:
        cost = [c for c, _ in results[name]]
        med, lo, hi = search_bound.median_ci(cost)
        line = "%-14s reach %5.1f%%  GPU-hours %.4g [%.4g-%.4g]" % (
            name, 100 * sum(c < math.inf for c in cost) / len(cost),
            med / 3600, lo / 3600, hi / 3600)
        if ref is not None:
            rc = [c for c, _ in ref]
            line += "  x%.2f target  cheaper/dearer %d/%d" % (
                med / statistics.median(rc),
                sum(a < b for a, b in zip(cost, rc)),
                sum(a > b for a, b in zip(cost, rc)))
        line += "  trials %.1f" % (sum(t for _, t in results[name]) /
                                   len(cost))
        done = [c for c in cost if c < math.inf]
        if done:
            line += "  mean %.4g" % (statistics.mean(done) / 3600)
        print(line)


def check(argv):
    if len(argv) not in (5, 6):
        sys.exit(__doc__)
    path, ledger, target, last, grace = argv[:5]
    rule = parse_rule(argv[5] if len(argv) > 5 else "leader:2@1")
    target, last, grace = float(target), int(last), int(grace)
    table = search_bound.Table(path, target)
    db, rows = ledger_trials(ledger)
    if not rows:
        die("%s: no trials in the last campaign" % ledger)
    first = min((r[4] for r in rows if r[4] is not None), default=None)
    if first is None:
        die("%s: no trial met the target" % ledger)
    want = ledger_cost(db, first)
    hist = History(last)
    spent, count = 0.0, 0
    for tid, number, pj, seed, _ in rows:
        count += 1
        run = Run(ledger_run(table, pj, seed), target, last, grace)
        stop = rule_stop(rule[0], rule[1], run, hist, target, last, grace,
                         rule[2])
        reached = stop is None and run.reach is not None
        played = run.reach if reached else (run.n if stop is None
                                             else stop)
        n = db.execute(
            "select count(*) from metrics m join attempts a on a.id ="
            " m.attempt_id where a.trial_id = ? and m.key = ?",
            (tid, table_metric(path))).fetchone()[0]
        if n != played:
            die("trial %d: %d epochs in the ledger, the replay plays %d" %
                (number, n, played))
        if reached:
            spent += run.cost[played]
            break
        spent += run.cost[played]
        hist.add(run, played)
    else:
        die("%s: the replay met the target in no trial" % ledger)
    if abs(spent - want) > 1e-3:
        die("%s: %.4f GPU-seconds to target in the ledger, the replay "
            "says %.4f" % (ledger, want, spent))
    print("%s: %d trials replayed as the ledger played them, %.4f "
          "GPU-seconds to target in both" % (ledger, count, spent))


def ledger_trials(ledger):
    """(db, rows): ledger opened read-only, and the id, number,
    params_json, seed and reached_at of each trial of its last campaign,
    by number."""
    db = sqlite3.connect("file:%s?mode=ro" % ledger, uri=True)
    return db, db.execute(
        "select t.id, t.number, t.params_json, t.seed, t.reached_at"
        " from trials t where t.campaign_id ="
        " (select max(id) from campaigns) order by t.number").fetchall()


def ledger_cost(db, first):
    """The GPU-seconds to target of the last campaign of ledger db, whose
    first trial met the target at time first (bench-search.sh's)."""
    return db.execute(
        "select total(max(0, min(a.ended, ?) - a.started) * a.gpus)"
        " from attempts a join trials t on t.id = a.trial_id where"
        " t.campaign_id = (select max(id) from campaigns) and"
        " a.started > 0", (first,)).fetchone()[0]


def ledger_run(table, params_json, seed):
    """The recorded run of table a trial of params_json and seed played,
    found as the replay backend finds it."""
    params = search_bound.json.loads(params_json)
    x = [float(params[n]) for n in table.names]
    c = table.configs[table.nearest(x)]
    got = [s for s in c["runs"] if s["seed"] == seed]
    s = got[0] if got else \
        c["runs"][(-(seed + 1) if seed < 0 else seed) % len(c["runs"])]
    return s["run"]


def table_metric(path):
    with open(path) as f:
        return search_bound.json.load(f).get("metric", "eval_error")


def main(doc=__doc__, modes=None):
    """Run the mode sys.argv[1] names of modes (replay and check)."""
    modes = modes or {"replay": replay, "check": check}
    if len(sys.argv) < 2 or sys.argv[1] not in modes:
        sys.exit(doc)
    modes[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
