#!/usr/bin/env bash
# Sums a float32 mmap array file (4 GiB by default) with MmapArray and with numpy; prints GB/s.
# Usage: mmap/bench/sum.sh [FILE] [GIB]   (needs python3 with numpy; the file is deleted afterwards)
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
file="${1:-/tmp/parq-sum-benchmark.mmap}"
cd "$repo"
mvn -B -q -pl mmap test-compile
classpath=mmap/target/classes:mmap/target/test-classes
trap 'rm -f "$file"' EXIT
java -Xmx512m -cp "$classpath" dev.parq.mmap.bench.SumBenchmark create "$file" "${2:-4}"
sync
java -Xmx512m -cp "$classpath" dev.parq.mmap.bench.SumBenchmark run "$file"
