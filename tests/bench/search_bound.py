#!/usr/bin/python3
"""A lower bound on the GPU-hours to target of any search at P at once.

Usage: search_bound.py bound TABLE SPACE_JSON TARGET BUDGET_GPU_S P
           RANDOM_RESULTS [DRAWS]
       search_bound.py check TABLE LEDGER TARGET
       search_bound.py wave TABLE SPACE_JSON TARGET BUDGET_GPU_S P [DRAWS]

Standard library only.  It reads a replay table (hpod-replay-1) and uses
the replay backend's lookup and cost (scheduler/replay/replay_table.c,
replay.c): a configuration is answered by the table's nearest one
(normalized distance, log scale where the table says so); a job costs
1 GPU from its start for start_s, then epoch_s[i] per epoch, and ends at
the first epoch that meets the target, after its last epoch, or when
stopped.

bound: the oracle.  Its first wave, the P configurations made at once
before any result exists, is drawn as `random` draws them (independent
uniform points of the campaign's space) or as `sobol` (and so `auto`)
does (the first P points of a Sobol' sequence under a uniform random
digital shift), DRAWS times each (default 10000); the run of a
configuration the table holds several times is drawn uniformly.  Then
it knows the whole table, and takes the cheaper of two ways to the
target:
  - keep the first-wave trial that reaches the target soonest, or any
    other one that reaches it, and stop every other first-wave trial;
  - stop every first-wave trial and run the table's cheapest run to the
    target (the one configuration, and run, with the least time to
    target: c*) in the first slot that frees.
A stopped first-wave trial costs its time until its first result (the
end of its first epoch: "own", what any stopper that judges a trial on
its own reports pays) or, more generously, until the first result of
the whole wave ("first": the earliest moment any method has seen
anything); the other P - 1 slots stay idle (cost 0).  "busy" is the
bound of a method that keeps all P slots running until the target is
met, as hpod's engine does (a freed slot is refilled at once while
budget remains): P times the wall time to target, the earlier of the
wave's least time to target and the wave's first result plus c*.
Its cost is exact per draw; the median over the draws is the bound.
Stopped at no cost, the oracle would stop the whole wave at once and
run c*: that bound is c* itself ("floor"), true of every method, and
shows nothing about the first wave.

It also replays `random` itself (DRAWS seeds) with the same lookup,
cost and budget (a new trial whenever a slot is free and the GPU-seconds
spent are below the budget, P at a time, until the first trial meets the
target), to compare with hpod's replay of it.

RANDOM_RESULTS holds hpod's `random` campaigns on the table, one line per
seed as tests/bench/bench-search.sh's hpod_run prints them (reached
epochs gpu_s best trials).  Prints one line: the seeds, the fraction
of them that reached the target, then GPU-hours, then two fractions:
  n_seeds reached hpod_median lo hi sim_random_median
  bound_random_own bound_random_first bound_random_busy
  bound_sobol_own bound_sobol_first bound_sobol_busy
  floor wave_reach_random wave_reach_sobol
(wave_reach: the fraction of first waves holding a run that reaches the
target.)

wave: what a first wave chosen by cost alone is worth.  Over DRAWS
seeds, `random` replayed as above after three kinds of first wave of P:
random points, a Sobol' design, and each point the cheaper per epoch
of two Sobol' designs' (cmtpe's start-up rule with the cost known from
the start, as a spec's cost model could know it at best: the run's mean
epoch_s).  Prints per kind the median GPU-hours to target, its
quartiles, and the share of waves holding a run that reaches the target.

check: the cost model against a replayed campaign.  For every attempt of
the last campaign in LEDGER (a bench-search.sh ledger: replay backend, 1
GPU per trial), find its run as the replay backend does (the trial's
parameters and seed), and compare the values the ledger recorded with
the run's, and the attempt's GPU-seconds with start_s plus the epochs it
played (a cancelled one: at least that, less than one more epoch).
Prints what it compared; exits 1 on the first mismatch.
"""
import heapq
import json
import math
import random
import sqlite3
import statistics
import sys

