#!/usr/bin/env python3
"""parq benchmark harness: `bench/run` and `bench/startup` call this file. See bench/README.md."""
import argparse
import datetime as dt
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gen  # noqa: E402

PARQ = os.path.join(REPO, "parq")
PARQ_JAR = os.path.join(REPO, "job", "target", "parq.jar")
TIME = "/usr/bin/time"
# parq-day and parq-hour: parq writing Hive partitions by day(ts) or hour(ts) of the log corpus;
# parq-service-level by service,level, 48 partitions interleaved in every batch; each compared
# with parq unpartitioned in the same run (not among the default tools).
PARQ_VARIANTS = {"parq": [], "parq-day": ["--partition-by", "day(ts)"], "parq-hour": ["--partition-by", "hour(ts)"],
                 "parq-service-level": ["--partition-by", "service,level"]}
ALL_TOOLS = ["parq", "parq-day", "parq-hour", "parq-service-level", "duckdb", "polars", "pyarrow"]
DEFAULT_TOOLS = ["parq", "duckdb", "polars", "pyarrow"]
SWEEP_TOOLS = ("parq", "duckdb")       # run at every --parallelism value
PIP_PACKAGES = {"duckdb": "duckdb", "polars": "polars", "pyarrow": "pyarrow"}
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# setup

def ensure_python_packages(tools):
    """duckdb is always needed (row-count check); the others when benchmarked."""
    need = {"duckdb"} | {t for t in tools if t in PIP_PACKAGES}
    missing = []
    for mod in sorted(need):
        try:
            __import__(mod)
        except ImportError:
            missing.append(PIP_PACKAGES[mod])
    if missing:
        log(f"installing {' '.join(missing)} with pip ...")
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *missing], check=True)


def first_error_line(text: str) -> str:
    lines = [ANSI.sub("", l).strip() for l in text.splitlines()]
    lines = [l for l in lines if l and not l.startswith("parq: building")]
    for l in lines:   # Maven: the first [ERROR] line that says something
        if l.startswith("[ERROR]") and not l.rstrip(" :").endswith("COMPILATION ERROR"):
            return l
    return lines[0] if lines else "(no output on stderr)"


TRAINING_SIZE = "200m"
FIXED_COST_SIZE = "1m"


