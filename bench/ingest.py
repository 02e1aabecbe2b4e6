#!/usr/bin/env python3
"""Benchmarks of `parq ingest`; bench/ingest calls this file. See bench/README.md, "Ingest".

catchup   a large file already there, ingested against `parq convert` of the same file
tailing   N files appended at a steady rate: commit lag, CPU per MB against convert's
rss200    peak RSS while 200 files are appended to
state10k  10,000 small files created, committed and deleted in batches: checkpoint size
"""
import argparse
import glob
import math
import multiprocessing
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import gen  # noqa: E402
from bench import log  # noqa: E402

SCENARIOS = ["catchup", "tailing", "rss200", "state10k"]
MB = 1e6                   # MB/s are decimal, as in bench/run
POLL_S = 0.5               # committed rows are sampled this often
WRITER_TICK_S = 0.1        # the writer appends what is due this often
STOP_TIMEOUT_S = 300       # SIGTERM waits for a savepoint; past this the tree is killed
CATCHUP_TARGET = 0.80      # ingest's MB/s against convert's
RSS_TARGET_KIB = 1 << 20   # 1 GiB
STATE_TARGET_BYTES = 64 << 10


# ---------------------------------------------------------------------------------------------
# parq ingest as a measured process

def parse_duration(s):
    """Seconds in a duration as parq reads it (Flink's TimeUtils: 10s, 500ms, 2min; a bare number is ms)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(ms|s|sec|m|min|h|d)?\s*", s.lower())
    if not m:
        raise argparse.ArgumentTypeError(f"not a duration: {s} (write it like 10s, 500ms, 2min)")
    unit = {"ms": 1e-3, None: 1e-3, "s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "d": 86400}[m.group(2)]
    return float(m.group(1)) * unit


class CommittedRows:
    """Rows in the committed Parquet files of an output directory. A committed file never changes, so
    each footer is read once."""

    def __init__(self, outdir):
        self.outdir = outdir
        self.rows = {}

    def count(self):
        import pyarrow.parquet as pq
        for f in bench.parquet_files(self.outdir):
            if f not in self.rows:
                self.rows[f] = pq.ParquetFile(f).metadata.num_rows
        return sum(self.rows.values())


class Ingest:
    """`parq ingest` under GNU time, its stdout and stderr in OUT.log, its committed rows sampled."""

    def __init__(self, paths, outdir, a, argv=None):
        """Follows `paths` into outdir with a's settings; or runs `argv` as it is, into outdir."""
        shutil.rmtree(outdir, ignore_errors=True)
        self.outdir = outdir
        self.logfile = outdir + ".log"
        self.tfile = outdir + ".time"
        if argv is None:
            argv = [bench.PARQ, "ingest", *paths, "-o", outdir, "-p", str(a.parallelism),
                    "--checkpoint-interval", a.checkpoint_interval, *bench.schema_args(a.schema)]
            if a.discover_interval:
                argv += ["--discover-interval", a.discover_interval]
            if a.compaction_interval:
                argv += ["--compaction-interval", a.compaction_interval]
        self.argv = argv
        self.committed = CommittedRows(outdir)
        self.samples = []           # (monotonic time, committed rows)
        with open(self.logfile, "w") as out:
            self.t0 = time.monotonic()
            self.proc = bench.start_timed(argv, dict(os.environ), self.tfile, stdout=out,
                                          stderr=subprocess.STDOUT)

    def output(self):
        with open(self.logfile, encoding="utf-8", errors="replace") as f:
            return f.read()

    def failure(self):
        """'failed: ...' if the process has ended (ingest only ends when stopped), else None."""
        if self.proc.poll() is None:
            return None
        return f"failed (exit {self.proc.returncode}): " + bench.first_error_line(self.output())

    def wait_following(self, timeout):
        """Until parq says it follows its inputs, i.e. its job runs: what is written before that
        would count the start-up as lag."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if "parq: following" in self.output():
                return None
            if self.failure():
                return self.failure()
            time.sleep(0.1)
        return f"failed: not following after {timeout} s"

    def sample(self):
        rows = self.committed.count()
        self.samples.append((time.monotonic(), rows))
        return rows

    def wait_rows(self, rows, timeout):
        """Samples until at least `rows` are committed: the time they were seen, or 'failed: ...'."""
        end = time.monotonic() + timeout
        while True:
            if self.sample() >= rows:
                return self.samples[-1][0]
            if self.failure():
                return self.failure()
            if time.monotonic() > end:
                return f"failed: {self.samples[-1][1]:,} of {rows:,} rows committed after {timeout} s"
            time.sleep(POLL_S)

    def stop(self):
        """SIGTERM to the JVM, GNU time's child: time itself would die of it without passing it on.
        Returns the process figures: exit status, seconds to stop (the savepoint), CPU, peak RSS."""
        t = time.monotonic()
        if self.proc.poll() is None:
            for pid in children(self.proc.pid):
                os.kill(pid, signal.SIGTERM)
            try:
                self.proc.wait(STOP_TIMEOUT_S)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        r = {"rc": self.proc.returncode, "stop_s": round(time.monotonic() - t, 2),
             "lifetime_s": round(time.monotonic() - self.t0, 2), **bench.time_stats(self.tfile)}
        if r["rc"] != 0:
            r["error"] = f"stop: exit {r['rc']}: " + bench.first_error_line(self.output())
        return r


def children(pid):
    with open(f"/proc/{pid}/task/{pid}/children") as f:
        return [int(c) for c in f.read().split()]


def newest_checkpoint(state_dir):
    """(number, bytes of its _metadata) of the newest complete checkpoint, or None."""
    best = None
    for p in glob.glob(os.path.join(state_dir, "checkpoints", "*", "chk-*", "_metadata")):
        try:
            n = int(os.path.basename(os.path.dirname(p))[len("chk-"):])
            found = (n, os.path.getsize(p))
        except (ValueError, OSError):    # Flink removes the older ones as new ones complete
            continue
        best = max(best, found) if best else found
    return best


# ---------------------------------------------------------------------------------------------
# the writer

class LineSource:
    """Whole lines of a file, taken in chunks of about a given size."""

    BLOCK = 4 << 20

    def __init__(self, path):
        self.f = open(path, "rb")
        self.buf = b""
        self.pos = 0

    def take(self, n):
        """About n bytes of whole lines, at least one; b"" at the end of the file."""
        while len(self.buf) - self.pos <= n or self.buf.find(b"\n", self.pos) < 0:
            block = self.f.read(self.BLOCK)
            if not block:
                break
            self.buf = self.buf[self.pos:] + block
            self.pos = 0
        end = self.buf.rfind(b"\n", self.pos, self.pos + n)
        if end < 0:
            end = self.buf.find(b"\n", self.pos)
        if end < 0:
            return b""
        chunk = self.buf[self.pos:end + 1]
        self.pos = end + 1
        return chunk


def append_lines(source_path, paths, bytes_per_s, duration_s, conn):
    """The writer process: appends whole lines of source_path to the files in turn, bytes_per_s in
    all, for duration_s (or until the source ends). Sends (time, lines, bytes) written so far after
    every tick; the lines are in the files by then (unbuffered writes)."""
    src = LineSource(source_path)
    files = [open(p, "ab", buffering=0) for p in paths]
    chunk = max(1, int(bytes_per_s * WRITER_TICK_S / len(files)))
    written = lines = turn = 0
    records = []
    t0 = time.monotonic()
    ended = False
    while not ended and time.monotonic() - t0 < duration_s:
        tick = time.monotonic()
        due = bytes_per_s * (tick - t0) - written
        while due > 0:
            data = src.take(chunk)
            if not data:
                ended = True
                break
            files[turn % len(files)].write(data)
            turn += 1
            written += len(data)
            lines += data.count(b"\n")
            due -= len(data)
        records.append((time.monotonic(), lines, written))
        time.sleep(max(0.0, WRITER_TICK_S - (time.monotonic() - tick)))
    for f in files:
        f.close()
    conn.send({"t0": t0, "records": records})
    conn.close()


def lags(records, samples):
    """For each writer record (t, lines): seconds from t until the committed rows first reached
    lines, or None if they never did. The two totals stand for all files, so this is the lag of a
    line as if files were committed in the order their lines were written."""
    out = []
    j = 0
    for t, n, _ in records:
        while j < len(samples) and samples[j][1] < n:
            j += 1
        out.append(max(0.0, samples[j][0] - t) if j < len(samples) else None)
    return out


def follow(a, name, n_files, rate_mb, duration_s):
    """Ingest following n_files while the writer appends rate_mb MB/s to them for duration_s, then
    until all is committed. The ingest figures, the writer's and the lags."""
    nbytes = int(rate_mb * MB * duration_s)
    source = gen.corpus(f"{math.ceil(nbytes / 2**20)}m", a.data_dir, a.seed, log=log)
    indir = os.path.join(a.work, name, "in")
    shutil.rmtree(indir, ignore_errors=True)
    os.makedirs(indir)
    paths = [os.path.join(indir, f"app-{i:03d}.log") for i in range(n_files)]
    for p in paths:
        open(p, "wb").close()
    ing = Ingest([os.path.join(indir, "*.log")], os.path.join(a.work, name, "out"), a)
    r = {"files": n_files, "rate_mb_per_s": rate_mb, "duration_s": duration_s, "indir": indir}
    failure = ing.wait_following(a.timeout)
    if not failure:
        log(f"{name}: writing {rate_mb} MB/s to {n_files} files for {duration_s} s ...")
        here, there = multiprocessing.Pipe(duplex=False)
        writer = multiprocessing.get_context("fork").Process(
            target=append_lines, args=(source["path"], paths, rate_mb * MB, duration_s, there))
        writer.start()
        while not here.poll(POLL_S):
            ing.sample()
        w = here.recv()
        writer.join()
        records = w["records"]
        lines, written = records[-1][1:] if records else (0, 0)
        r.update({"lines": lines, "bytes": written,
                  "writer_mb_per_s": round(written / MB / (records[-1][0] - w["t0"]), 2) if records else 0})
        done = ing.wait_rows(lines, a.timeout)
        failure = done if isinstance(done, str) else None
        lag = [x for x in lags(records, ing.samples) if x is not None]
        r["unresolved_ticks"] = len(records) - len(lag)
        if lag:
            r.update({"lag_max_s": round(max(lag), 2), "lag_median_s": round(statistics.median(lag), 2)})
        r["writer_records"] = since(ing.t0, records)
        r["commit_samples"] = since(ing.t0, ing.samples)
    r["ingest"] = ing.stop()
    r["ingest"]["rows"] = ing.committed.count()
    if failure:
        r["error"] = failure
    return r


