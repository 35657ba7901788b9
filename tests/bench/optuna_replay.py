#!/usr/bin/python3
"""Optuna 3.1 over the same replay table as hpod's replay backend.

Usage: optuna_replay.py TABLE TARGET BUDGET_GPU_S SEED METHOD
           [SPACE_JSON [PARALLEL [MAX_RESOURCE]]]

METHOD is SAMPLER[+PRUNER]: SAMPLER tpe (TPESampler's defaults), mtpe
(TPESampler with multivariate=True and constant_liar=True), or random;
PRUNER hyperband, asha (SuccessiveHalvingPruner) or none.

SPACE_JSON is the "space" object of the hpod campaign (float and int
parameters, log or linear, and choices); without it, make bench-search's
minicosmo space (lr log-uniform in [0.001, 0.2], batch_size in {32, 64,
128}, momentum uniform in [0.85, 0.95]).  PARALLEL trials run at once
(default 1) on a virtual clock, as hpod's replay backend runs them: a new
trial is asked for as soon as a slot is free, while the others still run
(ask and tell), so the sampler sees them as running.  MAX_RESOURCE is the
hyperband pruner's (default 12).

The same nearest-configuration lookup (replay_table.h: normalized
distance, log scale where the table says so; the run of the configuration
is drawn from the seed and trial number), the same replay of a run
(start_s, then epoch by epoch; a run stops at the first epoch that meets
the target, as the trainer does; a diverged run fails), the same cost (1
GPU per trial, virtual seconds: every trial's time until the target is
first reached) and the same budget (no new trial once the GPU-seconds
spent reach BUDGET_GPU_S, the study going on after the target is met,
as hpod's campaign does).  Each epoch's value goes to the pruner; a
trial's value is its best.

Prints one line: reached epochs_to_target gpu_s_to_target best trials
(reached 0: the two costs are "inf").
"""
import heapq
import json
import math
import random
import sys

import optuna

MINICOSMO_SPACE = {
    "lr": {"type": "float", "min": 0.001, "max": 0.2, "scale": "log"},
    "batch_size": {"type": "choice", "values": [32, 64, 128]},
    "momentum": {"type": "float", "min": 0.85, "max": 0.95},
}


def load(path):
    with open(path) as f:
        t = json.load(f)
    logs = [p.get("scale") == "log" for p in t["params"]]
    lo = [math.inf] * len(logs)
    hi = [-math.inf] * len(logs)
    for r in t["runs"]:
        for i, v in enumerate(r["x"]):
            v = math.log(v) if logs[i] else v
            lo[i] = min(lo[i], v)
            hi[i] = max(hi[i], v)
    return t, logs, lo, hi


def nearest(table, x, pick):
    t, logs, lo, hi = table
    best, bestd = None, math.inf
    for r in t["runs"]:
        d = 0.0
        for i, v in enumerate(r["x"]):
            a = (math.log(x[i]) - math.log(v)) if logs[i] else x[i] - v
            if hi[i] > lo[i]:
                a /= hi[i] - lo[i]
            d += a * a
        if d < bestd:
            best, bestd = r, d
    runs = [r for r in t["runs"] if r["x"] == best["x"]]
    return runs[pick % len(runs)]


def suggest(trial, space, names):
    """The trial's point, in the table's parameter order."""
    x = []
    for name in names:
        p = space[name]
        log = p.get("scale") == "log"
        if p["type"] == "float":
            x.append(trial.suggest_float(name, p["min"], p["max"], log=log))
        elif p["type"] == "int":
            x.append(trial.suggest_int(name, p["min"], p["max"], log=log))
        else:
            x.append(trial.suggest_categorical(name, p["values"]))
    return x


def sampler_of(name, seed):
    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if name == "mtpe":
        return optuna.samplers.TPESampler(seed=seed, multivariate=True,
                                          constant_liar=True)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    sys.exit("optuna_replay.py: unknown sampler " + name)