def prepare_parq(data_dir, seed):
    """Build the jar and record the launcher's start-up cache outside the timed runs.

    The first conversion after a build records the classes the JVM loads (and, on JDK 25+, the
    method profiles) for later runs; it runs here, untimed, on a corpus of another seed, so that
    every timed run starts the same way and none of them learnt from the input it is timed on.
    Returns None if usable, else 'failed: ...'."""
    if not os.path.exists(PARQ):
        return "failed: no ./parq launcher in " + REPO
    if not os.path.exists(PARQ_JAR):
        log(f"parq: {PARQ_JAR} missing, building it with ./parq (Maven, untimed) ...")
    p = subprocess.run([PARQ, "convert", "--help"], capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(PARQ_JAR):
        return "failed: " + first_error_line(p.stderr or p.stdout)
    training = gen.corpus(TRAINING_SIZE, data_dir, seed + 1, log=log)
    outdir = os.path.join(data_dir, "out", "parq-training")
    shutil.rmtree(outdir, ignore_errors=True)
    log(f"parq: untimed conversion of {os.path.basename(training['path'])} (records the start-up cache) ...")
    p = subprocess.run([PARQ, "convert", training["path"], "-o", outdir], capture_output=True, text=True)
    shutil.rmtree(outdir, ignore_errors=True)
    if p.returncode != 0:
        return "failed: " + first_error_line(p.stderr or p.stdout)
    return None


def java_version():
    """The first line of `java -version` for the JVM ./parq runs ($JAVA_HOME/bin/java or java)."""
    java = os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else "java"
    try:
        j = subprocess.run([java, "-version"], capture_output=True, text=True)
        return (j.stderr or j.stdout).splitlines()[0]
    except (OSError, IndexError):
        return None


def machine_info(load_at_start):
    info = {"host": platform.node(), "platform": platform.platform(), "python": platform.python_version(),
            "cpus": os.cpu_count(), "loadavg_at_start": load_at_start, "loadavg_at_end": os.getloadavg()}
    try:
        with open("/proc/cpuinfo") as f:
            m = re.search(r"model name\s*:\s*(.*)", f.read())
            info["cpu"] = m.group(1) if m else None
        with open("/proc/meminfo") as f:
            info["mem_total_kib"] = int(re.search(r"MemTotal:\s*(\d+)", f.read()).group(1))
    except OSError:
        pass
    info["java"] = java_version()
    try:
        info["git_commit"] = subprocess.run(["git", "-C", REPO, "rev-parse", "HEAD"], capture_output=True,
                                            text=True).stdout.strip()
    except OSError:
        pass
    return info


def require_time(prog):
    if not os.access(TIME, os.X_OK):
        sys.exit(f"{prog} needs {TIME} (GNU time; Debian/Ubuntu package 'time')")


def load_at_start():
    """The load averages, with a warning when the machine is busy."""
    load = os.getloadavg()
    if load[0] > 1.5:
        log(f"warning: load average is {load[0]:.1f}; other work on this machine will skew the figures")
    return load


def gzipped(corpus):
    """The corpus with its path replaced by that of a gzip copy, made once next to it."""
    gz = corpus["path"] + ".gz"
    if not os.path.exists(gz) or os.path.getmtime(gz) < os.path.getmtime(corpus["path"]):
        log(f"gzipping {corpus['path']} (gzip -6, once) ...")
        with open(gz + ".part", "wb") as out:
            subprocess.run(["gzip", "-6", "-c", corpus["path"]], stdout=out, check=True)
        os.replace(gz + ".part", gz)
    log(f"input: {gz}: {os.path.getsize(gz):,} bytes gzipped")
    return {**corpus, "path": gz, "gzip_bytes": os.path.getsize(gz)}


def warm(path):
    subprocess.run(["cat", path], stdout=subprocess.DEVNULL, check=True)


# ---------------------------------------------------------------------------------------------
# one measured run

def schema_args(parq_schema):
    """parq's --schema for the DDL in the file parq_schema (none when None)."""
    if not parq_schema:
        return []
    # the DDL itself, not "@FILE": parq's picocli expands @-files into whitespace-split
    # arguments before parq can read them as a schema file
    with open(parq_schema, encoding="utf-8") as f:
        return ["--schema", " ".join(f.read().split())]


def command(tool, src, outdir, par, parq_schema):
    """(argv, env, output path) for one conversion."""
    env = dict(os.environ)
    if tool in PARQ_VARIANTS:
        argv = [PARQ, "convert", src, "-o", outdir, "--overwrite", "--compression", "snappy",
                "--parallelism", str(par), "--no-progress", *PARQ_VARIANTS[tool]]
        return argv + schema_args(parq_schema), env
    out = os.path.join(outdir, "out.parquet")
    if tool == "polars":
        env["POLARS_MAX_THREADS"] = str(par)
    return [sys.executable, os.path.join(HERE, "peers.py"), tool, src, out, str(par)], env


def parquet_files(outdir):
    """The committed Parquet files under outdir: parq names what it is still writing, and its
    _state/ and _rejected/, with a leading '.' or '_'."""
    found = []
    for d, dirs, files in os.walk(outdir):
        dirs[:] = [x for x in dirs if x[:1] not in "._"]
        found += [os.path.join(d, f) for f in files if f.endswith(".parquet") and f[:1] not in "._"]
    return sorted(found)


def start_timed(argv, env, tfile, **popen):
    """argv under GNU time, which writes its report to tfile, in its own process group so that a
    timeout kills the whole tree (time, the launcher, the JVM)."""
    return subprocess.Popen([TIME, "-v", "-o", tfile, *argv], env=env, text=True,
                            start_new_session=True, **popen)


def time_stats(tfile):
    """Peak RSS (KiB) and CPU seconds (user + system) from GNU time's report, which it removes."""
    r = {"peak_rss_kib": None, "cpu_s": None}
    try:
        with open(tfile) as f:
            text = f.read()
        os.remove(tfile)
    except OSError:
        return r
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", text)
    r["peak_rss_kib"] = int(m.group(1)) if m else None
    cpu = [float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", text)]
    r["cpu_s"] = round(sum(cpu), 2) if len(cpu) == 2 else None
    return r


def run_once(tool, par, corpus, outdir, parq_schema, timeout):
    shutil.rmtree(outdir, ignore_errors=True)
    os.makedirs(outdir)
    if tool in PARQ_VARIANTS:
        os.rmdir(outdir)            # parq creates its output directory
    argv, env = command(tool, corpus["path"], outdir, par, parq_schema)
    tfile = outdir.rstrip("/") + ".time"
    t0 = time.perf_counter()
    p = start_timed(argv, env, tfile, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        _, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        rc, err = -1, f"timed out after {timeout} s"
    wall = time.perf_counter() - t0
    r = {"tool": tool, "parallelism": par, "wall_s": round(wall, 3), "rc": rc, **time_stats(tfile)}
    if rc != 0:
        r["error"] = "failed: " + first_error_line(err)
        return r
    files = parquet_files(outdir)
    r["output_bytes"] = sum(os.path.getsize(f) for f in files)
    r["output_files"] = len(files)
    r["rows"] = count_rows(files)
    r["rows_ok"] = r["rows"] == corpus["lines"]
    manifest = os.path.join(outdir, "_SUCCESS")
    if tool in PARQ_VARIANTS and os.path.isfile(manifest):
        try:
            with open(manifest) as f:
                m = json.load(f)
            r["parq_manifest"] = {k: m.get(k) for k in ("records_in", "rows_written", "rejected", "elapsed_ms")}
        except (OSError, ValueError):
            pass
    return r


def count_rows(files):
    import duckdb
    if not files:
        return 0
    try:
        return duckdb.connect().execute("SELECT count(*) FROM read_parquet(?)", [files]).fetchone()[0]
    except Exception as e:  # noqa: BLE001
        log(f"  row count failed: {e}")
        return -1


# ---------------------------------------------------------------------------------------------
# summaries

def summarize(cfg_runs, corpus, fixed_runs=None):
    ok = [r for r in cfg_runs if r["rc"] == 0]
    first = cfg_runs[0]
    s = {"tool": first["tool"], "parallelism": first["parallelism"], "runs": len(cfg_runs), "ok_runs": len(ok)}
    if not ok:
        s["error"] = first.get("error", "failed")
        return s
    wall = statistics.median(r["wall_s"] for r in ok)
    rss = [r["peak_rss_kib"] for r in ok if r["peak_rss_kib"]]
    s.update({
        "wall_s": round(wall, 3),
        "mb_per_s": round(corpus["bytes"] / 1e6 / wall, 1),
        "rows_per_s": round(corpus["lines"] / wall),
        "peak_rss_mib": round(statistics.median(rss) / 1024, 1) if rss else None,
        "output_mib": round(statistics.median(r["output_bytes"] for r in ok) / 2**20, 1),
        "rows_ok": all(r["rows_ok"] for r in ok),
        "rows": ok[-1]["rows"],
    })
    if len(ok) < len(cfg_runs):
        s["error"] = f"{len(cfg_runs) - len(ok)} of {len(cfg_runs)} runs failed: " + \
            next(r["error"] for r in cfg_runs if r["rc"] != 0)
    fixed = [r["wall_s"] for r in fixed_runs or [] if r["rc"] == 0 and r["rows_ok"]]
    if fixed:
        s["fixed_s"] = round(statistics.median(fixed), 3)
        if wall > s["fixed_s"]:
            s["net_mb_per_s"] = round(corpus["bytes"] / 1e6 / (wall - s["fixed_s"]), 1)
    return s


def print_table(summaries, corpus):
    fixed = any("fixed_s" in s for s in summaries)
    hdr = ["tool", "par", "wall s", "MB/s", "rows/s", "peak RSS MiB", "output MiB"]
    if fixed:
        hdr += ["fixed s", "net MB/s"]
    hdr.append("rows ok")
    rows = []
    for s in summaries:
        if "wall_s" not in s:
            rows.append([s["tool"], str(s["parallelism"])] + ["-"] * (len(hdr) - 3) + [s["error"]])
            continue
        ok = "yes" if s["rows_ok"] else f"MISMATCH {s['rows']} != {corpus['lines']}"
        if s.get("error"):
            ok += f" ({s['error']})"
        row = [s["tool"], str(s["parallelism"]), f"{s['wall_s']:.2f}", f"{s['mb_per_s']:.1f}",
               f"{s['rows_per_s']:,}", f"{s['peak_rss_mib']:.0f}" if s["peak_rss_mib"] else "?",
               f"{s['output_mib']:.1f}"]
        if fixed:
            row += [f"{s['fixed_s']:.2f}" if "fixed_s" in s else "-",
                    f"{s['net_mb_per_s']:.1f}" if "net_mb_per_s" in s else "-"]
        rows.append(row + [ok])
    print_rows(hdr, rows)


def print_rows(hdr, rows, left=None):
    """A table of strings: the columns in left (default the first and last: names, verdicts) to the
    left, figures to the right."""
    left = left or (0, len(hdr) - 1)
    w = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(hdr)]
    for r in [hdr] + rows:
        print("  ".join(c.ljust(w[i]) if i in left else c.rjust(w[i]) for i, c in enumerate(r)).rstrip())


def ratios(summaries, main_par):
    """parq at main_par against each peer at main_par."""
    by = {(s["tool"], s["parallelism"]): s for s in summaries}
    parq = by.get(("parq", main_par))
    out = []
    for s in summaries:
        if s["tool"] == "parq" or s["parallelism"] != main_par:
            continue
        r = {"peer": s["tool"], "parallelism": main_par}
        if parq and "wall_s" in parq and "wall_s" in s:
            r["throughput"] = round(parq["mb_per_s"] / s["mb_per_s"], 2)
            if parq["peak_rss_mib"] and s["peak_rss_mib"]:
                r["rss"] = round(parq["peak_rss_mib"] / s["peak_rss_mib"], 2)
            if "net_mb_per_s" in parq and "net_mb_per_s" in s:
                r["net_throughput"] = round(parq["net_mb_per_s"] / s["net_mb_per_s"], 2)
        out.append(r)
    return out


def sweep(summaries, pars):
    by = {(s["tool"], s["parallelism"]): s for s in summaries}
    out = []
    for tool in SWEEP_TOOLS:
        pts = [(p, by[(tool, p)]) for p in pars if (tool, p) in by and "wall_s" in by[(tool, p)]]
        if not pts:
            continue
        base = pts[0][1]["mb_per_s"]
        out.append({"tool": tool, "points": [{"parallelism": p, "mb_per_s": s["mb_per_s"],
                                               "speedup": round(s["mb_per_s"] / base, 2),
                                               "peak_rss_mib": s["peak_rss_mib"]} for p, s in pts]})
    return out


def write_results(name, doc):
    """doc, stamped with its UTC time, as bench/work/NAME-TIMESTAMP.json; prints the path."""
    os.makedirs(os.path.join(HERE, "work"), exist_ok=True)
    stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = os.path.join(HERE, "work", f"{name}-{stamp}.json")
    with open(path, "w") as f:
        json.dump({"created": stamp, **doc}, f, indent=1, default=str)
    print(f"\nresults: {os.path.relpath(path)}")


# ---------------------------------------------------------------------------------------------
# commands

def parse_pars(s):
    try:
        vals = [int(x) for x in s.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a comma-separated list of integers: {s}")
    if not vals or min(vals) < 1:
        raise argparse.ArgumentTypeError(f"parallelism values must be >= 1: {s}")
    return sorted(set(vals))


def parse_tools(s):
    tools = [t.strip() for t in s.split(",") if t.strip()]
    bad = [t for t in tools if t not in ALL_TOOLS]
    if bad or not tools:
        raise argparse.ArgumentTypeError(f"unknown tool(s) {bad}; choose from {','.join(ALL_TOOLS)}")
    return [t for t in ALL_TOOLS if t in tools]


ENVIRONMENT_HELP = """environment:
  PARQ_JAVA_OPTS    JVM options for ./parq (replace its defaults)
  JAVA_HOME         the JDK ./parq runs on (default: java on the PATH)
  PARQ_BENCH_DATA   default for --data-dir"""


def default_data_dir():
    return os.environ.get("PARQ_BENCH_DATA", os.path.join(HERE, "work", "data"))


def run_main(argv):
    ncpu = os.cpu_count() or 1
    ap = argparse.ArgumentParser(
        prog="bench/run",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Convert one generated application-log NDJSON corpus to Parquet (snappy) with parq "
                    "and its peers,\nand compare throughput, peak RSS and output size. See bench/README.md.",
        epilog=f"""what runs:
  parq and duckdb run once per --parallelism value (the sweep); polars and pyarrow run once with
  the largest value as their thread count. Ratios compare parq with each peer at that largest
  value. Each configuration runs --runs times (interleaved, page cache warmed with cat before each
  round); the table shows medians. With --fixed-cost, each round also converts a 1 MiB corpus
  with every configuration: the median is that tool's fixed cost (process start, set-up,
  teardown), and "net MB/s" is the corpus over the wall time less that cost, the rate a tool
  keeps once it is running.

output:
  a table on stdout and bench/work/results-SIZE-TIMESTAMP.json. Exit status 0 if every
  configuration converted with the right row count, 1 otherwise (the peers are still measured
  when parq fails).

""" + ENVIRONMENT_HELP)
    ap.add_argument("--size", default="1g", help="corpus size, binary units: 100m, 1g, 4g (default 1g)")
    ap.add_argument("--runs", type=int, default=3, help="runs per configuration; the median is reported (default 3)")
    ap.add_argument("--parallelism", type=parse_pars, default=sorted({1, ncpu}), metavar="LIST",
                    help=f"comma-separated parallelism values for parq and duckdb (default 1,{ncpu}: 1 and all cores)")
    ap.add_argument("--tools", type=parse_tools, default=DEFAULT_TOOLS, metavar="LIST",
                    help="comma-separated subset of parq,duckdb,polars,pyarrow (default: these four) and"
                         " parq-day,parq-hour,parq-service-level (parq with --partition-by day(ts),"
                         " hour(ts) or service,level)")
    ap.add_argument("--data-dir", default=default_data_dir(), metavar="DIR",
                    help="where the corpus is cached and outputs are written (default $PARQ_BENCH_DATA or bench/work/data)")
    ap.add_argument("--keep", action="store_true",
                    help="keep the Parquet outputs of the last run under DIR/out/ (default: deleted)")
    ap.add_argument("--seed", type=int, default=gen.DEFAULT_SEED, help=f"corpus seed (default {gen.DEFAULT_SEED})")
    ap.add_argument("--corpus", choices=gen.CORPORA, default="app-logs",
                    help="app-logs (default): the generated application log; values-32k, values-320k,"
                         " values-3m: records whose string value is 32 KB, 320 KB or 3 MB long")
    ap.add_argument("--gzip", action="store_true",
                    help="give every tool the corpus gzipped (made once with gzip -6 next to the corpus);"
                         " MB/s still count the decompressed bytes")
    ap.add_argument("--parq-schema", metavar="FILE",
                    help="give parq the schema in FILE (as --schema DDL) instead of letting it infer one (e.g. bench/app-logs.ddl)")
    ap.add_argument("--verify-corpus", action="store_true",
                    help="re-hash a cached corpus and regenerate it if its sha256 does not match")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds before one conversion is killed (default 3600)")
    ap.add_argument("--fixed-cost", action="store_true",
                    help=f"also time every configuration on a {FIXED_COST_SIZE.upper()}iB corpus in each round: its median "
                         "is the tool's fixed cost (start-up, teardown), and 'net MB/s' the throughput after it")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error("--runs must be >= 1")
    if a.parq_schema:
        a.parq_schema = os.path.abspath(a.parq_schema)
        if not os.path.isfile(a.parq_schema):
            ap.error(f"--parq-schema: no such file: {a.parq_schema}")
    require_time("bench/run")

    load_start = load_at_start()
    load = load_start[0]
    ensure_python_packages(a.tools)
    import peers
    data_dir = os.path.abspath(a.data_dir)
    corpus = gen.corpus(a.size, data_dir, a.seed, verify=a.verify_corpus, log=log, kind=a.corpus)
    log(f"corpus: {corpus['path']}: {corpus['bytes']:,} bytes, {corpus['lines']:,} lines, sha256 {corpus['sha256']}")
    if a.gzip:
        corpus = gzipped(corpus)

    pars = a.parallelism
    main_par = max(pars)
    configs = []
    for t in a.tools:
        for p in (pars if t in SWEEP_TOOLS else [main_par]):
            configs.append((t, p))

    tiny = gen.corpus(FIXED_COST_SIZE, data_dir, a.seed, log=log) if a.fixed_cost else None

    parq_failure = prepare_parq(data_dir, a.seed) if any(t in PARQ_VARIANTS for t in a.tools) else None
    if parq_failure:
        log(f"parq: {parq_failure}")

    out_root = os.path.join(data_dir, "out")
    results = {c: [] for c in configs}
    fixed_results = {c: [] for c in configs}
    for run in range(1, a.runs + 1):
        warm(corpus["path"])
        for tool, par in configs:
            if tool in PARQ_VARIANTS and parq_failure:
                results[(tool, par)].append({"tool": tool, "parallelism": par, "rc": -1, "error": parq_failure})
                continue
            outdir = os.path.join(out_root, f"{tool}-p{par}")
            r = run_once(tool, par, corpus, outdir, a.parq_schema, a.timeout)
            results[(tool, par)].append(r)
            if r["rc"] != 0:
                log(f"run {run}/{a.runs} {tool:8s} p={par}: {r['error']}")
            else:
                log(f"run {run}/{a.runs} {tool:8s} p={par}: {r['wall_s']:.2f} s, "
                    f"{corpus['bytes'] / 1e6 / r['wall_s']:.1f} MB/s, RSS {r['peak_rss_kib'] / 1024:.0f} MiB, "
                    f"rows {'ok' if r['rows_ok'] else 'MISMATCH'}")
                if not r["rows_ok"]:
                    log(f"!!! MISMATCH: {tool} p={par} wrote {r['rows']} rows, the input has {corpus['lines']} lines !!!")
            if not (a.keep and run == a.runs):
                shutil.rmtree(outdir, ignore_errors=True)
        if tiny:
            for tool, par in configs:
                if tool in PARQ_VARIANTS and parq_failure:
                    continue
                outdir = os.path.join(out_root, f"{tool}-p{par}-fixed")
                r = run_once(tool, par, tiny, outdir, a.parq_schema, a.timeout)
                fixed_results[(tool, par)].append(r)
                shutil.rmtree(outdir, ignore_errors=True)
                if r["rc"] != 0 or not r["rows_ok"]:
                    log(f"run {run}/{a.runs} {tool:8s} p={par} ({FIXED_COST_SIZE} corpus): "
                        f"{r.get('error', 'row count mismatch')}")
                else:
                    log(f"run {run}/{a.runs} {tool:8s} p={par} ({FIXED_COST_SIZE} corpus): {r['wall_s']:.2f} s")
    if not a.keep:
        shutil.rmtree(out_root, ignore_errors=True)

    summaries = [summarize(results[c], corpus, fixed_results[c]) for c in configs]
    rat = ratios(summaries, main_par) if "parq" in a.tools else []
    sw = sweep(summaries, pars) if len(pars) > 1 else []

    print()
    gz = f" (read gzipped: {corpus['gzip_bytes'] / 1e6:.1f} MB)" if a.gzip else ""
    print(f"corpus {a.size}: {corpus['bytes'] / 1e6:.1f} MB{gz}, {corpus['lines']:,} lines, snappy; "
          f"medians of {a.runs} run(s); {os.cpu_count()} CPUs, load at start {load:.2f}")
    if "parq" in a.tools:
        print(f"parq on {java_version()}")
    print()
    print_table(summaries, corpus)
    mismatches = [s for s in summaries if "wall_s" in s and not s["rows_ok"]]
    for s in mismatches:
        print(f"\n!!! MISMATCH: {s['tool']} p={s['parallelism']} wrote {s['rows']} rows, "
              f"the input has {corpus['lines']} lines !!!")
    if rat:
        print()
        for r in rat:
            if "throughput" in r:
                rss = f", RSS {r['rss']:.2f}x" if "rss" in r else ""
                net = f", net of fixed cost {r['net_throughput']:.2f}x" if "net_throughput" in r else ""
                print(f"parq/{r['peer']} (p={r['parallelism']}) throughput {r['throughput']:.2f}x{rss}{net}")
            else:
                print(f"parq/{r['peer']} (p={r['parallelism']}): n/a (a run failed)")
    if sw:
        print("\nparallelism sweep (MB/s, speedup over p=%d):" % pars[0])
        for t in sw:
            pts = ", ".join(f"p={x['parallelism']} {x['mb_per_s']:.1f} ({x['speedup']:.2f}x, "
                            f"{x['peak_rss_mib'] or 0:.0f} MiB)" for x in t["points"])
            print(f"  {t['tool']:8s} {pts}")

    kind = "" if a.corpus == "app-logs" else a.corpus + "-"
    write_results(f"results-{kind}{gen.size_label(a.size)}", {
        "args": {k: v for k, v in vars(a).items()},
        "machine": machine_info(load_start), "tool_versions": peers.versions(),
        "parq_java_opts": os.environ.get("PARQ_JAVA_OPTS"),
        "corpus": {k: corpus[k] for k in ("path", "bytes", "lines", "sha256", "seed", "gen_version", "cached")},
        "summaries": summaries, "ratios": rat, "sweep": sw,
        "runs": [r for c in configs for r in results[c]],
        "fixed_cost_runs": [r for c in configs for r in fixed_results[c]],
    })
    failed = [s for s in summaries if "wall_s" not in s or s.get("error") or not s["rows_ok"]]
    return 1 if failed else 0


def startup_main(argv):
    ap = argparse.ArgumentParser(
        prog="bench/startup",
        description="parq's fixed cost (JVM + embedded Flink start-up and job teardown): wall time of "
                    "converting a 10 MiB corpus (same generator as bench/run), median of --runs. "
                    "Also times `./parq --help` (JVM start only, no Flink) for reference.")
    ap.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    ap.add_argument("--size", default="10m", help="corpus size (default 10m)")
    ap.add_argument("--parallelism", type=int, default=1, help="parq --parallelism (default 1)")
    ap.add_argument("--data-dir", default=default_data_dir(), metavar="DIR",
                    help="corpus cache and output (default $PARQ_BENCH_DATA or bench/work/data)")
    a = ap.parse_args(argv)
    failure = prepare_parq(os.path.abspath(a.data_dir), gen.DEFAULT_SEED)
    if failure:
        print(f"parq {failure}")
        return 1
    corpus = gen.corpus(a.size, os.path.abspath(a.data_dir), log=log)
    warm(corpus["path"])
    help_t, conv_t = [], []
    outdir = os.path.join(os.path.abspath(a.data_dir), "out", "startup")
    try:
        for i in range(a.runs):
            t0 = time.perf_counter()
            subprocess.run([PARQ, "--help"], capture_output=True)
            help_t.append(time.perf_counter() - t0)
            r = run_once("parq", a.parallelism, corpus, outdir, None, 600)
            if r["rc"] != 0:
                print(f"parq {r['error']}")
                return 1
            if not r["rows_ok"]:
                print(f"!!! MISMATCH: parq wrote {r['rows']} rows, the input has {corpus['lines']} lines !!!")
            conv_t.append(r["wall_s"])
            log(f"run {i + 1}/{a.runs}: convert {r['wall_s']:.2f} s, --help {help_t[-1]:.2f} s, "
                f"RSS {r['peak_rss_kib'] / 1024:.0f} MiB")
    finally:
        shutil.rmtree(outdir, ignore_errors=True)
    print(f"parq start-up: {corpus['bytes'] / 2**20:.0f} MiB conversion (p={a.parallelism}) "
          f"{statistics.median(conv_t):.2f} s median of {a.runs} "
          f"[{', '.join(f'{t:.2f}' for t in conv_t)}]; JVM alone (./parq --help) {statistics.median(help_t):.2f} s")
    return 0


if __name__ == "__main__":
    cmd, rest = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("run", [])
    sys.exit({"run": run_main, "startup": startup_main}[cmd](rest))