SOBOL_BITS = 32
# Joe-Kuo primitive polynomials (degree s, coefficients a) and initial
# direction numbers for dimensions 2 to 8; dimension 1 is van der
# Corput's.  The same numbers as search/sobol.c.
SOBOL_JK = [(1, 0, [1]), (2, 1, [1, 3]), (3, 1, [1, 3, 1]),
            (3, 2, [1, 1, 1]), (4, 1, [1, 1, 3, 3]), (4, 4, [1, 3, 5, 13]),
            (5, 2, [1, 1, 5, 5, 17])]


def die(msg):
    sys.exit("search_bound.py: " + msg)


class Table:
    """A replay table, its runs grouped by configuration."""

    def __init__(self, path, target):
        try:
            with open(path) as f:
                t = json.load(f)
        except (OSError, ValueError) as e:
            die("%s: %s" % (path, e))
        self.path = path
        self.names = [p["name"] for p in t["params"]]
        self.logs = [p.get("scale") == "log" for p in t["params"]]
        self.maximize = t.get("goal") == "max"
        self.target = target
        self.runs = t["runs"]
        for r in self.runs:
            for i, v in enumerate(r["x"]):
                if not isinstance(v, (int, float)) or \
                        (self.logs[i] and v <= 0):
                    die("%s: runs[].x[%d] (%s) must be a number, > 0 on "
                        "a log scale" % (path, i, self.names[i]))
        n = len(self.names)
        lo, hi = [math.inf] * n, [-math.inf] * n
        for r in self.runs:
            for i, v in enumerate(self.coords(r["x"])):
                lo[i], hi[i] = min(lo[i], v), max(hi[i], v)
        self.range = [hi[i] - lo[i] if hi[i] > lo[i] else 1.0
                      for i in range(n)]
        # Configurations in the table's order: the first run of each
        # wins a tie, as in replay_table_find.
        self.configs = []
        index = {}
        for r in self.runs:
            key = tuple(r["x"])
            if key not in index:
                index[key] = len(self.configs)
                self.configs.append({"x": r["x"], "runs": []})
            self.configs[index[key]]["runs"].append(self.summary(r))
        self.cols = [[self.coords(c["x"])[i] for c in self.configs]
                     for i in range(n)]
        self.cache = {}
        self.floor = min(s["ttt"] for c in self.configs for s in c["runs"])
        if self.floor == math.inf:
            die("%s: no run reaches the target %g" % (path, target))

    def coords(self, x):
        return [math.log(v) if self.logs[i] else v for i, v in enumerate(x)]

    def meets(self, v):
        return v >= self.target if self.maximize else v <= self.target

    def summary(self, r):
        """A run's first result, time to target and duration, seconds."""
        t = r["start_s"]
        e1 = ttt = None
        for i, v in enumerate(r["values"]):
            t += r["epoch_s"][i]
            if e1 is None:
                e1 = t
            if self.meets(v):
                ttt = t
                break
        # A run without epochs ends at once (replay.c).
        dur = t if r["values"] else 0.0
        return {"e1": e1 if e1 is not None else dur,
                "ttt": ttt if ttt is not None else math.inf,
                "dur": dur, "seed": r.get("seed", 0), "run": r}

    def nearest(self, x):
        """The configuration replay_table_find answers x with: the same
        arithmetic, the first of equally near ones."""
        key = tuple(x)
        c = self.cache.get(key)
        if c is None:
            tot = [0.0] * len(self.configs)
            for u, col, rng in zip(self.coords(x), self.cols, self.range):
                tot = [t + ((u - v) / rng) * ((u - v) / rng)
                       for t, v in zip(tot, col)]
            c = self.cache[key] = min(range(len(tot)), key=tot.__getitem__)
        return c


