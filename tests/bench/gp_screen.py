#!/usr/bin/python3
"""gp_screen.py: would a Gaussian-process model beat hpod's TPE family on
the replay tables? An offline screen, not a method of hpod.

    /usr/bin/python3 tests/bench/gp_screen.py TABLE [SEEDS [oracle]]

TABLE is minicosmo, cifar10-cnn, mnist-conv or mnist-cnn (target,
epochs and budget as tests/bench/search.subr sets them).  Each campaign
runs one trial at a time over the table's own runs (pool-based: a
suggestion is one of the recorded runs, never one run twice; random
draws a run uniformly, so its figures differ from the engine's random,
which draws the space and takes the nearest run) until a run reaches the
target or the budget is spent.  Cost is the replay backend's: start_s
plus the epoch_s of every epoch run.  "+stop" stops a run where
tests/bench/stop_check.py's rule "target" (target.c's, grace as auto
sets it) says.  The model methods fit a Gaussian process (Matern 5/2,
per-dimension length scales and noise chosen by marginal likelihood over
a random set) to the log of each finished or stopped run's best value (a
run with no value: the worst seen) after N0 random runs, and pick the
untried run of highest
  gp-pi   probability of reaching the target;
  gp-pic  that probability over the predicted cost per epoch (a second
          process fitted to the log of the runs' seconds per epoch).
With "oracle" it prints instead what a method that knows, before its
first trial, which runs are the best half, 30% or 20% of the table by
their best value (but not which of them reach the target) costs when it
draws only from those, with and without the stopper.
It prints per method the median cost in GPU-seconds over the seeds with
a bootstrap 90% interval, its ratio to random's median, the reach, and
the seeds cheaper / dearer than random+stop.  numpy is Debian's
python3-numpy (a dependency of python3-optuna, which make bench-search
installs).
"""
import json
import math
import random
import statistics
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import stop_check  # noqa: E402

TABLES = {"minicosmo": (0.12, 12, 4, 150),
          "cifar10-cnn": (0.185, 40, 3, 720000),
          "mnist-conv": (0.007, 85, 3, 8640),
          "mnist-cnn": (0.0215, 156, 3, 4187)}


def load(name):
    """The table's runs with their outcome under the stopper, and the
    runs' points scaled to [0, 1] (log parameters on a log scale)."""
    target, last, grace, _ = TABLES[name]
    path = "%s/%s-replay.json" % (__file__.rsplit("/", 1)[0], name)
    with open(path) as f:
        t = json.load(f)
    logs = [p["scale"] == "log" for p in t["params"]]
    runs, xs = [], []
    for r in t["runs"]:
        v = [math.nan if a is None else a for a in r["values"]]
        hit = next((i for i, a in enumerate(v) if a <= target), None)
        runs.append({"v": v, "es": r["epoch_s"], "s0": r.get("start_s", 0),
                     "hit": hit,
                     "stop": stop_check.stop_epoch(v, target, last, grace,
                                                   "target", 0.0)})
        xs.append([math.log(a) if lg else a for a, lg in zip(r["x"], logs)])
    x = np.array(xs)
    lo, hi = x.min(0), x.max(0)
    return runs, (x - lo) / np.where(hi > lo, hi - lo, 1), target


def outcome(r, stop):
    """Cost, reached, best value seen, epochs run of run r."""
    n = len(r["v"]) if r["hit"] is None else r["hit"] + 1
    if stop and r["stop"] is not None and r["stop"] < n:
        n = r["stop"]
    seen = [a for a in r["v"][:n] if not math.isnan(a)]
    return (r["s0"] + sum(r["es"][:n]),
            r["hit"] is not None and n == r["hit"] + 1,
            min(seen) if seen else math.inf, n)


def matern(a, b, ls):
    d = np.sqrt((((a[:, None, :] - b[None, :, :]) / ls) ** 2).sum(-1))
    s = math.sqrt(5) * d
    return (1 + s + s * s / 3) * np.exp(-s)


def gp_fit(x, y, rng):
    """A predictor (mean, sd) of y at new points."""
    mu, sd = y.mean(), (y.std() if y.std() > 0 else 1.0)
    z = (y - mu) / sd
    d = x.shape[1]
    cands = [np.full(d, ls) for ls in (0.1, 0.2, 0.4, 0.8, 1.6)]
    cands += [np.exp(rng.uniform(math.log(0.05), math.log(2), d))
              for _ in range(40)]
    best = None
    for ls in cands:
        for noise in (1e-3, 1e-2, 0.1):
            try:
                chol = np.linalg.cholesky(matern(x, x, ls) +
                                          noise * np.eye(len(x)))
            except np.linalg.LinAlgError:
                continue
            alpha = np.linalg.solve(chol.T, np.linalg.solve(chol, z))
            ll = -0.5 * z @ alpha - np.log(np.diag(chol)).sum()
            if best is None or ll > best[0]:
                best = (ll, ls, chol, alpha)
    _, ls, chol, alpha = best

    def predict(q):
        ks = matern(q, x, ls)
        w = np.linalg.solve(chol, ks.T)
        var = np.maximum(1 - (w * w).sum(0), 1e-9)
        return mu + sd * (ks @ alpha), sd * np.sqrt(var)
    return predict