# ---------------------------------------------------------------------------------------------
# scenarios

def catchup(a):
    corpus = gen.corpus(a.size, a.data_dir, a.seed, log=log)
    r = {"bytes": corpus["bytes"], "lines": corpus["lines"]}
    bench.warm(corpus["path"])
    log(f"catchup: parq convert {os.path.basename(corpus['path'])} ...")
    r["convert"] = bench.run_once("parq", a.parallelism, corpus, os.path.join(a.work, "catchup", "convert"),
                                  a.schema, a.timeout)
    bench.warm(corpus["path"])
    log("catchup: parq ingest of the same file, until all its rows are committed ...")
    ing = Ingest([corpus["path"]], os.path.join(a.work, "catchup", "ingest"), a)
    done = ing.wait_rows(corpus["lines"], a.timeout)
    r["ingest"] = ing.stop()
    r["ingest"]["rows"] = ing.committed.count()
    if isinstance(done, str):
        r["ingest"]["error"] = done
    else:
        r["ingest"]["wall_s"] = round(done - ing.t0, 3)
    r["commit_samples"] = since(ing.t0, ing.samples)
    return r


def since(t0, curve):
    """A curve of (time, ...) points with times in seconds since t0, for the results file."""
    return [(round(t - t0, 3), *rest) for t, *rest in curve]