class Space:
    """The campaign's space, as search/random.c and sobol.c map it."""

    def __init__(self, spec, names):
        self.params = []
        for name in names:
            if name not in spec:
                die("space: the table's parameter '%s' is not in the "
                    "space" % name)
            p = spec[name]
            if p.get("type") not in ("float", "int", "choice"):
                die("space.%s.type must be float, int or choice" % name)
            self.params.append(p)

    @staticmethod
    def lerp(p, lo, hi, u):
        if p.get("scale") == "log":
            return math.exp(math.log(lo) * (1 - u) + math.log(hi) * u)
        return lo * (1 - u) + hi * u

    def at(self, us):
        """The point at unit coordinates us."""
        x = []
        for p, u in zip(self.params, us):
            if p["type"] == "float":
                v = min(max(self.lerp(p, p["min"], p["max"], u), p["min"]),
                        p["max"])
            elif p["type"] == "int":
                if p.get("scale") == "log":
                    v = math.floor(self.lerp(p, p["min"], p["max"] + 1, u))
                else:
                    v = p["min"] + math.floor(u * (p["max"] - p["min"] + 1))
                v = min(max(v, p["min"]), p["max"])
            else:
                n = len(p["values"])
                v = p["values"][min(math.floor(u * n), n - 1)]
            x.append(v)
        return x

    def random(self, rng):
        return self.at([rng.random() for _ in self.params])


def sobol_directions(d):
    if d == 0:
        return [1 << (SOBOL_BITS - 1 - j) for j in range(SOBOL_BITS)]
    s, a, m = SOBOL_JK[d - 1]
    v = [m[j] << (SOBOL_BITS - 1 - j) for j in range(s)]
    for j in range(s, SOBOL_BITS):
        w = v[j - s] ^ (v[j - s] >> s)
        for k in range(1, s):
            if (a >> (s - 1 - k)) & 1:
                w ^= v[j - k]
        v.append(w)
    return v


def sobol_bits(dirs, k):
    x, j = 0, 0
    while k:
        if k & 1:
            x ^= dirs[j]
        k >>= 1
        j += 1
    return x


def waves(table, space, p, draws, rng, sobol, cheap=False):
    """draws first waves of p runs (summaries); with cheap, each point
    the cheaper per epoch of two Sobol' designs' (otherwise shifted)."""
    dims = len(space.params)
    if sobol and dims > len(SOBOL_JK) + 1:
        die("sobol: at most %d parameters" % (len(SOBOL_JK) + 1))
    dirs = [sobol_directions(d) for d in range(dims)]
    bits = [[sobol_bits(dirs[d], k) for d in range(dims)] for k in range(p)]
    out = []
    for _ in range(draws):
        if sobol:
            shift = [rng.getrandbits(SOBOL_BITS) for _ in range(dims)]
            xs = [space.at([(shift[d] ^ bits[k][d]) * 2.0 ** -SOBOL_BITS
                            for d in range(dims)]) for k in range(p)]
        else:
            xs = [space.random(rng) for _ in range(p)]
        wave = [rng.choice(table.configs[table.nearest(x)]["runs"])
                for x in xs]
        if cheap:
            shift = [rng.getrandbits(SOBOL_BITS) for _ in range(dims)]
            xs = [space.at([(shift[d] ^ bits[k][d]) * 2.0 ** -SOBOL_BITS
                            for d in range(dims)]) for k in range(p)]
            wave = [min(w, rng.choice(table.configs[table.nearest(x)]
                                      ["runs"]), key=epoch_cost)
                    for w, x in zip(wave, xs)]
        out.append(wave)
    return out


def epoch_cost(s):
    """A run's mean seconds per epoch: what a spec's cost model could
    know of it at best."""
    r = s["run"]
    return sum(r["epoch_s"]) / len(r["epoch_s"]) if r["epoch_s"] else 0.0


def oracle(wave, floor, stop_at):
    """The oracle's GPU-seconds to target after this first wave: a
    stopped trial paid until its own first result ("own"), until the
    wave's first result ("first"), or every slot busy until the end
    ("busy")."""
    t1 = min(r["e1"] for r in wave)
    if stop_at == "busy":
        return len(wave) * min(min(r["ttt"] for r in wave), t1 + floor)
    stop = [t1 if stop_at == "first" else r["e1"] for r in wave]
    best = math.inf
    for i, r in enumerate(wave):
        if r["ttt"] < math.inf:
            best = min(best, r["ttt"] + sum(min(s, r["ttt"])
                       for j, s in enumerate(stop) if j != i))
    end = min(stop) + floor
    return min(best, floor + sum(min(s, end) for s in stop))


