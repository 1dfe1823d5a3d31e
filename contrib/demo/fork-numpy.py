# fork-numpy.py — a DataLoader-like job for threadlab demos: the main
# process forks WORKERS workers (default 2), and all of them multiply
# matrices with numpy on OpenBLAS, each with OpenBLAS's default pool (one
# thread per affinity CPU) unless OPENBLAS_NUM_THREADS says otherwise.
#
#   /usr/bin/python3 contrib/demo/fork-numpy.py &
#   threadlab --diagnose -p $! --tree
#   OPENBLAS_NUM_THREADS=1 /usr/bin/python3 contrib/demo/fork-numpy.py 1 &
import os
import sys

import numpy

a = numpy.ones((400, 400))
for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 2):
    if os.fork() == 0:
        break
while True:
    a @ a