def tailing(a):
    r = follow(a, "tailing", a.files, a.rate, a.duration)
    if "lines" in r:
        # the same bytes, in the same files, converted in one go
        tailed = {"path": r["indir"], "lines": r["lines"]}
        log("tailing: parq convert of the tailed files ...")
        r["convert"] = bench.run_once("parq", a.parallelism, tailed, os.path.join(a.work, "tailing", "convert"),
                                      a.schema, a.timeout)
    return r


def rss200(a):
    return follow(a, "rss200", a.rss_files, a.rss_rate, a.rss_duration)


def state10k(a):
    """Batches of small files: each created, committed, then deleted; the newest checkpoint's size
    after each batch is committed and once the enumerator has seen the last deletion."""
    per_file = gen.parse_size(a.state_file_size)
    need = a.state_batches * a.state_files * per_file
    source = LineSource(gen.corpus(f"{math.ceil(need * 1.1 / 2**20)}m", a.data_dir, a.seed, log=log)["path"])
    indir = os.path.join(a.work, "state10k", "in")
    shutil.rmtree(indir, ignore_errors=True)
    os.makedirs(indir)
    ing = Ingest([os.path.join(indir, "*.log")], os.path.join(a.work, "state10k", "out"), a)
    state_dir = os.path.join(ing.outdir, "_state")
    r = {"batches": [], "files": a.state_batches * a.state_files}
    failure = ing.wait_following(a.timeout)
    expected = written = 0
    for b in range(a.state_batches if not failure else 0):
        batch = [os.path.join(indir, f"b{b:03d}-{i:05d}.log") for i in range(a.state_files)]
        t = time.monotonic()
        for p in batch:
            # distinct lines in every file: a reused inode with the same first bytes would be taken
            # for the deleted file
            data = source.take(per_file)
            with open(p, "wb") as f:
                f.write(data)
            expected += data.count(b"\n")
            written += len(data)
        done = ing.wait_rows(expected, a.timeout)
        if isinstance(done, str):
            failure = done
            break
        chk = newest_checkpoint(state_dir)
        r["batches"].append({"batch": b, "commit_s": round(done - t, 2), "checkpoint": chk})
        log(f"state10k: batch {b + 1}/{a.state_batches} committed in {done - t:.1f} s, "
            f"newest checkpoint {chk}")
        for p in batch:
            os.remove(p)
    if not failure:
        # the checkpoint after next: the next one may have been taken before the deletions were seen
        n0 = (newest_checkpoint(state_dir) or (0, 0))[0]
        end = time.monotonic() + a.timeout
        while (newest_checkpoint(state_dir) or (0, 0))[0] < n0 + 2 and not ing.failure() and time.monotonic() < end:
            time.sleep(POLL_S)
        chk = newest_checkpoint(state_dir)
        if chk and chk[0] >= n0 + 2:
            r["final_checkpoint"] = chk
        else:
            failure = ing.failure() or f"failed: no checkpoint after the last deletion in {a.timeout} s"
    r.update(lines=expected, bytes=written)
    seen = [x["checkpoint"] for x in r["batches"]] + [r.get("final_checkpoint")]
    r["peak_metadata_bytes"] = max([c[1] for c in seen if c], default=0)
    r["ingest"] = ing.stop()
    r["ingest"]["rows"] = ing.committed.count()
    if failure:
        r["error"] = failure
    return r


