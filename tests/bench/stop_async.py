#!/usr/bin/python3
"""stop_async.py: screen stopper rules offline on `random` replayed P
trials at a time (asynchronously), as stop_screen.py does one at a time.

    stop_async.py replay TABLE SPACE_JSON TARGET BUDGET_GPU_S LAST GRACE P
                  [DRAWS [RULE...]]
    stop_async.py check TABLE LEDGER TARGET LAST GRACE P [RULE]

Standard library only: stop_screen.py's runs (search_bound.py's lookup,
cost and random draws, stop_check.py's extrapolation) and rule syntax.
An event simulation in virtual time, as the replay backend
(scheduler/replay/replay.c) runs jobs: P slots; a job starts when a slot
frees, plays its run epoch by epoch (its first epoch ends start_s +
epoch_s[0] after its start, each next one epoch_s[i] later), and ends at
the first epoch that meets the target (the campaign then ends), after
its last epoch, or at the epoch its stopper stops it.  The clock moves
to the end of the next epoch of the running job that gets there first
(the earliest submitted of equal ones); a freed slot takes the next
random draw at that same time while the GPU-seconds spent (running
jobs' time so far included) are below BUDGET_GPU_S.  The cost to target
is the GPU-seconds of every job from its start to its end or to the
moment the first one met the target, as bench-search.sh counts it.

The rules: none, target, leader:K and leadtime:K as stop_screen.py
has them, with "earlier trials" read as "other trials, by now": what
they had reported by the current time, running ones included
(target.c's history), and, as target.c's leader counts them, a trial
that has not played epoch e / K yet with its best so far (stop_screen.py
counts only the trials that played it, which one at a time differs only
for a trial stopped before e / K); and

  wave:K        leader:K, and while any trial of the first wave (the
                first P) runs, a trial of that wave also stops at epoch
                e when its best so far is worse than the best value any
                other trial of the wave had at epoch e (the wave's own
                leader, K = 1 within the wave).

leadtime:K%M (leadtime:K judged only while the trial's seconds per
epoch are more than M times the least of the other trials', by now,
that played 2 epochs or more), leadtime:K,M (judged only once the
trial has spent more than M times LAST epochs at that least pace) and
rules joined by + (a trial stops when any of them says so) as
stop_screen.py has them; and, here only, rules joined by & (a trial
stops when all of them say so at the same epoch; & binds before +):
leader:2@2&leadtime:2@2 stops a trial that trails the leader both in
epochs and in GPU-seconds.

A leader or wave rule may end in /done: its leader is then the best of
the trials that have ended (stopped or played out) only, not of the
running ones; or in /at: the best of the trials that played epoch
e / K (stop_screen.py's history); or in /run:K2: the ended trials
judged at K, the running ones at K2 (a trial stops when its best so far
is worse than a running trial's best by epoch e / K2).  One at a time
no other trial runs, so /done and /run:K2 are the rule itself there.
"@G" as in stop_screen.py; for K > 1, @1 is @2 (epoch 1 / K < 1).
The default RULES: none, target, leader:K@2 for K 1.5, 1.75, 2 (the
reference), 2.5, 3 and 4, leader:2@2 /done, /at, /run:3 and /run:4,
leadtime:2 and 3, wave:2@1 and wave:2@2.

replay: DRAWS seeds (default 2000; seed i draws the same runs in the
same order under every rule, from a pool of max(DRAWS, 10000) random
points, stop_screen.py's at 10,000); prints stop_screen.py's line per
rule.  A RULE written =RULE is the reference: then for every other rule
a line follows with the ratio of its median GPU-hours to the
reference's, a bootstrap 90% interval of that ratio (1000 resamples of
the seeds, the same for both: paired), and the seeds cheaper / dearer
than under the reference.

check: the last campaign of LEDGER (bench-search.sh's random+target at
P at once) replayed from its own trials' runs, in the order the engine
submitted them, under RULE (default leader:2@1, the target stopper of a
workload without warm-up).  Prints the trials whose epochs differ from
the ledger's, then the GPU-seconds to target of both; exits 1 if the
replay met the target in no trial.
"""
import bisect
import heapq
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import search_bound  # noqa: E402
import stop_screen   # noqa: E402


