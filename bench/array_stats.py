#!/usr/bin/env python3
"""Whole-process time of `./parq array stats FILE` against numpy's `np.memmap(...).sum()`.

Usage: bench/array-stats [--gib 4] [--pairs 5] [--file PATH] [--keep]

Writes a float32 mmap array file of GIB GiB (the 64-byte MmapArray header, then standard normal
elements from a fixed seed), reads it once so that it is in the page cache, then runs PAIRS
interleaved rounds of processes: `./parq array stats FILE`; a Python process that maps the file
with numpy and prints `.sum()` (numpy sums float32 in float32, SIMD, and takes nothing else);
and one that computes in numpy what parq prints (count, float64 sum, minimum and maximum, NaN
skipped). Each process is timed from start to exit, start-up included, Python's interpreter run
directly (not through a version manager's shim, which can add 0.3 s). Prints every round, the
medians and their ratios, and checks that parq's sum agrees with numpy's float64 sum. The file
is deleted afterwards unless --keep is given.
"""
import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PARQ = os.path.join(os.path.dirname(HERE), "parq")
NUMPY_SUM = ("import sys, numpy as np; "
             "print(np.memmap(sys.argv[1], dtype='<f4', mode='r', offset=64).sum())")
# What parq array stats computes, in numpy: count, float64 sum, minimum and maximum, NaN skipped,
# a stretch of 4 Mi elements at a time (nansum copies its input).
NUMPY_STATS = """
import sys, numpy as np
a = np.memmap(sys.argv[1], dtype='<f4', mode='r', offset=64)
count, total, lo, hi = 0, 0.0, np.inf, -np.inf
for start in range(0, a.size, 1 << 22):
    c = a[start:start + (1 << 22)]
    nan = np.count_nonzero(np.isnan(c))
    if nan < c.size:
        count += c.size - nan
        total += np.nansum(c, dtype=np.float64)
        lo = min(lo, np.nanmin(c))
        hi = max(hi, np.nanmax(c))
print(count, total, lo, hi)
"""


def write_file(path, gib):
    elements = (gib << 30) // 4
    with open(path, "wb") as f:
        f.write(struct.pack("<4sBBHQQ", b"MMAP", 1, 1, 1, elements, elements).ljust(64, b"\0"))
    array = np.memmap(path, dtype="<f4", mode="r+", offset=64, shape=(elements,))
    rng = np.random.default_rng(1)
    step = 1 << 24
    for start in range(0, elements, step):
        count = min(step, elements - start)
        array[start:start + count] = rng.standard_normal(count, dtype=np.float32)
    array.flush()
    del array


def elements_of(path):
    return (os.path.getsize(path) - 64) // 4


def timed(argv):
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit("%s failed (exit %d): %s" % (" ".join(argv), done.returncode, done.stderr.strip()))
    return elapsed, done.stdout


def main():
    parser = argparse.ArgumentParser(prog="bench/array-stats", description=__doc__.split("\n\n")[0])
    parser.add_argument("--gib", type=int, default=4, help="size of the float32 file in GiB (default 4)")
    parser.add_argument("--pairs", type=int, default=5, help="interleaved rounds of runs (default 5)")
    parser.add_argument("--file", help="where to write the file (default: the temporary directory)")
    parser.add_argument("--keep", action="store_true", help="keep the file afterwards")
    args = parser.parse_args()
    path = args.file or os.path.join(tempfile.gettempdir(), "parq-array-stats-%d.mmap" % args.gib)
    try:
        print("writing %d GiB of float32 to %s ..." % (args.gib, path), flush=True)
        write_file(path, args.gib)
        array = np.memmap(path, dtype="<f4", mode="r", offset=64)
        exact = float(array.sum(dtype=np.float64))
        del array
        timed([PARQ, "array", "stats", path])  # builds the jar if needed, warms the page cache
        parq_times, sum_times, stats_times = [], [], []
        for pair in range(args.pairs):
            parq_s, out = timed([PARQ, "array", "stats", path])
            sum_s, _ = timed([sys.executable, "-c", NUMPY_SUM, path])
            stats_s, _ = timed([sys.executable, "-c", NUMPY_STATS, path])
            parq_times.append(parq_s)
            sum_times.append(sum_s)
            stats_times.append(stats_s)
            stats = json.loads(out)
            if abs(stats["sum"] - exact) > 1e-12 * max(1.0, abs(exact)) * elements_of(path):
                sys.exit("parq's sum %r differs from numpy's float64 sum %r" % (stats["sum"], exact))
            print("round %d: parq array stats %.3f s, numpy sum %.3f s, numpy same statistics %.3f s"
                  % (pair, parq_s, sum_s, stats_s), flush=True)
        parq_median = statistics.median(parq_times)
        sum_median = statistics.median(sum_times)
        stats_median = statistics.median(stats_times)
        print("medians: parq array stats %.3f s; numpy memmap(...).sum() %.3f s (parq takes %.2fx its time);"
              " numpy same statistics %.3f s (parq takes %.2fx its time)"
              % (parq_median, sum_median, parq_median / sum_median, stats_median, parq_median / stats_median))
    finally:
        if not args.keep and os.path.exists(path):
            os.remove(path)


if __name__ == "__main__":
    main()