RUNNERS = {"catchup": catchup, "tailing": tailing, "rss200": rss200, "state10k": state10k}


# ---------------------------------------------------------------------------------------------
# report

def fmt(x, spec, none="-"):
    return none if x is None else format(x, spec)


def run_row(label, p, nbytes, lines, throughput=False):
    """A row of the runs table for one process's figures p (bench.run_once's or Ingest.stop's)."""
    if "rows" not in p:            # run_once counts no rows of a failed conversion
        return [label, f"{nbytes / MB:.1f}", "-", "-", "-", "-", "-", p.get("error", "failed")]
    wall = p.get("wall_s")
    cpu = p.get("cpu_s")
    rows = p.get("rows")
    ok = "yes" if rows == lines else f"MISMATCH {rows} != {lines}"
    if p.get("error"):
        ok += f" ({p['error']})"
    return [label, f"{nbytes / MB:.1f}", fmt(wall if throughput else p.get("lifetime_s", wall), ".2f"),
            fmt(nbytes / MB / wall if throughput and wall else None, ".1f"), fmt(cpu, ".1f"),
            fmt(cpu * 1000 / (nbytes / MB) if cpu and nbytes else None, ".1f"),
            fmt(p["peak_rss_kib"] / 1024 if p.get("peak_rss_kib") else None, ".0f"), ok]