def die(msg):
    sys.exit("stop_async.py: " + msg)


def parse_rule(text):
    """(name, argument, since, seen) of NAME[:ARG][@SINCE][/SEEN], SEEN
    "all" by default; ("any", [each], None, "all") of rules joined by
    +."""
    if "+" in text:
        return "any", [parse_rule(t) for t in text.split("+")], None, "all"
    if "&" in text:
        return "both", [parse_rule(t) for t in text.split("&")], None, \
            "all"
    base, slash, seen = text.partition("/")
    if seen.startswith("run:"):
        try:
            k2 = float(seen[4:])
        except ValueError:
            k2 = math.nan
        if not k2 >= 1:
            die("RULE: /run:K2 wants K2 >= 1, got '%s'" % text)
        seen = k2
    elif slash and seen not in ("done", "at"):
        die("RULE: only /done, /at or /run:K2 may follow a rule, got "
            "'%s'" % text)
    if base.startswith("wave:"):
        name, arg, since = stop_screen.parse_rule("leader" + base[4:])
        name = "wave"
    else:
        name, arg, since = stop_screen.parse_rule(base)
        if name not in ("none", "target", "leader", "leadtime",
                        "leaddear", "leadspent"):
            die("RULE: want none, target, leader:K, leadtime:K[%%M|,M] or "
                "wave:K, or such rules joined by +, got '%s'" % text)
    if name in ("leadtime", "leaddear", "leadspent") and slash:
        die("RULE: /%s applies to leader:K and wave:K, got '%s'"
            % (seen, text))
    return name, arg, since, seen or "all"


class Known:
    """What the stopper knows of the trials by now, per epoch j: the least
    best value any of them had by epoch j, counting a trial that has not
    played j epochs with its best so far (target.c's leader: the best of
    its points at steps <= j); the same of the ended trials only; the
    least best value at epoch j of the trials that played it (as
    stop_screen.py's history); the first wave's bests so far."""

    def __init__(self, last):
        self.last = last
        self.all = [math.inf] * (last + 1)
        self.done = [math.inf] * (last + 1)
        self.at = [math.inf] * (last + 1)
        self.wave = []
        self.slots = []         # every trial started
        self.running = {}       # number: slot of the running trials

    def best_by(self, t, slot):
        """Best value any other trial had after t GPU-seconds of its
        own, by now."""
        best = math.inf
        for o in self.slots:
            if o is slot:
                continue
            i = bisect.bisect_right(o.run.cost, t, 0, o.played + 1) - 1
            if i >= 1 and o.run.bsf[i] < best:
                best = o.run.bsf[i]
        return best

    def least_pace(self, slot):
        """Least seconds per epoch of the other trials that played 2
        epochs or more, by now (inf if none)."""
        return min((stop_screen.pace(o.run.cost, o.played)
                    for o in self.slots if o is not slot and o.played >= 2),
                   default=math.inf)

    def point(self, slot, e):
        b = slot.run.bsf[e]
        if math.isnan(b):
            return
        if b < self.at[e]:
            self.at[e] = b
        for j in range(e, self.last + 1):
            if b < self.all[j]:
                self.all[j] = b

    def ended(self, slot):
        b = slot.run.bsf
        for j in range(1, self.last + 1):
            v = b[min(j, slot.played)]
            if not math.isnan(v) and v < self.done[j]:
                self.done[j] = v


class Slot:
    def __init__(self, run, number, start):
        self.run, self.number, self.start = run, number, start
        self.played = 0