def replay_random(table, p, budget, rng, pool, first=()):
    """One seed of `random` on the replay, its first trials the runs of
    the list first: GPU-seconds to target."""
    now, spent_done, running = 0.0, 0.0, []    # (end, start, reached)
    first = list(first)
    while True:
        spent = spent_done + sum(now - s for _, s, _ in running)
        while len(running) < p and spent < budget:
            r = first.pop(0) if first else \
                rng.choice(table.configs[rng.choice(pool)]["runs"])
            if r["ttt"] < math.inf:
                heapq.heappush(running, (now + r["ttt"], now, True))
            else:
                heapq.heappush(running, (now + r["dur"], now, False))
        if not running:
            return math.inf
        end, start, reached = heapq.heappop(running)
        now = end
        spent_done += end - start
        if reached:
            return spent_done + sum(now - s for _, s, _ in running)


def median_ci(xs, resamples=2000):
    """Median and bootstrap 90% interval, as bench-search.sh's stats."""
    rng = random.Random(1)
    meds = sorted(statistics.median(rng.choice(xs) for _ in xs)
                  for _ in range(resamples))
    return (statistics.median(xs), meds[int(resamples * 0.05)],
            meds[int(resamples * 0.95) - 1])


def paired_medians(a, b, resamples):
    """The medians of a and of b and their ratio b / a in each of
    resamples bootstrap resamples of the seeds, drawn alike for both
    (paired; random.Random(1)): three lists, in draw order."""
    rng = random.Random(1)
    n = len(a)
    ma, mb, rs = [], [], []
    for _ in range(resamples):
        idx = [rng.randrange(n) for _ in range(n)]
        x = statistics.median(a[i] for i in idx)
        y = statistics.median(b[i] for i in idx)
        ma.append(x)
        mb.append(y)
        rs.append(y / x)
    return ma, mb, rs


def interval(v):
    """The bootstrap 90% interval of the resampled values v."""
    v = sorted(v)
    return v[int(0.05 * len(v))], v[int(0.95 * len(v)) - 1]


def replay_args(argv):
    """TABLE SPACE_JSON TARGET BUDGET_GPU_S P [DRAWS], as bound and wave
    take them: the table, the space, the budget, P and DRAWS (default
    10000)."""
    path, space_json, target, budget, p = argv[:5]
    draws = int(argv[5]) if len(argv) > 5 else 10000
    try:
        spec = json.loads(space_json)
    except ValueError as e:
        die("SPACE_JSON: %s" % e)
    table = Table(path, float(target))
    space = Space(spec, table.names)
    p, budget = int(p), float(budget)
    return table, space, budget, p, draws


def random_pool(table, space, draws):
    """The random numbers of bound and wave, and the table's configuration
    nearest each of DRAWS random points of the space, drawn with them."""
    rng = random.Random(16)
    return rng, [table.nearest(space.random(rng)) for _ in range(draws)]


def bound(argv):
    if len(argv) < 6:
        sys.exit(__doc__)
    table, space, budget, p, draws = replay_args(argv[:5] + argv[6:7])
    results = argv[5]
    gpu_s = []
    try:
        with open(results) as f:
            for n, line in enumerate(f, 1):
                w = line.split()
                if len(w) < 3:
                    die("%s:%d: want 'reached epochs gpu_s ...'" %
                        (results, n))
                gpu_s.append(float(w[2]))
    except OSError as e:
        die("%s: %s" % (results, e))
    if not gpu_s:
        die("%s: no seeds" % results)
    rng, pool = random_pool(table, space, draws)
    sim = [replay_random(table, p, budget, rng, pool)
           for _ in range(draws)]
    out = [len(gpu_s), sum(g < math.inf for g in gpu_s) / len(gpu_s)]
    out += median_ci(gpu_s)
    out.append(statistics.median(sim))
    reach = []
    for sobol in (False, True):
        ws = waves(table, space, p, draws, rng, sobol)
        for stop_at in ("own", "first", "busy"):
            out.append(statistics.median(oracle(w, table.floor, stop_at)
                                         for w in ws))
        reach.append(sum(any(r["ttt"] < math.inf for r in w)
                         for w in ws) / len(ws))
    out.append(table.floor)
    hours = ["%.6g" % (v / 3600) if v < math.inf else "inf"
             for v in out[2:]]
    print("%d %.3f %s %.4f %.4f" % (out[0], out[1], " ".join(hours),
                                    reach[0], reach[1]))