def verdict(ok):
    return "-" if ok is None else ("ok" if ok else "MISSED")


def report(results, a):
    """The runs table, then the figures against their targets; returns True if every target was met."""
    runs, figures = [], []
    ci_s = parse_duration(a.checkpoint_interval)
    met = True

    def figure(scenario, what, value, target, ratio, ok):
        nonlocal met
        met = met and ok is not False
        figures.append([scenario, what, value, target, fmt(ratio, ".2f"), verdict(ok)])

    for name, r in results.items():
        if "crash" in r:
            figure(name, "run", "-", "-", None, False)
            runs.append([name, "-", "-", "-", "-", "-", "-", r["crash"]])
            continue
        if name == "catchup":
            c, i = r["convert"], r["ingest"]
            runs.append(run_row("catchup convert", c, r["bytes"], r["lines"], throughput=True))
            runs.append(run_row("catchup ingest", i, r["bytes"], r["lines"], throughput=True))
            both = c["rc"] == 0 and "wall_s" in i
            ratio = c["wall_s"] / i["wall_s"] if both else None
            figure(name, "ingest MB/s / convert MB/s", fmt(r["bytes"] / MB / i["wall_s"] if both else None, ".1f"),
                   f">= {CATCHUP_TARGET:.2f} x {r['bytes'] / MB / c['wall_s']:.1f}" if c["rc"] == 0 else "-",
                   ratio, ratio >= CATCHUP_TARGET if both else False)
            if both and c.get("cpu_s") and i.get("cpu_s"):
                figure(name, "ingest CPU s / convert CPU s", f"{i['cpu_s']:.1f}", f"{c['cpu_s']:.1f}",
                       i["cpu_s"] / c["cpu_s"], None)
            continue
        i = r["ingest"]
        nbytes = r.get("bytes", 0)
        label = f"{name} ingest ({r['files']} files)"
        runs.append(run_row(label, i, nbytes, r.get("lines")))
        if name == "state10k":
            fin = r.get("final_checkpoint")
            figure(name, "newest _metadata after all deleted, KiB", fmt(fin[1] / 1024 if fin else None, ".1f"),
                   f"<= {STATE_TARGET_BYTES >> 10}", fin[1] / STATE_TARGET_BYTES if fin else None,
                   fin[1] <= STATE_TARGET_BYTES if fin else False)
            figure(name, "largest _metadata seen, KiB", f"{r['peak_metadata_bytes'] / 1024:.1f}",
                   f"<= {STATE_TARGET_BYTES >> 10}", r["peak_metadata_bytes"] / STATE_TARGET_BYTES, None)
            if r["batches"]:
                figure(name, "median s to commit a batch", f"{statistics.median(b['commit_s'] for b in r['batches']):.1f}",
                       "-", None, None)
            continue
        lag_ok = None
        if "lag_max_s" in r:
            lag_ok = r["lag_max_s"] <= 2 * ci_s and not r["unresolved_ticks"]
            unresolved = f" ({r['unresolved_ticks']} ticks never committed)" if r["unresolved_ticks"] else ""
            figure(name, "max lag s" + unresolved, f"{r['lag_max_s']:.1f}", f"<= {2 * ci_s:g}",
                   r["lag_max_s"] / (2 * ci_s), lag_ok if name == "tailing" else None)
            figure(name, "median lag s", f"{r['lag_median_s']:.1f}", f"<= {2 * ci_s:g}",
                   r["lag_median_s"] / (2 * ci_s), None)
        if "writer_mb_per_s" in r:
            figure(name, "writer MB/s", f"{r['writer_mb_per_s']:.1f}", f"{r['rate_mb_per_s']:g}",
                   r["writer_mb_per_s"] / r["rate_mb_per_s"], None)
        if name == "rss200":
            rss = i.get("peak_rss_kib")
            figure(name, "ingest peak RSS MiB", fmt(rss / 1024 if rss else None, ".0f"), f"<= {RSS_TARGET_KIB >> 10}",
                   rss / RSS_TARGET_KIB if rss else None, rss <= RSS_TARGET_KIB if rss else False)
        if name == "tailing" and "convert" in r:
            c = r["convert"]
            runs.append(run_row("tailing convert (same bytes)", c, nbytes, r["lines"], throughput=True))
            if c["rc"] == 0 and c.get("cpu_s") and i.get("cpu_s") and nbytes:
                per = lambda p: p["cpu_s"] * 1000 / (nbytes / MB)   # noqa: E731
                figure(name, "ingest CPU ms/MB / convert CPU ms/MB", f"{per(i):.1f}", f"{per(c):.1f}",
                       i["cpu_s"] / c["cpu_s"], None)
        if r.get("error"):
            figure(name, "run", r["error"], "-", None, False)
    print()
    bench.print_rows(["run", "MB", "wall s", "MB/s", "CPU s", "CPU ms/MB", "peak RSS MiB", "rows ok"], runs)
    print()
    bench.print_rows(["scenario", "figure", "value", "target", "ratio", "verdict"], figures, left=(0, 1, 5))
    return met


