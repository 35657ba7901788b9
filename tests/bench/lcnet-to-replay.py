#!/usr/bin/python3
"""Convert the CIFAR-10 CNN learning curves of Klein et al. (2017) into a
replay table of hpod (format hpod-replay-1).

Usage: lcnet-to-replay.py SOURCE_DIR OUT.json

SOURCE_DIR holds config_N.json files, one training run each, as the
University of Freiburg deep-learning course distributed them and as
github.com/hoshiraku/dlfinal keeps them in data/final_project/: "config"
(batch_size, log10_learning_rate, log2_n_units_1..3 of a 3-layer CNN),
"learning_curve" (validation error after each of 40 epochs) and
"time_steps" (wall seconds from the start of training to the end of each
epoch).  See tests/bench/LICENSE-data.md for where the data come from.

Each run becomes {"x": [lr, batch_size, n_units_1, n_units_2, n_units_3],
"seed": 0, "status": 0, "start_s": 0, "epoch_s": [...], "values": [...]}:
the parameters are back on their natural scale, epoch_s are the
differences of time_steps (rounded to 1 s) and values the validation
errors (rounded to 4 digits), under the metric eval_error.  Nothing else
is changed, and no run is left out.
"""
import glob
import json
import os
import sys

import replay_table


def run_of(path):
    with open(path) as f:
        d = json.load(f)
    c = d["config"]
    ts = d["time_steps"]
    epoch_s = [round(b - a) for a, b in zip([0.0] + ts[:-1], ts)]
    x = [float("%.6g" % 10 ** c["log10_learning_rate"]),
         float("%.6g" % c["batch_size"]),
         float("%.6g" % 2 ** c["log2_n_units_1"]),
         float("%.6g" % 2 ** c["log2_n_units_2"]),
         float("%.6g" % 2 ** c["log2_n_units_3"])]
    return d.get("config_id", 0), {
        "x": x, "seed": 0, "status": 0, "start_s": 0,
        "epoch_s": epoch_s,
        "values": [round(v, 4) for v in d["learning_curve"]]}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: lcnet-to-replay.py SOURCE_DIR OUT.json")
    src, out = sys.argv[1:3]
    files = glob.glob(os.path.join(src, "config_*.json"))
    if not files:
        sys.exit("lcnet-to-replay.py: no config_*.json in " + src)
    runs = [r for _, r in sorted((run_of(f) for f in files),
                                 key=lambda t: (t[0], t[1]["x"]))]
    replay_table.write(
        out, "cifar10-cnn", "tests/bench/lcnet-to-replay.py from "
        "github.com/hoshiraku/dlfinal data/final_project (commit 9435f79), "
        "CIFAR-10 CNN, Klein et al. 2017",
        ["lr", "batch_size", "n_units_1", "n_units_2", "n_units_3"], runs)


if __name__ == "__main__":
    main()
