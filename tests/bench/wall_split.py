#!/usr/bin/python3
"""wall_split.py: where the wall time to target goes, from the ledgers of
replayed campaigns (bench-search.sh with LEDGERS=DIR keeps one per seed).

    wall_split.py TABLE TARGET P LEDGER...

Standard library only (search_bound.py's table lookup).  Each LEDGER
holds one `hpoctl run` campaign of P trials at once on the replay TABLE
with that TARGET.  Per seed that met the target, with t0 the first
attempt's start and ts the first point on target (the cost is counted up
to ts, as bench-search.sh counts it):

- wall: ts - t0; the winner: the trial whose point met the target at ts
  (the lowest number of equal ones); its start (when it was started,
  from t0) and its own time (ts - its start); whether it was one of the
  first wave (trial numbers below P, all made before any result);
- GPU-seconds up to ts by what became of each attempt: stopped by the
  search's stopper (and at which epoch), played out without meeting the
  target, or still running at ts (the winner among them);
- GPU-seconds of attempts that replay the same recorded configuration of
  the table (search_bound.Table.nearest, as the replay backend looks it
  up) as an attempt still running when it started, or as one that had
  ended by then;
- seeds whose first wave held a configuration that reaches the target
  (in some recorded run) while no first-wave trial did: that trial was
  stopped.

Prints medians over the seeds and shares of the GPU-seconds of all
seeds.
"""
import json
import os
import sqlite3
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from search_bound import Table  # noqa: E402


def die(msg):
    sys.exit("wall_split.py: " + msg)


def seed_split(table, p, path):
    """One ledger's figures, or None when no trial met the target."""
    try:
        db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
        ts = db.execute("select min(reached_at) from trials "
                        "where reached = 1").fetchone()[0]
    except sqlite3.Error as e:
        die("%s: %s" % (path, e))
    if ts is None:
        return None
    t0 = db.execute("select min(started) from attempts "
                    "where started > 0").fetchone()[0]
    rows = db.execute(
        "select t.number, t.state, t.reached, t.reached_at, t.params_json,"
        " a.id, a.started, a.ended, a.gpus from trials t join attempts a"
        " on a.trial_id = t.id where a.started > 0"
        " order by a.started, t.number").fetchall()
    r = {"wall": ts - t0, "cost": 0.0, "stopped": 0.0, "played": 0.0,
         "running": 0.0, "stopped_late": 0.0, "dup_running": 0.0, "dup_ended": 0.0,
         "stop_epochs": [], "wave_reach": False, "wave_met": False}
    seen = []
    win = None
    for num, state, reached, rat, pj, aid, start, end, gpus in rows:
        if start > ts:
            continue
        params = json.loads(pj)
        try:
            cfg = table.nearest([params[n] for n in table.names])
        except KeyError as e:
            die("%s: trial %d has no parameter %s" % (path, num, e))
        ended = end is not None and end > 0 and end < ts
        c = max(0.0, (end if ended else ts) - start) * gpus
        r["cost"] += c
        if ended and state == "pruned":
            r["stopped"] += c
            ep = db.execute("select max(step) from metrics where "
                            "attempt_id = ? and time <= ?",
                            (aid, ts)).fetchone()[0]
            r["stop_epochs"].append(int(ep or 0))
            if (ep or 0) > 10:
                r["stopped_late"] += c
        elif ended:
            r["played"] += c
        else:
            r["running"] += c
        if any(c2 == cfg and e2 > start for c2, e2 in seen):
            r["dup_running"] += c
        elif any(c2 == cfg for c2, e2 in seen):
            r["dup_ended"] += c
        seen.append((cfg, end if ended else ts + 1))
        if reached and rat == ts and (win is None or num < win[0]):
            win = (num, start)
        if num < p:
            if min(s["ttt"] for s in table.configs[cfg]["runs"]) < \
                    float("inf"):
                r["wave_reach"] = True
            if reached:
                r["wave_met"] = True
    r["winner_start"] = win[1] - t0
    r["winner_own"] = ts - win[1]
    r["winner_wave"] = win[0] < p
    return r


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    path, target, p = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
    table = Table(path, target)
    all_r = [seed_split(table, p, f) for f in sys.argv[4:]]
    rs = [r for r in all_r if r is not None]
    if not rs:
        die("no ledger's campaign met the target")
    med = lambda k: statistics.median(r[k] for r in rs)  # noqa: E731
    tot = sum(r["cost"] for r in rs)
    share = lambda k: sum(r[k] for r in rs) / tot  # noqa: E731
    wave = [r for r in rs if r["winner_wave"]]
    later = [r for r in rs if not r["winner_wave"]]
    print("seeds that met the target: %d of %d" % (len(rs), len(all_r)))
    print("GPU-hours to target, median %.4g; wall to target, median %.4g s"
          " (GPU-seconds / wall, median %.2f)"
          % (med("cost") / 3600, med("wall"),
             statistics.median(r["cost"] / r["wall"] for r in rs)))
    print("winner started at, median %.4g s; its own time to target, "
          "median %.4g s" % (med("winner_start"), med("winner_own")))
    for name, sub in (("first wave", wave), ("later", later)):
        if sub:
            print("winner from the %s: %d seeds; wall median %.4g s, "
                  "winner started at %.4g s, its own time %.4g s"
                  % (name, len(sub),
                     statistics.median(r["wall"] for r in sub),
                     statistics.median(r["winner_start"] for r in sub),
                     statistics.median(r["winner_own"] for r in sub)))
    print("GPU-seconds: stopped %.2f (after epoch 10: %.2f), played out "
          "%.2f, running at the target (winner included) %.2f"
          % (share("stopped"), share("stopped_late"), share("played"),
             share("running")))
    eps = sorted(e for r in rs for e in r["stop_epochs"])
    if eps:
        print("stopped trials: %d, at epoch median %g; share stopped by "
              "epoch 3: %.2f, after epoch 10: %.2f"
              % (len(eps), statistics.median(eps),
                 sum(e <= 3 for e in eps) / len(eps),
                 sum(e > 10 for e in eps) / len(eps)))
    print("GPU-seconds replaying a configuration still running: %.2f; "
          "one ended: %.2f" % (share("dup_running"), share("dup_ended")))
    lost = sum(r["wave_reach"] and not r["wave_met"] for r in rs)
    print("first waves holding a configuration that reaches the target: "
          "%d; of them no first-wave trial met it: %d"
          % (sum(r["wave_reach"] for r in rs), lost))


if __name__ == "__main__":
    main()
