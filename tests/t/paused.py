"""paused.py: what the tests that drive an hpod (or hpoctl run) stopped
at an HPOD_TEST_PAUSE point from Python share (tests/t/engine_full.sh,
reply_full.sh, reply_commit.sh, pilot_full.sh and tests/slurm/full.sh,
pilot_full.sh: their heredocs run with PYTHONPATH set to tests/t).  Standard library only."""
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


def ask_paused(path, req, pid, on_pause):
    """hpod's reply at control socket path to request req, as ask(); an
    hpod (pid) that stops at its pause point before it answers (a launch
    commit of its own, in the middle of the request) is let on, after
    on_pause() is called."""
    s = connect(path)
    try:
        s.settimeout(0.05)
        s.sendall((json.dumps(req) + "\n").encode())
        buf, deadline = b"", time.time() + 30
        while not buf.endswith(b"\n"):
            if time.time() > deadline:
                raise TimeoutError("%s: no answer to %s" % (path, req))
            if stopped(pid):
                on_pause()
                os.kill(pid, signal.SIGCONT)
            try:
                chunk = s.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                raise EOFError("%s: closed before answering" % path)
            buf += chunk
        return json.loads(buf.decode())
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

    def paused():
        nonlocal pauses
        pauses += 1

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
            # hpod may stop at its next pause while the ping waits.
            print("ping-full\t%s" % ask_paused(path, {"cmd": "ping"}, pid,
                                               paused)["ok"], flush=True)
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


def asker(path, pid, limit):
    """A function ask(name, req, write=True, between=None) on one
    connection to hpod's control socket path: it sends request req; for a
    write request it waits up to limit seconds for hpod (pid) to stop at
    before-commit, calls between() if given, and lets hpod on; then it
    prints the reply as "NAME<TAB>LINE" and returns LINE (None, and
    "NAME<TAB>not stopped at before-commit", if hpod did not stop)."""
    s = connect(path)
    f = s.makefile("rb")

    def ask(name, req, write=True, between=None):
        s.sendall((json.dumps(req) + "\n").encode())
        if write:
            for _ in range(int(limit / 0.002)):
                if stopped(pid):
                    break
                time.sleep(0.002)
            else:
                print(name + "\tnot stopped at before-commit", flush=True)
                return None
            if between:
                between()
            os.kill(pid, signal.SIGCONT)
        line = f.readline().decode().rstrip("\n")
        print(name + "\t" + line, flush=True)
        return line
    return ask


def drive_pilot_full(path, ledger, pid, specf, filler, limit):
    """Submit the pilot campaign pf (spec file specf) to the hpod (pid,
    paused at before-commit) at path; once its first trial has started,
    fill the file system of filler at a budget request of pf (2 trials),
    ping, free it, ping until hpod no longer says the ledger cannot be
    written, ping again and send that budget again.  Each wait lasts up
    to limit seconds.  The replies are printed as ask() prints them:
    submit, budget-full, ping-full, wait (each), ping, budget."""
    ask = asker(path, pid, limit)
    ask("submit", {"cmd": "submit", "spec": json.load(open(specf))})
    for _ in range(int(limit / 0.1)):
        if query(ledger, "select count(*) from attempts where started > 0")[0][0]:
            break
        time.sleep(0.1)
    ask("budget-full", {"cmd": "budget", "campaign": "pf", "max_trials": 2},
        between=lambda: fill(filler))
    ask("ping-full", {"cmd": "ping"}, write=False)
    os.unlink(filler)
    # hpod takes back what it can 2 s after the failure, then 4 s, ...
    for _ in range(int(limit / 0.2)):
        if "cannot be written" not in json.loads(
                ask("wait", {"cmd": "ping"}, write=False))["output"]:
            break
        time.sleep(0.2)
    ask("ping", {"cmd": "ping"}, write=False)
    ask("budget", {"cmd": "budget", "campaign": "pf", "max_trials": 2})