def pruner_of(name, max_resource):
    if name == "hyperband":
        return optuna.pruners.HyperbandPruner(
            min_resource=1, max_resource=max_resource, reduction_factor=3)
    if name == "asha":
        return optuna.pruners.SuccessiveHalvingPruner(
            min_resource=1, reduction_factor=3)
    if name == "":
        return optuna.pruners.NopPruner()
    sys.exit("optuna_replay.py: unknown pruner " + name)


def main():
    if len(sys.argv) < 6:
        sys.exit(__doc__)
    path, target, budget, seed, method = sys.argv[1:6]
    target, budget, seed = float(target), float(budget), int(seed)
    space = json.loads(sys.argv[6]) if len(sys.argv) > 6 else \
        MINICOSMO_SPACE
    parallel = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    max_resource = int(sys.argv[8]) if len(sys.argv) > 8 else 12
    table = load(path)
    names = [p["name"] for p in table[0]["params"]]
    optuna.logging.set_verbosity(optuna.logging.ERROR)
    sampler_name, _, pruner_name = method.partition("+")
    # A fixed name: HyperbandPruner draws a trial's bracket from it.
    study = optuna.create_study(study_name="bench-%d" % seed,
                                direction="minimize",
                                pruner=pruner_of(pruner_name, max_resource),
                                sampler=sampler_of(sampler_name, seed))
    now = 0.0
    events = []             # (time its epoch ends, serial, trial state)
    started = []            # per trial: (start time, end time or None)
    reached_at = None
    epochs = 0
    ep_to = math.inf
    best_all = math.inf
    serial = 0

    def running_cost(t):
        """GPU-seconds of every trial until time t."""
        return sum(max(0.0, min(t, e if e is not None else t) - s)
                   for s, e in started)

    def start(t):
        nonlocal serial
        trial = study.ask()
        x = suggest(trial, space, names)
        pick = random.Random(seed * 1000003 + trial.number).randrange(
            1 << 30)
        run = nearest(table, x, pick)
        st = {"trial": trial, "run": run, "e": 0, "best": math.inf,
              "k": len(started)}
        started.append((t, None))
        if not run["values"]:
            # The replay backend ends a run without epochs at once.
            started[st["k"]] = (t, t)
            study.tell(trial, state=optuna.trial.TrialState.FAIL)
            return
        t += run["start_s"] + run["epoch_s"][0]
        heapq.heappush(events, (t, serial, st))
        serial += 1

    def finish(st, t, **kw):
        s, _ = started[st["k"]]
        started[st["k"]] = (s, t)
        study.tell(st["trial"], **kw)

    while True:
        while (sum(1 for _, e in started if e is None) < parallel and
               running_cost(now) < budget):
            start(now)
        if not events:
            break
        now, _, st = heapq.heappop(events)
        run, trial = st["run"], st["trial"]
        v = run["values"][st["e"]]
        st["e"] += 1
        epochs += 1
        st["best"] = min(st["best"], v)
        best_all = min(best_all, v)
        trial.report(v, st["e"])
        if v <= target:
            if reached_at is None:
                reached_at = now
                ep_to = epochs
            finish(st, now, values=st["best"])
        elif trial.should_prune():
            finish(st, now, state=optuna.trial.TrialState.PRUNED)
        elif st["e"] == len(run["values"]):
            if run["status"] != 0:      # diverged: the trial fails
                finish(st, now, state=optuna.trial.TrialState.FAIL)
            else:
                finish(st, now, values=st["best"])
        else:
            heapq.heappush(events, (now + run["epoch_s"][st["e"]],
                                    serial, st))
            serial += 1
    gpu_to = running_cost(reached_at) if reached_at is not None else \
        math.inf
    if reached_at is None:
        ep_to = math.inf
    print(int(reached_at is not None), ep_to, gpu_to, best_all,
          len(study.trials))


if __name__ == "__main__":
    main()
