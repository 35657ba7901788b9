#!/usr/bin/python3
"""Convert the MNIST convolutional-network learning curves that
Hyunghun Cho recorded in github.com/hyunghunny/tf-hpo (log/
mnist-conv_filter4.csv, MIT licence) into a replay table of hpod (format
hpod-replay-1).

Usage: tfhpo-to-replay.py SOURCE.csv OUT.json

SOURCE.csv is that log as the repository keeps it: one line per
evaluation, every 100 training steps of 64 samples, of a TensorFlow
LeNet-style network (two 4x4 convolutions of conv1_depth and
conv2_depth filters, a fully connected layer of fc_depth units,
momentum 0.9, learning rate 0.01 decayed by 0.95 an epoch, dropout
0.5, a fixed seed), with the
wall-clock time of the line (to the millisecond), the tag
4_<conv1_depth>_<conv2_depth>_<fc_depth>, the step, the minibatch,
validation and test accuracy in percent, and the three depths.  The
full grid of 162 configurations (depths 2..512 in powers of 2, fc_depth
512 or 1024) ran one after another, 8,500 steps each (about 10 epochs
of the 55,000 training images).

Each run becomes {"x": [conv1_depth, conv2_depth, fc_depth], "seed": 0,
"status": 0, "start_s": 0, "epoch_s": [...], "values": [...]}, one point
per evaluation after training began (steps 100 to 8,500): values are the
validation errors (1 - validation accuracy, rounded to 4 digits) under
the metric eval_error, epoch_s the wall seconds between the line and
the one before it (rounded to 0.01 s; 100 training steps and one
evaluation).  The evaluation at step 0, before any training, is left
out; nothing else is changed and no run is left out.  See
tests/bench/LICENSE-data.md.
"""
import csv
import datetime
import sys

import replay_table


def stamp(date, ms):
    t = datetime.datetime.strptime(date, "%Y-%m-%d %H:%M:%S")
    return t.replace(tzinfo=datetime.timezone.utc).timestamp() + \
        int(ms) / 1000.0


def runs_of(path):
    lines = {}
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if len(row) != 11 or row[2] == "Tag Name":
                continue
            lines.setdefault(row[2], []).append(row)
    runs = []
    for tag, rows in lines.items():
        rows.sort(key=lambda r: int(r[3]))
        if int(rows[0][3]) != 0 or len(rows) < 2:
            sys.exit("tfhpo-to-replay.py: %s: run %s does not start at "
                     "step 0" % (path, tag))
        t = [stamp(r[0], r[1]) for r in rows]
        x = [float(rows[0][8]), float(rows[0][9]), float(rows[0][10])]
        runs.append({
            "x": x, "seed": 0, "status": 0, "start_s": 0,
            "epoch_s": [round(b - a, 2) for a, b in zip(t, t[1:])],
            "values": [round(1 - float(r[5]) / 100, 4) for r in rows[1:]]})
    return sorted(runs, key=lambda r: r["x"])


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: tfhpo-to-replay.py SOURCE.csv OUT.json")
    src, out = sys.argv[1:3]
    runs = runs_of(src)
    if not runs:
        sys.exit("tfhpo-to-replay.py: no runs in " + src)
    replay_table.write(
        out, "mnist-conv", "tests/bench/tfhpo-to-replay.py from "
        "github.com/hyunghunny/tf-hpo log/mnist-conv_filter4.csv (commit "
        "f6ec544, MIT licence), MNIST CNN, H. Cho 2016",
        ["conv1_depth", "conv2_depth", "fc_depth"], runs)


if __name__ == "__main__":
    main()
