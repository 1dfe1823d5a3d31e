#!/usr/bin/env python3
"""full-pipe.py CMD...: runs CMD with stdout on a pipe of one page that
nobody reads, waits (30 s at most) until CMD blocks writing to it, sends
SIGTERM and expects CMD to end within 5 s.  Prints "STATUS SECONDS";
exits non-zero with the reason otherwise (CMD is killed then)."""
import fcntl
import os
import subprocess
import sys
import time

F_SETPIPE_SZ = 1031
r, w = os.pipe()
fcntl.fcntl(w, F_SETPIPE_SZ, 4096)
p = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.DEVNULL)
os.close(w)


def blocked():
    """CMD sleeps in write(1, ...) on the full pipe."""
    try:
        if "pipe_write" in open("/proc/%d/wchan" % p.pid).read():
            return True
        return open("/proc/%d/syscall" % p.pid).read().split()[:2] == ["1", "0x1"]
    except OSError:
        return False


end = time.monotonic() + 30
while time.monotonic() < end and p.poll() is None and not blocked():
    time.sleep(0.05)
if not blocked():
    p.kill()
    sys.exit("never blocked writing to the full pipe (status %s)" % p.wait())
t = time.monotonic()
p.send_signal(15)
try:
    st = p.wait(5)
except subprocess.TimeoutExpired:
    p.kill()
    p.wait()
    sys.exit("SIGTERM not heard in 5 s while blocked writing to a full pipe")
print(st, round(time.monotonic() - t, 2))