def decide(rule, slot, known, target, last, grace, wave_running):
    """1 if the stopper stops slot at its epoch slot.played."""
    name, arg, since, seen = rule
    if name == "any":
        return any(decide(r, slot, known, target, last, grace, wave_running)
                   for r in arg)
    if name == "both":
        return all(decide(r, slot, known, target, last, grace, wave_running)
                   for r in arg)
    run, e = slot.run, slot.played
    if run.tstop is not None and e >= run.tstop and name != "none":
        return True
    if name in ("none", "target") or e > last - 1:
        return False
    b = run.bsf[e]
    if math.isnan(b) or b <= target or e < (grace if since is None
                                            else since):
        return False
    if name == "leadtime":
        return b > known.best_by(run.cost[e] / arg, slot)
    if name == "leaddear":
        k, m = arg
        return e >= 2 and stop_screen.pace(run.cost, e) > \
            m * known.least_pace(slot) and \
            b > known.best_by(run.cost[e] / k, slot)
    if name == "leadspent":
        k, m = arg
        return run.cost[e] > m * last * known.least_pace(slot) and \
            b > known.best_by(run.cost[e] / k, slot)
    j = int(e // arg)
    if isinstance(seen, float):
        # /run:K2: the ended trials at K, the running ones at K2.
        if j >= 1 and b > known.done[j]:
            return True
        j2 = int(e // seen)
        return j2 >= 1 and any(
            o is not slot and o.played and b > o.run.bsf[min(j2, o.played)]
            for o in known.running.values())
    env = getattr(known, seen)
    if j >= 1 and b > env[j]:
        return True
    if name == "wave" and wave_running and slot.number < len(known.wave):
        for i, bests in enumerate(known.wave):
            if i != slot.number and len(bests) > e and bests[e] < b:
                return True
    return False


def simulate(order, p, rule, target, last, grace, budget, log=None):
    """GPU-seconds to target and trials of one campaign whose trials play
    the runs order yields (inf if none met the target)."""
    known = Known(last)
    heap, running = [], known.running
    now, done_cost, number = 0.0, 0.0, 0
    wave_left = p

    def fill():
        nonlocal number, done_cost
        while len(running) < p and done_cost + sum(
                now - s.start for s in running.values()) < budget:
            run = next(order, None)
            if run is None:
                return
            s = Slot(run, number, now)
            number += 1
            if rule[0] == "wave" and s.number < p:
                known.wave.append([math.nan])
            if run.n == 0:          # ends at once, at no cost (replay.c)
                if log is not None:
                    log.append((s.number, 0))
                continue
            running[s.number] = s
            known.slots.append(s)
            heapq.heappush(heap, (now + run.cost[1], s.number))

    fill()
    while heap:
        t, num = heapq.heappop(heap)
        now = t
        s = running[num]
        s.played += 1
        e = s.played
        known.point(s, e)
        if rule[0] == "wave" and num < p:
            known.wave[num].append(s.run.bsf[e])
        if s.run.reach == e:
            if log is not None:
                log.append((num, e))
                log.extend((o.number, o.played) for o in running.values()
                           if o is not s)
            return done_cost + sum(now - o.start
                                   for o in running.values()), number
        if e < s.run.n and not decide(rule, s, known, target, last, grace,
                                      wave_left > 0):
            heapq.heappush(heap, (s.start + s.run.cost[e + 1], num))
            continue
        del running[num]
        done_cost += now - s.start
        known.ended(s)
        if num < p:
            wave_left -= 1
        if log is not None:
            log.append((num, e))
        fill()
    return math.inf, number


def replay(argv):
    if len(argv) < 7:
        sys.exit(__doc__)
    path, space_json, target, budget, last, grace, p = argv[:7]
    draws = int(argv[7]) if len(argv) > 7 else 2000
    names = argv[8:] or ["none", "target", "leader:1.5@2",
                         "leader:1.75@2", "=leader:2@2", "leader:2.5@2",
                         "leader:3@2", "leader:4@2", "leader:2@2/done",
                         "leader:2@2/at", "leader:2@2/run:3",
                         "leader:2@2/run:4", "leadtime:2", "leadtime:3",
                         "wave:2@1", "wave:2@2"]
    ref = next((n[1:] for n in names if n.startswith("=")), None)
    names = [n.lstrip("=") for n in names]
    rules = [parse_rule(r) for r in names]
    last, grace, p = int(last), int(grace), int(p)
    if p < 1:
        die("P must be >= 1, got %d" % p)
    table, space, budget, target, runs = stop_screen.table_runs(
        path, space_json, target, budget, draws, last, grace)
    # The pool of random points is stop_screen.py's at 10,000 draws or
    # more: fewer seeds do not shrink the space to a few configurations.
    _, pool = search_bound.random_pool(table, space, max(draws, 10000))
    results = {}
    for name, rule in zip(names, rules):
        results[name] = [
            simulate(stop_screen.seed_order(table, pool, runs, seed), p,
                     rule, target, last, grace, budget)
            for seed in range(draws)]
    stop_screen.report(names, results)
    if ref is not None:
        for name in names:
            if name != ref:
                paired(name, results[name], ref, results[ref])


def paired(name, got, ref, base, resamples=1000):
    """The ratio of name's median GPU-seconds to ref's, with a bootstrap
    90% interval over the seeds resampled alike for both (paired), and
    the seeds cheaper / dearer than under ref."""
    got, base = [c for c, _ in got], [c for c, _ in base]
    lo, hi = search_bound.interval(
        search_bound.paired_medians(base, got, resamples)[2])
    print("%-14s x%.3f [%.3f-%.3f] %s (paired)  cheaper/dearer %d/%d" % (
        name, statistics.median(got) / statistics.median(base), lo, hi, ref,
        sum(a < b for a, b in zip(got, base)),
        sum(a > b for a, b in zip(got, base))))


def check(argv):
    if len(argv) not in (6, 7):
        sys.exit(__doc__)
    path, ledger, target, last, grace, p = argv[:6]
    rule = parse_rule(argv[6] if len(argv) > 6 else "leader:2@1")
    target, last, grace, p = float(target), int(last), int(grace), int(p)
    table = search_bound.Table(path, target)
    metric = stop_screen.table_metric(path)
    db, rows = stop_screen.ledger_trials(ledger)
    if not rows:
        die("%s: no trials in the last campaign" % ledger)
    first = db.execute(
        "select min(reached_at) from trials where campaign_id ="
        " (select max(id) from campaigns) and reached = 1").fetchone()[0]
    if first is None:
        die("%s: no trial met the target" % ledger)
    want = stop_screen.ledger_cost(db, first)
    order, played = [], []
    for tid, number, pj, seed, _ in rows:
        order.append(stop_screen.Run(stop_screen.ledger_run(table, pj, seed),
                                     target, last, grace))
        played.append(db.execute(
            "select count(*) from metrics m join attempts a on a.id ="
            " m.attempt_id where a.trial_id = ? and m.key = ? and"
            " m.time <= ? + 0.001", (tid, metric, first)).fetchone()[0])
    log = []
    cost, n = simulate(iter(order), p, rule, target, last, grace,
                       math.inf, log)
    if cost == math.inf:
        die("%s: the replay met the target in no trial" % ledger)
    differ = 0
    for num, e in sorted(log):
        if played[num] != e:
            differ += 1
            print("trial %d: %d epochs in the ledger, the replay plays %d"
                  % (rows[num][1], played[num], e))
    print("%s: %d trials in the ledger, %d replayed (%d with other "
          "epochs); GPU-seconds to target: ledger %.4f, replay %.4f "
          "(x%.4f)" % (ledger, len(rows), n, differ, want, cost,
                       cost / want))


if __name__ == "__main__":
    stop_screen.main(__doc__, {"replay": replay, "check": check})
