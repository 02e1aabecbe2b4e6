#!/usr/bin/env bash
# Sums a 4 GiB float32 mmap array file with MmapArray and with numpy; prints GB/s for both.
# Usage: mmap/bench/sum.sh [FILE] [GIB]   (needs python3 with numpy; the file is deleted afterwards)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$repo"
mvn -B -q -pl mmap test-compile
exec java -Xmx512m -cp mmap/target/classes:mmap/target/test-classes \
    dev.parq.mmap.bench.SumBenchmark "${1:-/tmp/parq-sum-benchmark.mmap}" "${2:-4}"
