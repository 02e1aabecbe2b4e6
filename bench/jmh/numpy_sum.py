#!/usr/bin/env python3
"""numpy's side of SumBenchmark: np.memmap(...).sum() over a float32 mmap array file of GIB GiB.

Usage: python3 bench/jmh/numpy_sum.py [GIB] [FILE]   (default 4 GiB in the temporary directory)

Writes the file as SumBenchmark does (the 64-byte MmapArray header, then element i = (i % 1000) *
0.001), sums it 3 times to warm the page cache, then prints the GB/s of 3 more sums and their
median; the file is deleted afterwards.
"""
import os
import statistics
import struct
import sys
import tempfile
import time

import numpy as np


def main():
    gib = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(tempfile.gettempdir(), "parq-numpy-sum.mmap")
    elements = (gib << 30) // 4
    try:
        with open(path, "wb") as f:
            f.write(struct.pack("<4sBBHQQ", b"MMAP", 1, 1, 1, elements, elements).ljust(64, b"\0"))
        array = np.memmap(path, dtype="<f4", mode="r+", offset=64, shape=(elements,))
        step = 1 << 24
        for start in range(0, elements, step):
            count = min(step, elements - start)
            array[start:start + count] = ((np.arange(start, start + count) % 1000) * np.float32(0.001))
        array.flush()
        del array
        array = np.memmap(path, dtype="<f4", mode="r", offset=64, shape=(elements,))
        for _ in range(3):
            array.sum()
        rates = []
        for run in range(3):
            start = time.perf_counter()
            total = array.sum()
            elapsed = time.perf_counter() - start
            rates.append(array.nbytes / elapsed / 1e9)
            print("numpy run %d: sum=%.6g in %.3f s" % (run, total, elapsed), flush=True)
        print("numpy np.memmap(...).sum(): %.2f GB/s" % statistics.median(rates))
    finally:
        if os.path.exists(path):
            os.remove(path)


if __name__ == "__main__":
    main()
