"""mp-loader.py — a trainer-like job for the input-bound tests and the
advice benchmark: WORKERS processes (multiprocessing, forked) prepare
items, each taking PREP_MS (mostly waiting, as loading from disk or the
network does, with a little CPU), into a bounded queue; the main loop
takes each item and computes on it for COMPUTE_MS of CPU.  Prints "ready"
once the workers run, then "item N" every 10 items (N cumulative): the
job's own rate.  Stops after SECONDS (0: until killed); its workers die
with it.

    python3 mp-loader.py WORKERS PREP_MS COMPUTE_MS [SECONDS]
"""
import multiprocessing as mp
import os
import signal
import sys
import time


def busy(ms):
    end = time.process_time() + ms / 1000.0
    x = 0
    while time.process_time() < end:
        x += 1
    return x


def worker(q, prep_ms):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        import ctypes
        ctypes.CDLL("libc.so.6").prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass
    n = 0
    while True:
        time.sleep(prep_ms * 0.9 / 1000.0)
        busy(prep_ms * 0.1)
        q.put(n)
        n += 1


def main():
    workers, prep, compute = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3])
    seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 0
    q = mp.Queue(maxsize=4 * max(workers, 1))
    procs = [mp.Process(target=worker, args=(q, prep), daemon=True) for _ in range(workers)]
    for p in procs:
        p.start()
    print("ready", flush=True)
    t0, items = time.time(), 0
    while seconds <= 0 or time.time() - t0 < seconds:
        q.get()
        busy(compute)
        items += 1
        if items % 10 == 0:
            print("item %d" % items, flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
