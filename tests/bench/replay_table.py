"""replay_table.py: write a replay table of hpod (format hpod-replay-1)
as the converters of published learning curves (lcnet-to-replay.py,
tfhpo-to-replay.py) write it, one run a line.  Standard library only."""
import json


def write(out, workload, made, names, runs):
    """Write the table of workload to the file out: made says where it
    comes from, names are its parameters (each on a log scale), runs its
    runs ({"x": [...], "seed", "status", "start_s", "epoch_s": [...],
    "values": [...]}), under the metric eval_error, goal min."""
    with open(out, "w") as f:
        f.write('{"format": "hpod-replay-1", "workload": "%s",\n' %
                workload)
        f.write(' "metric": "eval_error", "goal": "min",\n')
        f.write(' "made": %s,\n' % json.dumps(made))
        f.write(' "params": [%s],\n' % ", ".join(
            '{"name": "%s", "scale": "log"}' % n for n in names))
        f.write(' "fixed": {},\n "runs": [\n')
        f.write(",\n".join("  " + json.dumps(r) for r in runs))
        f.write("\n]}\n")
