#!/usr/bin/env python3
"""parq ingest over a long run, for growth that a short one does not show: `bench/soak` calls this
file inside a private network namespace.

A writer appends lines of the benchmark corpus to app.log at a steady rate, and every ROTATE
seconds renames it app.log.1 (app.log.1 becomes app.log.2, the oldest is deleted once it is three
rotations old, long after its lines were read). parq follows 'app.log*' with its default intervals.
Once a minute it prints the JVM's RSS, its heap after a full GC (jcmd), open descriptors, threads,
the newest checkpoint's size and the state directory's, the last checkpoint's duration (Flink's
lastCheckpointDuration, through the Prometheus reporter), and the lag from a line's write to its
row being visible. After the writer stops, every line must be committed once: the committed rows
are counted against the lines written. The figures go to DATA_DIR/soak/result.json."""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import gen  # noqa: E402
import ingest  # noqa: E402

PROM_PORT = 9251
KEEP_ROTATED = 3
WARM_MIN = 5


class Writer(threading.Thread):
    """Appends whole corpus lines to app.log at `rate` lines/s and rotates it every `rotate` s;
    records (time, lines written) after each tick."""

    def __init__(self, corpus, indir, rate, rotate):
        super().__init__(daemon=True)
        self.src = ingest.LineSource(corpus)
        self.log = os.path.join(indir, "app.log")
        self.rate, self.rotate = rate, rotate
        self.records = [(time.monotonic(), 0)]
        self.running = True
        self.rotations = 0

    def run(self):
        lines = 0
        t0 = last_rotation = time.monotonic()
        out = open(self.log, "ab", buffering=0)
        while self.running:
            now = time.monotonic()
            if now - last_rotation >= self.rotate:
                out.close()
                self.rotated()
                out = open(self.log, "ab", buffering=0)
                last_rotation = now
            due = int(self.rate * (now - t0)) - lines
            if due > 0:
                data = b""
                while data.count(b"\n") < due:
                    more = self.src.take(200 * due)
                    if not more:          # the corpus ended: start it again
                        self.src = ingest.LineSource(self.src.f.name)
                        continue
                    data += more
                cut = -1
                for _ in range(due):
                    cut = data.index(b"\n", cut + 1)
                out.write(data[:cut + 1])
                lines += due
                self.records.append((time.monotonic(), lines))
            time.sleep(0.1)
        out.close()

    def rotated(self):
        oldest = f"{self.log}.{KEEP_ROTATED}"
        if os.path.exists(oldest):
            os.remove(oldest)
        for i in range(KEEP_ROTATED - 1, 0, -1):
            if os.path.exists(f"{self.log}.{i}"):
                os.rename(f"{self.log}.{i}", f"{self.log}.{i + 1}")
        os.rename(self.log, f"{self.log}.1")
        self.rotations += 1


def jvm_of(run):
    """The pid of the parq JVM under GNU time."""
    return ingest.children(run.proc.pid)[0]


def proc_status(pid):
    with open(f"/proc/{pid}/status") as f:
        text = f.read()
    rss = int(re.search(r"VmRSS:\s+(\d+)", text).group(1))
    threads = int(re.search(r"Threads:\s+(\d+)", text).group(1))
    return rss, threads, len(os.listdir(f"/proc/{pid}/fd"))