# ---------------------------------------------------------------------------------------------
# command

def parse_scenarios(s):
    chosen = [x.strip() for x in s.split(",") if x.strip()]
    bad = [x for x in chosen if x not in SCENARIOS]
    if bad or not chosen:
        raise argparse.ArgumentTypeError(f"unknown scenario(s) {bad}; choose from {','.join(SCENARIOS)}")
    return [x for x in SCENARIOS if x in chosen]


def duration(s):
    """A duration for parq, checked here so that a typo fails before anything runs."""
    parse_duration(s)
    return s


def positive(kind):
    def parse(s):
        v = kind(s)
        if v <= 0:
            raise argparse.ArgumentTypeError(f"must be > 0: {s}")
        return v
    return parse


def main(argv):
    ncpu = os.cpu_count() or 1
    ap = argparse.ArgumentParser(
        prog="bench/ingest",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Benchmarks of `parq ingest` (continuous NDJSON -> Parquet), each against a target, "
                    "in one run.\nSee bench/README.md, section \"Ingest\".",
        epilog=f"""scenarios:
  catchup   ingest of a corpus file already there (--size), timed from start until all its rows
            are committed, against `parq convert` of the same file: MB/s ratio >= {CATCHUP_TARGET:.2f}
  tailing   --files files appended at --rate MB/s in all for --duration s: max commit lag
            <= 2 x --checkpoint-interval; ingest's CPU per MB against convert's of the same bytes
  rss200    --rss-files files appended at --rss-rate MB/s for --rss-duration s: peak RSS <= 1 GiB
  state10k  --state-batches x --state-files files of --state-file-size, each batch created,
            committed, then deleted: the newest checkpoint's _metadata <= 64 KiB at the end

Committed rows are counted every {POLL_S} s from the footers of the visible *.parquet files; ingest
is stopped with SIGTERM (a savepoint) once the scenario is done. Every run is under GNU time.

output:
  a runs table and a table of figures against targets on stdout, and
  bench/work/ingest-SCENARIOS-TIMESTAMP.json with every figure, the writer's and the commit
  curves. Exit status 0 if every target was met, 1 otherwise.

""" + bench.ENVIRONMENT_HELP)
    ap.add_argument("--scenario", type=parse_scenarios, default=SCENARIOS, metavar="LIST",
                    help=f"comma-separated subset of {','.join(SCENARIOS)} (default all)")
    ap.add_argument("-p", "--parallelism", type=positive(int), default=ncpu,
                    help=f"parq -p for ingest and convert alike (default {ncpu}: all cores)")
    ap.add_argument("--schema", default=os.path.join(HERE, "app-logs.ddl"), metavar="FILE",
                    help="the parq schema for ingest and convert alike (default bench/app-logs.ddl)")
    ap.add_argument("--checkpoint-interval", type=duration, default="10s", metavar="DURATION",
                    help="ingest --checkpoint-interval in every scenario (default 10s)")
    ap.add_argument("--discover-interval", type=duration, metavar="DURATION",
                    help="ingest --discover-interval (default: parq's, 1s)")
    ap.add_argument("--compaction-interval", type=duration, metavar="DURATION",
                    help="ingest --compaction-interval (default: parq's, 1min): rows are visible once compacted,"
                         " so a catch-up's last rows wait for it")
    ap.add_argument("--size", default="1g", help="catchup: corpus size, binary units (default 1g)")
    ap.add_argument("--files", type=positive(int), default=20, help="tailing: files appended to (default 20)")
    ap.add_argument("--rate", type=positive(float), default=20.0, metavar="MB_PER_S",
                    help="tailing: MB/s appended, all files together (default 20)")
    ap.add_argument("--duration", type=positive(float), default=60.0, metavar="S",
                    help="tailing: seconds of appending (default 60)")
    ap.add_argument("--rss-files", type=positive(int), default=200, help="rss200: files appended to (default 200)")
    ap.add_argument("--rss-rate", type=positive(float), default=1.0, metavar="MB_PER_S",
                    help="rss200: MB/s appended, all files together (default 1)")
    ap.add_argument("--rss-duration", type=positive(float), default=60.0, metavar="S",
                    help="rss200: seconds of appending (default 60)")
    ap.add_argument("--state-batches", type=positive(int), default=10, help="state10k: batches (default 10)")
    ap.add_argument("--state-files", type=positive(int), default=1000, help="state10k: files per batch (default 1000)")
    ap.add_argument("--state-file-size", default="4k", metavar="SIZE",
                    help="state10k: bytes per file, whole lines (default 4k)")
    ap.add_argument("--data-dir", default=bench.default_data_dir(), metavar="DIR",
                    help="corpus cache and scenario files (default $PARQ_BENCH_DATA or bench/work/data)")
    ap.add_argument("--keep", action="store_true", help="keep the scenario files under DIR/ingest/ (default: deleted)")
    ap.add_argument("--seed", type=int, default=gen.DEFAULT_SEED, help=f"corpus seed (default {gen.DEFAULT_SEED})")
    ap.add_argument("--timeout", type=positive(int), default=3600,
                    help="seconds any one wait (a conversion, a commit) may take (default 3600)")
    a = ap.parse_args(argv)
    a.schema = os.path.abspath(a.schema)
    if not os.path.isfile(a.schema):
        ap.error(f"--schema: no such file: {a.schema}")
    bench.require_time("bench/ingest")

    load_start = bench.load_at_start()
    bench.ensure_python_packages(["pyarrow"])
    a.data_dir = os.path.abspath(a.data_dir)
    a.work = os.path.join(a.data_dir, "ingest")
    failure = bench.prepare_parq(a.data_dir, a.seed)
    if failure:
        print(f"parq {failure}")
        return 1
    results = {}
    try:
        for name in a.scenario:
            try:
                results[name] = RUNNERS[name](a)
            except Exception as e:  # noqa: BLE001 -- one scenario failing leaves the others to run
                log(f"{name}: {type(e).__name__}: {e}")
                results[name] = {"crash": f"{type(e).__name__}: {e}"}
    finally:
        if not a.keep:
            shutil.rmtree(a.work, ignore_errors=True)

    print()
    print(f"parq ingest, p={a.parallelism}, checkpoint interval {a.checkpoint_interval}; {ncpu} CPUs, "
          f"load at start {load_start[0]:.2f}; parq on {bench.java_version()}")
    met = report(results, a)
    bench.write_results(f"ingest-{'-'.join(a.scenario)}", {
        "args": vars(a), "machine": bench.machine_info(load_start),
        "parq_java_opts": os.environ.get("PARQ_JAVA_OPTS"), "results": results})
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
