#!/usr/bin/python3
"""The CPU time of one suggestion of Optuna's TPESampler over a history.

Usage: optuna_suggest.py N [REPS]

The counterpart of tests/bench/tpe-suggest.c: the same space (lr
log-uniform in [0.001, 0.2], batch_size in {32, 64, 128}, momentum uniform
in [0.85, 0.95]), N completed trials at pseudo-random points with a smooth
objective, TPESampler with its defaults (univariate), in-memory storage.
One suggestion is study.ask() and the three suggest_* calls; the trial is
then told failed, which TPE leaves out of the next one.

Prints "N median_ms min_ms" over REPS suggestions (default 3).
"""
import math
import random
import sys
import time

import optuna


def main():
    n = int(sys.argv[1])
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    dist = {
        "lr": optuna.distributions.FloatDistribution(0.001, 0.2, log=True),
        "batch_size": optuna.distributions.CategoricalDistribution(
            [32, 64, 128]),
        "momentum": optuna.distributions.FloatDistribution(0.85, 0.95),
    }
    rnd = random.Random(42)
    trials = []
    for _ in range(n):
        lr = math.exp(math.log(0.001) + rnd.random() * math.log(200))
        bs = rnd.choice([32, 64, 128])
        m = 0.85 + 0.1 * rnd.random()
        v = (abs(math.log(lr / 0.03)) * 0.1 + 0.02 * [32, 64, 128].index(bs)
             + abs(m - 0.9) + 0.01 * rnd.random())
        trials.append(optuna.trial.create_trial(
            params={"lr": lr, "batch_size": bs, "momentum": m},
            distributions=dist, value=v))
    study = optuna.create_study(
        direction="minimize", sampler=optuna.samplers.TPESampler(seed=1))
    study.add_trials(trials)
    times = []
    for _ in range(reps):
        t0 = time.process_time()
        t = study.ask()
        t.suggest_float("lr", 0.001, 0.2, log=True)
        t.suggest_categorical("batch_size", [32, 64, 128])
        t.suggest_float("momentum", 0.85, 0.95)
        times.append((time.process_time() - t0) * 1000)
        study.tell(t, state=optuna.trial.TrialState.FAIL)
    times.sort()
    print("%d %.3f %.3f" % (n, times[len(times) // 2], times[0]))


if __name__ == "__main__":
    main()
