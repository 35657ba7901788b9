"""paused.py: what the tests that drive an hpod (or hpoctl run) stopped
at an HPOD_TEST_PAUSE point from Python share (tests/t/engine_full.sh,
reply_full.sh, reply_commit.sh: their heredocs run with PYTHONPATH set
to tests/t).  Standard library only."""
import json
import os
import signal
import socket
import sqlite3
import time


def state(pid):
    """The state letter of process pid (T: stopped); OSError once gone."""
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()[0]


def stopped(pid):
    """Whether process pid stopped itself (at its pause point)."""
    return state(pid) == "T"


def fill(path):
    """Write zeros to path until its file system is full: 64 KiB at a
    time, then the last bytes one by one."""
    with open(path, "wb", buffering=0) as f:
        for size in (65536, 1):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                pass


def query(ledger, q):
    """The rows of query q on ledger, opened read-only."""
    db = sqlite3.connect("file:%s?mode=ro" % ledger, uri=True)
    try:
        return db.execute(q).fetchall()
    finally:
        db.close()


def connect(path):
    """A socket connected to hpod's control socket path, tried for up to
    10 s while hpod starts."""
    for _ in range(200):
        try:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(path)
            return s
        except OSError:
            s.close()
            time.sleep(0.05)
    raise OSError("%s: hpod does not answer" % path)


def ask(path, req):
    """hpod's reply at control socket path to request req."""
    s = connect(path)
    try:
        s.settimeout(30)
        s.sendall((json.dumps(req) + "\n").encode())
        return json.loads(s.makefile("rb").readline().decode())
    finally:
        s.close()


def drive_full(path, ledger, pid, specf, filler, limit):
    """Submit the spec in file specf to the hpod (pid, paused at
    before-launch-commit) at path; let it on at each pause, fill the file
    system of filler at the third, ping hpod while it is full (3 s and at
    least 3 pings), free it, and go on until the campaign of ledger has
    finished or limit seconds have passed.  Prints what happened, one
    line each: submit OK, filled TIME, ping-full OK, freed TIME, pauses N
    (tab-separated)."""
    def finished():
        try:
            return query(ledger, "select state from campaigns") == \
                [("finished",)]
        except sqlite3.Error:
            return False

    print("submit\t" + str(ask(path, {"cmd": "submit",
                                      "spec": json.load(open(specf))})["ok"]),
          flush=True)
    pauses, pings, full_until, deadline = 0, 0, None, time.time() + limit
    while time.time() < deadline:
        if stopped(pid):
            pauses += 1
            if pauses == 3:
                fill(filler)
                full_until = time.time() + 3
                print("filled\t%.3f" % time.time(), flush=True)
            os.kill(pid, signal.SIGCONT)
            continue
        if full_until is not None:
            print("ping-full\t%s" % ask(path, {"cmd": "ping"})["ok"],
                  flush=True)
            pings += 1
            if time.time() >= full_until and pings >= 3:
                os.unlink(filler)
                full_until = None
                print("freed\t%.3f" % time.time(), flush=True)
            time.sleep(0.5)
            continue
        if finished():
            break
        time.sleep(0.01)
    print("pauses\t%d" % pauses, flush=True)
