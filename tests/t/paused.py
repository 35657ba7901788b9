"""paused.py: what the tests that drive an hpod (or hpoctl run) stopped
at an HPOD_TEST_PAUSE point from Python share (tests/t/engine_full.sh,
reply_full.sh, reply_commit.sh: their heredocs run with PYTHONPATH set
to tests/t).  Standard library only."""
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