def wave(argv):
    if len(argv) < 5:
        sys.exit(__doc__)
    table, space, budget, p, draws = replay_args(argv[:6])
    rng, pool = random_pool(table, space, draws)
    for name, sobol, cheap in (("random", False, False),
                               ("sobol", True, False),
                               ("cheaper-of-two", True, True)):
        ws = waves(table, space, p, draws, rng, sobol, cheap)
        c = sorted(replay_random(table, p, budget, rng, pool, w)
                   for w in ws)
        reach = sum(any(r["ttt"] < math.inf for r in w) for w in ws)
        print("%s: median %.4g [quartiles %.4g-%.4g] GPU-hours, "
              "%.1f%% of waves hold a run to target" %
              (name, statistics.median(c) / 3600, c[len(c) // 4] / 3600,
               c[3 * len(c) // 4] / 3600, 100 * reach / len(ws)))


def check(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    path, ledger, target = argv[:3]
    table = Table(path, float(target))
    metric = json.load(open(path)).get("metric", "eval_error")
    db = sqlite3.connect("file:%s?mode=ro" % ledger, uri=True)
    rows = db.execute(
        "select a.id, t.number, t.params_json, t.seed, a.state, a.started,"
        " a.ended, a.gpus from attempts a join trials t on t.id ="
        " a.trial_id where t.campaign_id = (select max(id) from campaigns)"
        " and a.started > 0 order by a.id").fetchall()
    if not rows:
        die("%s: no attempts in the last campaign" % ledger)
    played, cut, worst = 0, 0, 0.0
    for aid, number, pj, seed, state, started, ended, gpus in rows:
        params = json.loads(pj)
        x = [float(params[n]) for n in table.names]
        c = table.configs[table.nearest(x)]
        # replay_table_find: the run of this seed, else seed mod count.
        runs = [s for s in c["runs"] if s["seed"] == seed]
        s = runs[0] if runs else \
            c["runs"][(-(seed + 1) if seed < 0 else seed) % len(c["runs"])]
        run = s["run"]
        vals = [v for (v,) in db.execute(
            "select value from metrics where attempt_id = ? and key = ?"
            " order by step", (aid, metric))]
        k = len(vals)
        if vals != run["values"][:k]:
            die("trial %d: the ledger's %s values are not its run's "
                "(x %s, seed %d)" % (number, metric, run["x"], seed))
        cost = (ended - started) * gpus
        want = run["start_s"] + sum(run["epoch_s"][:k])
        if gpus != 1:
            die("trial %d: %d GPUs, the bench runs 1" % (number, gpus))
        if state in ("completed", "failed"):
            worst = max(worst, abs(cost - want))
            if abs(cost - want) > 0.01:
                die("trial %d: %.3f GPU-seconds in the ledger, the table "
                    "says %.3f (%d epochs)" % (number, cost, want, k))
            played += 1
        else:
            nxt = want + (run["epoch_s"][k] if k < len(run["epoch_s"])
                          else 0)
            if not want - 0.01 <= cost <= nxt + 0.01:
                die("trial %d (%s): %.3f GPU-seconds, not between %.3f "
                    "and %.3f" % (number, state, cost, want, nxt))
            cut += 1
    print("%s, %s: %d attempts ended at their last played epoch, their "
          "GPU-seconds within %.3g s of start_s + the epochs' epoch_s; "
          "%d stopped between two epochs" % (path, ledger, played, worst,
                                             cut))


def main():
    modes = {"bound": bound, "check": check, "wave": wave}
    if len(sys.argv) < 2 or sys.argv[1] not in modes:
        sys.exit(__doc__)
    modes[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
