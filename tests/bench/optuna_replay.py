#!/usr/bin/python3
"""Optuna 3.1 over the same replay table as hpod's replay backend.

Usage: optuna_replay.py TABLE TARGET BUDGET_GPU_S SEED METHOD

METHOD is tpe, tpe+hyperband, tpe+asha (SuccessiveHalvingPruner), random
or random+asha.

Runs one study, sequentially, as `make bench-search` runs hpod: the same
space (lr log-uniform in [0.001, 0.2], batch_size in {32, 64, 128},
momentum uniform in [0.85, 0.95]), the same nearest-configuration lookup
(replay_table.h: normalized distance, log scale where the table says so;
the run of the configuration is drawn from the seed and trial number),
the same replay of a run (start_s, then epoch by epoch; a run stops at
the first epoch that meets the target, as the trainer does; a diverged
run fails), the same cost (1 GPU per trial, virtual seconds) and the same
budget (no new trial once the GPU-seconds reach BUDGET_GPU_S).  Reports
each epoch's value to the pruner, and returns the trial's best value;
the best value at the end is the best any trial reported.

Prints one line: reached epochs_to_target gpu_s_to_target best trials
(reached 0: the two costs are "inf").
"""
import json
import math
import random
import sys

import optuna


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


def main():
    path, target, budget, seed, method = sys.argv[1:6]
    target, budget, seed = float(target), float(budget), int(seed)
    table = load(path)
    state = {"gpu_s": 0.0, "epochs": 0, "reached": False,
             "gpu_to": math.inf, "ep_to": math.inf, "best": math.inf}

    def objective(trial):
        x = [trial.suggest_float("lr", 0.001, 0.2, log=True),
             trial.suggest_categorical("batch_size", [32, 64, 128]),
             trial.suggest_float("momentum", 0.85, 0.95)]
        pick = random.Random(seed * 1000003 + trial.number).randrange(1 << 30)
        run = nearest(table, x, pick)
        if run["values"]:
            # The replay backend ends a run without epochs at once.
            state["gpu_s"] += run["start_s"]
        best = math.inf
        for e, (s, v) in enumerate(zip(run["epoch_s"], run["values"]), 1):
            state["gpu_s"] += s
            state["epochs"] += 1
            best = min(best, v)
            state["best"] = min(state["best"], v)
            trial.report(v, e)
            if v <= target:
                if not state["reached"]:
                    state["reached"] = True
                    state["gpu_to"] = state["gpu_s"]
                    state["ep_to"] = state["epochs"]
                return best
            if trial.should_prune():
                raise optuna.TrialPruned()
        if run["status"] != 0:
            return float("nan")       # diverged: the trial fails
        return best

    def stop(study, trial):
        if state["gpu_s"] >= budget:
            study.stop()

    optuna.logging.set_verbosity(optuna.logging.ERROR)
    sampler_name, _, pruner_name = method.partition("+")
    if pruner_name == "hyperband":
        pruner = optuna.pruners.HyperbandPruner(
            min_resource=1, max_resource=12, reduction_factor=3)
    elif pruner_name == "asha":
        pruner = optuna.pruners.SuccessiveHalvingPruner(
            min_resource=1, reduction_factor=3)
    elif pruner_name == "":
        pruner = optuna.pruners.NopPruner()
    else:
        sys.exit("optuna_replay.py: unknown pruner " + pruner_name)
    if sampler_name == "tpe":
        sampler = optuna.samplers.TPESampler(seed=seed)
    elif sampler_name == "random":
        sampler = optuna.samplers.RandomSampler(seed=seed)
    else:
        sys.exit("optuna_replay.py: unknown sampler " + sampler_name)
    # A fixed name: HyperbandPruner draws a trial's bracket from it.
    study = optuna.create_study(study_name="bench-%d" % seed,
                                direction="minimize", pruner=pruner,
                                sampler=sampler)
    study.optimize(objective, n_trials=100000, callbacks=[stop],
                   catch=())
    print(int(state["reached"]), state["ep_to"], state["gpu_to"],
          state["best"], len(study.trials))


if __name__ == "__main__":
    main()
