#!/usr/bin/python3
"""Convert the MNIST convolutional-network learning curves that
Hyunghun Cho recorded in github.com/hyunghunny/tf-hpo (MIT licence) into
a replay table of hpod (format hpod-replay-1).  Two of its logs, told
apart by their header line: log/mnist-conv_filter4.csv (table
mnist-conv) and log/mnist-cnn_20160811.csv (table mnist-cnn).

Usage: tfhpo-to-replay.py SOURCE.csv OUT.json

mnist-conv_filter4.csv (header "...,Tag Name,Step,Accuarcy1,...") is
that log as the repository keeps it: one line per
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
out; nothing else is changed and no run is left out.

mnist-cnn_20160811.csv (header "...,Tag Name,Iteration,Testing
Accuracy(128),Testing Accuracy(256),Testing Accuracy(512),Elapsed
Time,L1,L2,L3"; 2016-08-11/12, commit 67c852c) is a different
experiment: a grid over the filters of two convolutions L1 and L2 (2 to
1024 in powers of 2) and the units L3 of a fully connected layer (512 or
1024), one line per logging interval of 1,280 training samples, with
the accuracy on the first 128, 256 and 512 test images and the seconds
the interval took (Elapsed Time: the run's own time, where the wall
clock of the lines interleaves runs that trained at once).  Each (L1,
L2, L3) becomes one run, x = [L1, L2, L3], one point ("epoch") per
logging interval: values are 1 - the accuracy on 512 images (rounded
to 4 digits; of the three columns the one on the most images, so the
least noisy, in steps of 1/512 where 128 images give steps of 1/128;
there is no separate validation column, so the table's eval_error is
this held-out test error), epoch_s the Elapsed Time as recorded.
Points are kept in Iteration order while they follow one another
(1280, 2560, ...) and hold finite numbers; a run is cut at its first
missing, repeated or non-finite point, and the lines after it are left
out.  The runs cut and lines left out are counted in the table's
"made" and on standard error (in the log of commit 67c852c: none of
200 runs, 156 points each).  See tests/bench/LICENSE-data.md.
"""
import csv
import datetime
import math
import sys

import replay_table


def stamp(date, ms):
    t = datetime.datetime.strptime(date, "%Y-%m-%d %H:%M:%S")
    return t.replace(tzinfo=datetime.timezone.utc).timestamp() + \
        int(ms) / 1000.0


CONV = ["Tag Name", "Step", "Accuarcy1", "Accuarcy2", "Accuarcy3",
        "Elapsed Time", "L1", "L2", "L3"]
CNN = ["Tag Name", "Iteration", "Testing Accuracy(128)",
       "Testing Accuracy(256)", "Testing Accuracy(512)", "Elapsed Time",
       "L1", "L2", "L3"]


def kind_of(path):
    """mnist-conv or mnist-cnn, from the first line of path."""
    with open(path, newline="") as f:
        head = next(csv.reader(f), [])
    for name, cols in (("mnist-conv", CONV), ("mnist-cnn", CNN)):
        if head[2:] == cols:
            return name
    sys.exit("tfhpo-to-replay.py: %s: header %s is neither that of "
             "mnist-conv_filter4.csv nor of mnist-cnn_20160811.csv" %
             (path, ",".join(head[2:]) or "(none)"))


def finite(*cells):
    try:
        return all(math.isfinite(float(c)) for c in cells)
    except ValueError:
        return False


def cnn_runs_of(path):
    """The runs of mnist-cnn_20160811.csv, the runs cut and the lines
    left out."""
    lines = {}
    with open(path, newline="") as f:
        for row in csv.reader(f):
            if row[2:3] == ["Tag Name"]:
                continue
            if len(row) != 11 or not finite(*row[8:11]):
                sys.exit("tfhpo-to-replay.py: %s: line %s has no L1, L2, "
                         "L3" % (path, ",".join(row)))
            x = [float(c) for c in row[8:11]]
            lines.setdefault(tuple(x), []).append(row)
    runs, cut, left = [], 0, 0
    for x, rows in lines.items():
        rows.sort(key=lambda r: float(r[3]) if finite(r[3]) else math.inf)
        keep = 0
        while keep < len(rows) and finite(rows[keep][3], rows[keep][6],
                                          rows[keep][7]) and \
                float(rows[keep][3]) == 1280 * (keep + 1):
            keep += 1
        if keep < len(rows):
            cut += 1
            left += len(rows) - keep
        if keep == 0:
            continue
        runs.append({
            "x": list(x), "seed": 0, "status": 0, "start_s": 0,
            "epoch_s": [float(r[7]) for r in rows[:keep]],
            "values": [round(1 - float(r[6]), 4) for r in rows[:keep]]})
    return sorted(runs, key=lambda r: r["x"]), cut, left


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
    if kind_of(src) == "mnist-cnn":
        cnn(src, out)
        return
    runs = runs_of(src)
    if not runs:
        sys.exit("tfhpo-to-replay.py: no runs in " + src)
    replay_table.write(
        out, "mnist-conv", "tests/bench/tfhpo-to-replay.py from "
        "github.com/hyunghunny/tf-hpo log/mnist-conv_filter4.csv (commit "
        "f6ec544, MIT licence), MNIST CNN, H. Cho 2016",
        ["conv1_depth", "conv2_depth", "fc_depth"], runs)


def cnn(src, out):
    runs, cut, left = cnn_runs_of(src)
    if not runs:
        sys.exit("tfhpo-to-replay.py: no runs in " + src)
    points = sum(len(r["values"]) for r in runs)
    note = "%d runs, %d points, %d runs cut at a missing, repeated or " \
        "non-finite point (%d lines left out)" % (len(runs), points, cut,
                                                  left)
    print("tfhpo-to-replay.py: %s: %s" % (src, note), file=sys.stderr)
    replay_table.write(
        out, "mnist-cnn", "tests/bench/tfhpo-to-replay.py from "
        "github.com/hyunghunny/tf-hpo log/mnist-cnn_20160811.csv (commit "
        "67c852c, MIT licence), MNIST CNN grid of L1, L2, L3, H. Cho "
        "2016-08-11; eval_error = 1 - Testing Accuracy(512), one point "
        "per 1,280 samples; " + note,
        ["L1", "L2", "L3"], runs)


if __name__ == "__main__":
    main()