def heap_after_gc(pid):
    """MiB of the objects live right after a full GC, and their instances and bytes by class, from
    jcmd's class histogram (which makes that GC and counts what is left); None if it cannot say."""
    try:
        out = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True,
                             timeout=120, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None, None
    # Not the old generation's use read after `GC.run`: that counts what young collections promote
    # between the two commands (./parq tenures at once), MiB of noise against a leak of 0.1 MiB a minute.
    total = re.search(r"^Total\s+\d+\s+(\d+)", out, re.M)
    classes = {}
    for m in re.finditer(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", out, re.M):
        count, size = classes.get(m.group(3), (0, 0))
        classes[m.group(3)] = (count + int(m.group(1)), size + int(m.group(2)))
    return (round(int(total.group(1)) / 1048576, 1) if total else None), classes


def grown(before, after, top=10):
    """The classes whose live bytes grew the most between two histograms."""
    rows = []
    for name, (count, size) in after.items():
        was_count, was_size = before.get(name, (0, 0))
        rows.append({"class": name, "bytes": size - was_size, "instances": count - was_count})
    return sorted(rows, key=lambda r: -r["bytes"])[:top]


def checkpoint_ms():
    """Flink's lastCheckpointDuration of the job, from the Prometheus reporter; None if not there."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{PROM_PORT}/metrics", timeout=5) as r:
            text = r.read().decode()
    except OSError:
        return None
    m = re.search(r"^flink_jobmanager_job_lastCheckpointDuration\{[^}]*\}\s+([\d.eE+-]+)", text, re.M)
    return float(m.group(1)) if m else None


def dir_bytes(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(d, f))
            except OSError:
                pass
    return total


def lag_now(writer, samples):
    """Seconds from the newest write whose lines are all visible to the sample that saw them."""
    if not samples:
        return None
    t_seen, rows = samples[-1]
    written = [t for t, n in writer.records if n <= rows]
    return round(t_seen - written[-1], 1) if written else None


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/soak", description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=ingest.parse_duration, default=3600.0, help="how long to write (default 1h)")
    ap.add_argument("--rate", type=int, default=1000, help="lines per second (default 1000)")
    ap.add_argument("--rotate", type=ingest.parse_duration, default=30.0, help="rotation period (default 30s)")
    ap.add_argument("--sample", type=ingest.parse_duration, default=60.0, help="report period (default 1min)")
    ap.add_argument("--parallelism", type=int, default=2)
    ap.add_argument("--data-dir", default=bench.default_data_dir(), metavar="DIR")
    ap.add_argument("--schema", default=os.path.join(HERE, "app-logs.ddl"), metavar="FILE")
    ap.add_argument("--timeout", type=int, default=600)
    a = ap.parse_args(argv)
    corpus = gen.corpus("256m", a.data_dir)
    work = os.path.join(a.data_dir, "soak")
    shutil.rmtree(work, ignore_errors=True)
    indir = os.path.join(work, "in")
    os.makedirs(indir)
    open(os.path.join(indir, "app.log"), "wb").close()
    outdir = os.path.join(work, "out")
    argv = [bench.PARQ, "ingest", os.path.join(indir, "app.log*"), "-o", outdir, "-p", str(a.parallelism),
            *bench.schema_args(a.schema), "--no-progress",
            "-D", "metrics.reporter.prom.factory.class=org.apache.flink.metrics.prometheus.PrometheusReporterFactory",
            "-D", f"metrics.reporter.prom.port={PROM_PORT}"]
    run = ingest.Ingest(None, outdir, a, argv=argv)
    failure = run.wait_following(a.timeout)
    if failure:
        sys.exit(failure + "\n" + run.output()[-3000:])
    pid = jvm_of(run)
    writer = Writer(corpus["path"], indir, a.rate, a.rotate)
    writer.start()
    t0 = time.monotonic()
    rows = []
    histograms = {}
    print("   min  rss MiB  heap MiB  fds  threads  chk KiB  state KiB  chk ms   lag s  lines", flush=True)
    next_sample = t0 + a.sample
    while time.monotonic() - t0 < a.duration:
        run.sample()
        if run.failure():
            sys.exit(run.failure())
        if time.monotonic() >= next_sample:
            next_sample += a.sample
            rss, threads, fds = proc_status(pid)
            chk = ingest.newest_checkpoint(os.path.join(outdir, "_state"))
            minute = round((time.monotonic() - t0) / 60, 1)
            heap, classes = heap_after_gc(pid)
            if classes and minute >= WARM_MIN:
                histograms.setdefault("first", classes)
                histograms["last"] = classes
            row = {"min": minute, "rss_mib": round(rss / 1024),
                   "heap_after_gc_mib": heap, "fds": fds, "threads": threads,
                   "checkpoint_kib": round(chk[1] / 1024, 1) if chk else None,
                   "state_kib": round(dir_bytes(os.path.join(outdir, "_state")) / 1024),
                   "checkpoint_ms": checkpoint_ms(), "lag_s": lag_now(writer, run.samples),
                   "lines": writer.records[-1][1]}
            rows.append(row)
            print(f"{row['min']:6} {row['rss_mib']:8} {row['heap_after_gc_mib']!s:>9} {fds:4} {threads:8} "
                  f"{row['checkpoint_kib']!s:>8} {row['state_kib']:10} {row['checkpoint_ms']!s:>7} "
                  f"{row['lag_s']!s:>7} {row['lines']:6}", flush=True)
        time.sleep(ingest.POLL_S)
    writer.running = False
    writer.join()
    written = writer.records[-1][1]
    done = run.wait_rows(written, a.timeout)
    stopped = run.stop()
    committed = run.committed.count()
    warm = [r for r in rows if r["min"] >= WARM_MIN] or rows
    print(f"{written:,} lines written in {writer.rotations} rotations, {committed:,} rows committed"
          + ("" if committed == written else "  MISMATCH"))
    for key in ("rss_mib", "heap_after_gc_mib", "fds", "threads", "state_kib", "checkpoint_ms", "lag_s"):
        values = [r[key] for r in warm if r[key] is not None]
        if values:
            print(f"  {key:18} after {WARM_MIN} min: first {values[0]}, last {values[-1]}, min {min(values)}, "
                  f"max {max(values)}, median {statistics.median(values)}")
    heap = [(r["min"], r["heap_after_gc_mib"]) for r in warm if r["heap_after_gc_mib"] is not None]
    slope = None
    if len(heap) >= 3:
        slope = round(statistics.linear_regression(*zip(*heap)).slope * 60, 2)
        print(f"  heap after GC grows {slope} MiB an hour (least squares, after {WARM_MIN} min)")
    growth = grown(histograms["first"], histograms["last"]) if "first" in histograms else []
    if growth:
        print("  live bytes grown most, by class, since the first sample after warm-up:")
        for g in growth[:5]:
            print(f"    {g['bytes']:>10} B {g['instances']:>8}  {g['class']}")
    with open(os.path.join(work, "result.json"), "w") as f:
        json.dump({"settings": vars(a), "rows": rows, "written": written, "committed": committed,
                   "rotations": writer.rotations, "stop": stopped, "heap_mib_per_hour": slope,
                   "grown_classes": growth,
                   "caught_up": not isinstance(done, str)}, f, indent=1, default=str)
    if committed != written:
        sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
