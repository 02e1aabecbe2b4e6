#!/usr/bin/env python3
"""parq on a deploy/local cluster; bench/cluster calls this file. See bench/README.md, "Cluster".

fixed     a small conversion submitted with `flink run` to a warm session cluster, against a
          cold `./parq convert` of the same file: the fixed cost of each
scale     a large conversion's MB/s on one TaskManager of 2 slots and on two of one slot each,
          at parallelism 2, against `./parq convert --parallelism 2` in the same run
catchup   `flink run -d ... ingest` of a backlog (the corpus, one file there at the start) on a warm
          1 x 2 cluster, from its submission until every row is committed, against `flink run
          ... convert` of the same file on the same cluster, turns alternating
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import gen  # noqa: E402
from bench import log  # noqa: E402

CLUSTER = os.path.join(bench.REPO, "deploy", "local", "cluster")
FLINK = os.path.join(bench.REPO, "deploy", "local", "flink")
JOB_JAR = os.path.join(bench.REPO, "job", "target", "parq-job.jar")
MB = 1e6


class Cluster:
    """A deploy/local cluster of its own directory, started for one scenario and stopped after it."""

    def __init__(self, root, taskmanagers, slots, cds=True, warm_up=True):
        self.dir = os.path.join(root, f"cluster-{taskmanagers}x{slots}")
        self.env = dict(os.environ, PARQ_CLUSTER_DIR=self.dir)
        self.shape = f"{taskmanagers} TaskManager{'s' if taskmanagers > 1 else ''} x {slots} slot{'s' if slots > 1 else ''}"
        # `cluster start` empties what an earlier cluster of the directory left, except the class-data
        # archives of its processes (DIR/cds/), which a cluster stopped after a job recorded.
        archives = os.path.join(self.dir, "cds")
        self.cds = ("mapped" if os.path.isdir(archives) and any(f.endswith(".jsa") for f in os.listdir(archives))
                    else "recorded at stop") if cds else "off"
        self.warm_up = warm_up
        log(f"cluster: starting {self.shape} (class-data archives: {self.cds}, warm-up: {'on' if warm_up else 'off'}) ...")
        start_env = dict(self.env) if cds else dict(self.env, PARQ_NO_CDS="1")
        t0 = time.perf_counter()
        subprocess.run([CLUSTER, "start", "--taskmanagers", str(taskmanagers), "--slots", str(slots)]
                       + ([] if warm_up else ["--warm-up", "0"]), env=start_env, check=True, stdout=subprocess.DEVNULL)
        self.start_wall_s = time.perf_counter() - t0

    def cpu_s(self):
        """CPU seconds the cluster's JobManager and TaskManagers have used so far: unlike wall time,
        not stretched by other work on a shared machine."""
        run, total = os.path.join(self.dir, "run"), 0.0
        for record in os.listdir(run):
            if not record.endswith(".properties"):
                continue
            with open(os.path.join(run, record)) as f:
                pid = next((line.split("=", 1)[1].strip() for line in f if line.startswith("pid=")), None)
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            except (OSError, TypeError):
                pass
        return total

    def convert(self, src, outdir, par, schema):
        """Wall seconds of `flink run parq-job.jar convert ...`, the client included, as a user waits for it."""
        shutil.rmtree(outdir, ignore_errors=True)
        argv = [FLINK, "run", JOB_JAR, "convert", src, "-o", outdir, "--compression", "snappy",
                "--parallelism", str(par), "--no-progress"] + bench.schema_args(schema)
        t0 = time.perf_counter()
        p = subprocess.run(argv, env=self.env, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        if p.returncode != 0:
            raise SystemExit(f"flink run failed ({p.returncode}): {bench.first_error_line(p.stderr or p.stdout)}")
        return wall

    def ingest(self, corpus, outdir, par, schema, a):
        """Wall seconds from `flink run -d parq-job.jar ingest ...` until every line of the corpus is a
        committed row (the client's submission included); the job is cancelled then."""
        import ingest
        shutil.rmtree(outdir, ignore_errors=True)
        argv = [FLINK, "run", "-d", JOB_JAR, "ingest", corpus["path"], "-o", outdir, "--parallelism", str(par),
                "--checkpoint-interval", a.checkpoint_interval,
                "--compaction-interval", a.compaction_interval] + bench.schema_args(schema)
        t0 = time.perf_counter()
        p = subprocess.run(argv, env=self.env, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"flink run -d failed ({p.returncode}): {bench.first_error_line(p.stderr or p.stdout)}")
        job = re.search(r"\b[0-9a-f]{32}\b", p.stdout + p.stderr)
        if not job:
            raise SystemExit(f"no job id in the output of flink run -d: {p.stdout + p.stderr}")
        committed = ingest.CommittedRows(outdir)
        try:
            while committed.count() < corpus["lines"]:
                if time.perf_counter() - t0 > a.timeout:
                    raise SystemExit(f"ingest committed {committed.count()} of {corpus['lines']} rows in {a.timeout} s")
                time.sleep(0.1)
            return time.perf_counter() - t0
        finally:
            subprocess.run([FLINK, "cancel", job.group(0)], env=self.env, capture_output=True)

    def stop(self):
        subprocess.run([CLUSTER, "stop"], env=self.env, check=False, stdout=subprocess.DEVNULL)


def embedded(src, outdir, par, schema):
    """Wall seconds of `./parq convert ...` (a JVM with its embedded Flink, from cold)."""
    shutil.rmtree(outdir, ignore_errors=True)
    argv, env = bench.command("parq", src, outdir, par, schema)
    t0 = time.perf_counter()
    p = subprocess.run(argv, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"./parq failed ({p.returncode}): {bench.first_error_line(p.stderr)}")
    return wall


def check_rows(outdir, corpus):
    rows = bench.count_rows(bench.parquet_files(outdir))
    if rows != corpus["lines"]:
        raise SystemExit(f"!!! {outdir} holds {rows} rows, the input has {corpus['lines']} lines !!!")


def median_of(runs, fn):
    times = [fn() for _ in range(runs)]
    return statistics.median(times), times


def fixed(a, data_dir, schema):
    corpus = gen.corpus(a.fixed_size, data_dir, log=log)
    bench.warm(corpus["path"])
    out = os.path.join(data_dir, "out", "cluster-fixed")
    cluster = Cluster(data_dir, 1, 2, not a.no_cds, not a.no_warm_up)
    try:
        cluster.convert(corpus["path"], out, 1, schema)      # the session is warm from here on
        warm, warm_t = median_of(a.runs, lambda: cluster.convert(corpus["path"], out, 1, schema))
        check_rows(out, corpus)
    finally:
        cluster.stop()
    cold, cold_t = median_of(a.runs, lambda: embedded(corpus["path"], out, 1, schema))
    check_rows(out, corpus)
    shutil.rmtree(out, ignore_errors=True)
    return {"bytes": corpus["bytes"], "flink_run_warm_s": warm, "flink_run_runs": warm_t,
            "parq_cold_s": cold, "parq_runs": cold_t}


def scale(a, data_dir, schema):
    """Each cluster shape's runs alternate with ./parq's, so that both see the same machine; the
    first job of a fresh cluster is timed apart, since it loads and compiles what later jobs reuse."""
    corpus = gen.corpus(a.size, data_dir, log=log)
    out = os.path.join(data_dir, "out", "cluster-scale")
    result = {"bytes": corpus["bytes"], "lines": corpus["lines"]}
    embedded_runs = []
    for tms, slots in ((1, 2), (2, 1)):
        cluster = Cluster(data_dir, tms, slots, not a.no_cds, not a.no_warm_up)
        runs, beside = [], []
        try:
            bench.warm(corpus["path"])
            start_cpu = cluster.cpu_s()
            first = cluster.convert(corpus["path"], out, 2, schema)
            first_cpu = cluster.cpu_s() - start_cpu
            check_rows(out, corpus)
            later_cpu = []
            for _ in range(a.runs):
                before = cluster.cpu_s()
                runs.append(cluster.convert(corpus["path"], out, 2, schema))
                later_cpu.append(cluster.cpu_s() - before)
                check_rows(out, corpus)
                beside.append(embedded(corpus["path"], out, 2, schema))
                check_rows(out, corpus)
        finally:
            cluster.stop()
        wall, base = statistics.median(runs), statistics.median(beside)
        embedded_runs += beside
        result[cluster.shape] = {"wall_s": wall, "runs": runs, "mb_s": corpus["bytes"] / wall / MB,
                                 "first_wall_s": first, "first_mb_s": corpus["bytes"] / first / MB,
                                 "parq_runs": beside, "ratio": base / wall, "first_ratio": base / first,
                                 "class_archives": cluster.cds, "warm_up": cluster.warm_up, "start_cpu_s": start_cpu,
                                 "start_wall_s": cluster.start_wall_s,
                                 "first_job_cpu_s": first_cpu, "later_job_cpu_s": later_cpu}
        log(f"{cluster.shape}: start {cluster.start_wall_s:.1f} s, {start_cpu:.1f} CPU-s, first job {first_cpu:.1f} CPU-s, later jobs "
            f"{statistics.median(later_cpu):.1f} CPU-s (JobManager and TaskManagers)")
        log(f"{cluster.shape}: first job {corpus['bytes'] / first / MB:.1f} MB/s, then "
            f"{corpus['bytes'] / wall / MB:.1f} MB/s (median of {runs}); ./parq between them "
            f"{corpus['bytes'] / base / MB:.1f} MB/s (median of {beside})")
    shutil.rmtree(out, ignore_errors=True)
    wall = statistics.median(embedded_runs)
    spread = (max(embedded_runs) - min(embedded_runs)) / wall
    result["./parq"] = {"wall_s": wall, "runs": embedded_runs, "mb_s": corpus["bytes"] / wall / MB,
                        "spread": spread}
    return result


def catchup(a, data_dir, schema):
    """On one warm 1 x 2 cluster (its first job, a conversion, is not timed), convert and ingest
    of the corpus in turns."""
    corpus = gen.corpus(a.size, data_dir, log=log)
    out = os.path.join(data_dir, "out", "cluster-catchup")
    cluster = Cluster(data_dir, 1, 2, not a.no_cds, not a.no_warm_up)
    converts, ingests, convert_cpu, ingest_cpu = [], [], [], []
    try:
        bench.warm(corpus["path"])
        cluster.convert(corpus["path"], out, 2, schema)
        for _ in range(a.runs):
            before = cluster.cpu_s()
            converts.append(cluster.convert(corpus["path"], out, 2, schema))
            convert_cpu.append(cluster.cpu_s() - before)
            check_rows(out, corpus)
            before = cluster.cpu_s()
            ingests.append(cluster.ingest(corpus, out, 2, schema, a))
            ingest_cpu.append(cluster.cpu_s() - before)
            check_rows(out, corpus)
    finally:
        cluster.stop()
    shutil.rmtree(out, ignore_errors=True)
    convert, ingest = statistics.median(converts), statistics.median(ingests)
    return {"bytes": corpus["bytes"], "lines": corpus["lines"], "checkpoint_interval": a.checkpoint_interval,
            "compaction_interval": a.compaction_interval, "convert_runs": converts, "ingest_runs": ingests,
            "convert_cpu_s": convert_cpu, "ingest_cpu_s": ingest_cpu, "ratio": convert / ingest}


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/cluster", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenario", default="fixed,scale",
                    help="fixed, scale, catchup, comma-separated (default fixed,scale)")
    ap.add_argument("--size", default="4g", help="corpus of the scale scenario (default 4g)")
    ap.add_argument("--fixed-size", default="10m", help="corpus of the fixed scenario (default 10m)")
    ap.add_argument("--runs", type=int, default=3, help="runs per configuration; medians are reported (default 3)")
    ap.add_argument("--checkpoint-interval", default="10s", help="catchup: ingest's checkpoint interval (parq's 10s)")
    ap.add_argument("--compaction-interval", default="1min", help="catchup: ingest's compaction interval (parq's 1min)")
    ap.add_argument("--timeout", type=int, default=600, help="catchup: seconds an ingest may take to commit every row")
    ap.add_argument("--no-cds", action="store_true",
                    help="start the clusters' JobManagers and TaskManagers without class-data archives (PARQ_NO_CDS;"
                         " the client keeps its own)")
    ap.add_argument("--no-warm-up", action="store_true",
                    help="start the clusters without their warm-up job (cluster start --warm-up 0)")
    ap.add_argument("--parq-schema", metavar="FILE", default=os.path.join(HERE, "app-logs.ddl"),
                    help="schema for every conversion (default bench/app-logs.ddl)")
    ap.add_argument("--data-dir", default=bench.default_data_dir(), metavar="DIR",
                    help="corpus cache, outputs and the clusters' directories (default $PARQ_BENCH_DATA or bench/work/data)")
    a = ap.parse_args(argv)
    scenarios = [s.strip() for s in a.scenario.split(",") if s.strip()]
    unknown = set(scenarios) - {"fixed", "scale", "catchup"}
    if unknown:
        ap.error(f"unknown scenario {', '.join(sorted(unknown))}: choose from fixed, scale, catchup")
    data_dir = os.path.abspath(a.data_dir)
    os.makedirs(data_dir, exist_ok=True)
    failure = bench.prepare_parq(data_dir, gen.DEFAULT_SEED)
    if failure:
        print(f"parq {failure}")
        return 1
    if not os.path.exists(JOB_JAR):
        print(f"{JOB_JAR} is missing: build it with mvn -pl job -am package -DskipTests")
        return 1
    load = bench.load_at_start()
    doc = {"machine": bench.machine_info(load)}
    if "fixed" in scenarios:
        r = doc["fixed"] = fixed(a, data_dir, a.parq_schema)
        print(f"fixed cost, {r['bytes'] / 2**20:.0f} MiB, p=1, median of {a.runs}: "
              f"flink run to a warm session cluster {r['flink_run_warm_s']:.2f} s, "
              f"./parq convert from cold {r['parq_cold_s']:.2f} s "
              f"(ratio {r['flink_run_warm_s'] / r['parq_cold_s']:.2f})")
    if "scale" in scenarios:
        r = doc["scale"] = scale(a, data_dir, a.parq_schema)
        print(f"{r['bytes'] / 2**30:.1f} GiB conversion at parallelism 2, median of {a.runs}:")
        print(f"  {'':26s} {'later jobs':>19s}   {'first job':>19s}   (x ./parq: the runs between them)")
        for shape in ("1 TaskManager x 2 slots", "2 TaskManagers x 1 slot"):
            c = r[shape]
            print(f"  {shape:26s} {c['mb_s']:7.1f} MB/s {c['ratio']:5.2f}x   "
                  f"{c['first_mb_s']:7.1f} MB/s {c['first_ratio']:5.2f}x   class-data archives: {c['class_archives']}, warm-up: {'on' if c['warm_up'] else 'off'}")
        p = r["./parq"]
        print(f"  {'./parq':26s} {p['mb_s']:7.1f} MB/s (median of {len(p['runs'])}, "
              f"spread {100 * p['spread']:.0f}% of it)")
    if "catchup" in scenarios:
        r = doc["catchup"] = catchup(a, data_dir, a.parq_schema)
        print(f"{r['bytes'] / 2**30:.1f} GiB catch-up on 1 TaskManager x 2 slots, parallelism 2, checkpoint interval "
              f"{r['checkpoint_interval']}, compaction interval {r['compaction_interval']}, median of {a.runs}:")
        print(f"  flink run convert {statistics.median(r['convert_runs']):6.2f} s {r['convert_runs']}, cluster CPU "
              f"{statistics.median(r['convert_cpu_s']):.1f} s")
        print(f"  flink run -d ingest, until all committed {statistics.median(r['ingest_runs']):6.2f} s {r['ingest_runs']},"
              f" cluster CPU {statistics.median(r['ingest_cpu_s']):.1f} s (until its cancel)")
        print(f"  ingest's throughput x convert's: {r['ratio']:.2f}")
    bench.write_results("cluster", doc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