def ncdf(z):
    return 0.5 * (1 + np.vectorize(math.erf)(z / math.sqrt(2)))


def campaign(runs, x, target, budget, method, stop, n0, seed, pool=None):
    """Cost to the first run on target (inf if none within budget);
    random draws from pool (every run if None)."""
    rnd = random.Random(seed)
    rng = np.random.default_rng(seed)
    cost, hist, tried = 0.0, [], set()
    pool = range(len(runs)) if pool is None else pool
    while cost < budget and len(tried) < len(pool):
        if method == "random" or len(hist) < n0:
            i = rnd.choice([j for j in pool if j not in tried])
        else:
            xh = x[[h[0] for h in hist]]
            ys = np.array([h[1] for h in hist])
            fin = np.isfinite(ys)
            ys = np.where(fin, ys, ys[fin].max() if fin.any() else 1.0)
            m, s = gp_fit(xh, np.log(np.maximum(ys, 1e-9)), rng)(x)
            a = ncdf((math.log(target) - m) / s)
            if method == "gp-pic":
                c, _ = gp_fit(xh, np.log([h[2] for h in hist]), rng)(x)
                a = a / np.exp(c)
            a = a + 1e-12 * rng.random(len(a))
            a[list(tried)] = -1
            i = int(np.argmax(a))
        tried.add(i)
        c, ok, best, n = outcome(runs[i], stop)
        cost += c
        if ok:
            return cost
        hist.append((i, best, max(c / max(n, 1), 1e-9)))
    return math.inf


def interval(costs, rnd):
    meds = sorted(statistics.median(rnd.choices(costs, k=len(costs)))
                  for _ in range(2000))
    return meds[100], meds[1899]


def oracle(name, runs, x, target, budget, seeds):
    """Random over the best runs of the table, known in advance."""
    best = [min([a for a in r["v"] if not math.isnan(a)] or [math.inf])
            for r in runs]
    base = statistics.median(campaign(runs, x, target, budget, "random",
                                      False, 0, s) for s in range(seeds))
    print("%s random %.4g GPU-s" % (name, base))
    for q in (0.5, 0.3, 0.2):
        cut = sorted(best)[int(q * len(best))]
        pool = [i for i in range(len(runs)) if best[i] <= cut]
        hit = sum(runs[i]["hit"] is not None for i in pool)
        for stop in (False, True):
            costs = [campaign(runs, x, target, budget, "random", stop, 0, s,
                              pool) for s in range(seeds)]
            med = statistics.median(costs)
            print("%s best %d%% of the runs (%d, %d reach)%s: %.4g GPU-s, "
                  "%.2fx random" % (name, round(q * 100), len(pool), hit,
                                    " +stop" if stop else "", med,
                                    med / base), flush=True)


def main(argv):
    if len(argv) < 2 or argv[1] not in TABLES:
        sys.exit("usage: gp_screen.py TABLE [SEEDS [oracle]]; TABLE one "
                 "of %s" % ", ".join(TABLES))
    name, seeds = argv[1], int(argv[2]) if len(argv) > 2 else 400
    runs, x, target = load(name)
    budget = TABLES[name][3]
    if len(argv) > 3 and argv[3] == "oracle":
        oracle(name, runs, x, target, budget, seeds)
        return
    base = ref = None
    for method, stop, n0 in (("random", False, 0), ("random", True, 0),
                             ("gp-pi", True, 1), ("gp-pic", True, 1),
                             ("gp-pic", True, 2)):
        costs = [campaign(runs, x, target, budget, method, stop, n0, s)
                 for s in range(seeds)]
        med = statistics.median(costs)
        lo, hi = interval(costs, random.Random(1))
        base = base or med
        if ref is None and stop:
            ref = costs
        vs = ""
        if stop and costs is not ref:
            vs = ", vs random+stop %d cheaper / %d dearer" % (
                sum(a < b for a, b in zip(costs, ref)),
                sum(a > b for a, b in zip(costs, ref)))
        label = method + ("+stop" if stop else "") + \
            (" n0=%d" % n0 if n0 else "")
        print("%s %-18s %.4g [%.4g-%.4g] GPU-s, %.2fx random, reach "
              "%d/%d%s" % (name, label, med, lo, hi, med / base,
                           sum(math.isfinite(c) for c in costs), seeds, vs),
              flush=True)


if __name__ == "__main__":
    main(sys.argv)
