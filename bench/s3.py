#!/usr/bin/env python3
"""parq with object storage against parq on local files, in the same run: `bench/s3` calls this file
inside a private network namespace (S3Mock listens on all interfaces; there, loopback is the only one).

Each round converts the corpus local -> local, S3 -> local, local -> S3 and S3 -> S3 (in that
order, so that the four see the same machine), with one S3Mock server on 127.0.0.1:9090 holding the
corpus. It prints the medians and the ratios to local -> local, and writes them as JSON beside the
corpus. The server runs on the same cores as parq: its CPU-seconds during each conversion are
reported beside parq's, since every second of them is one that parq did not have. With
--split-cores, the server runs on the last core and parq, in every case, on the others (taskset):
as close as one machine comes to a store on other machines, for local -> local as for the rest."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import gen  # noqa: E402

S3MOCK_JAR = os.path.join(bench.REPO, "job", "target", "s3mock", "s3mock-exec.jar")
ENDPOINT = "http://127.0.0.1:9090"
BUCKET = "bench"
S3_FLAGS = ["-D", f"s3.endpoint={ENDPOINT}", "-D", "s3.path.style.access=true",
            "-D", "s3.access-key=bench", "-D", "s3.secret-key=bench-secret"]
CASES = ("local-to-local", "s3-to-local", "local-to-s3", "s3-to-s3")


def request(method, key="", body=None):
    url = f"{ENDPOINT}/{BUCKET}/{key}"
    req = urllib.request.Request(url, method=method, data=body)
    with urllib.request.urlopen(req, timeout=600) as r:
        return r.status


def pinned(cores, argv):
    """argv on `cores` only (a taskset list such as "0" or "0-2"), or anywhere if None."""
    return argv if cores is None else ["taskset", "-c", cores, *argv]


def start_server(root, cores=None):
    log = open(os.path.join(root, "s3mock.log"), "w")
    env = dict(os.environ, COM_ADOBE_TESTING_S3MOCK_STORE_ROOT=root)
    server = subprocess.Popen(pinned(cores, ["java", "-Xmx1g", "-jar", S3MOCK_JAR, "--server.address=127.0.0.1",
                               "--logging.level.root=WARN"]), env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.time() + 120
    while True:
        try:
            urllib.request.urlopen(ENDPOINT, timeout=2)
            return server
        except urllib.error.HTTPError:
            return server
        except OSError:
            if server.poll() is not None or time.time() > deadline:
                sys.exit(f"S3Mock did not start: see {log.name}")
            time.sleep(0.5)


def upload(path, key):
    """A PUT of the whole file, streamed (S3Mock checks no signatures)."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        req = urllib.request.Request(f"{ENDPOINT}/{BUCKET}/{key}", method="PUT", data=f,
                                     headers={"Content-Length": str(size)})
        with urllib.request.urlopen(req, timeout=3600) as r:
            if r.status // 100 != 2:
                sys.exit(f"upload of {path}: HTTP {r.status}")


def cpu_seconds(pid):
    """User and system CPU-seconds a process has used so far (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def convert(src, out, par, schema, tfile, server, cores):
    argv = pinned(cores, [bench.PARQ, "convert", src, "-o", out, "--overwrite", "--compression", "snappy",
                          "--parallelism", str(par), "--no-progress", *bench.schema_args(schema), *S3_FLAGS])
    # What the last case left to write back (S3Mock's store, the last output) is written before
    # the clock starts, so that no case pays for the one before it.
    os.sync()
    server_cpu = cpu_seconds(server.pid)
    started = time.monotonic()
    proc = bench.start_timed(argv, dict(os.environ), tfile, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, err = proc.communicate()
    wall = time.monotonic() - started
    server_cpu = cpu_seconds(server.pid) - server_cpu
    stats = bench.time_stats(tfile)
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {proc.returncode}\n{err}")
    return {"wall_s": round(wall, 2), "server_cpu_s": round(server_cpu, 2), **stats}


def run_case(case, corpus, work, round_name, a, server):
    """One conversion of `case` ("s3-to-local", ...): the corpus from its side, into an output of the round's."""
    source, target = case.split("-to-")
    src = {"local": corpus["path"], "s3": f"s3a://{BUCKET}/corpus.ndjson"}[source]
    out = {"local": os.path.join(work, "out"), "s3": f"s3a://{BUCKET}/out-{round_name}"}[target]
    return convert(src, out, a.parallelism, a.parq_schema, os.path.join(work, "time.txt"), server, a.parq_cores)


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/s3", description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="1g", help="corpus size, binary units (default 1g)")
    ap.add_argument("--runs", type=int, default=3, help="rounds; medians are reported (default 3)")
    ap.add_argument("--parallelism", type=int, default=None,
                    help="parq's parallelism (default: the cores parq runs on)")
    ap.add_argument("--split-cores", action="store_true",
                    help="S3Mock on the last core, parq on the others, in every case (needs 2 cores or more)")
    ap.add_argument("--data-dir", default=bench.default_data_dir(), metavar="DIR")
    ap.add_argument("--parq-schema", default=os.path.join(HERE, "app-logs.ddl"), metavar="FILE")
    a = ap.parse_args(argv)
    cores = os.cpu_count() or 1
    if a.split_cores and cores < 2:
        sys.exit("--split-cores needs at least 2 cores")
    a.parq_cores = (f"0-{cores - 2}" if cores > 2 else "0") if a.split_cores else None
    server_cores = str(cores - 1) if a.split_cores else None
    if a.parallelism is None:
        a.parallelism = cores - 1 if a.split_cores else cores
    if not os.path.isfile(S3MOCK_JAR):
        sys.exit(f"no S3Mock jar at {S3MOCK_JAR}: build first (mvn -DskipTests package -pl job -am)")
    corpus = gen.corpus(a.size, a.data_dir)
    work = os.path.join(a.data_dir, "s3-bench")
    os.makedirs(work, exist_ok=True)
    store = os.path.join(work, "store")
    shutil.rmtree(store, ignore_errors=True)     # an earlier run's bucket and outputs
    os.makedirs(store)
    server = start_server(store, server_cores)
    try:
        request("PUT")
        upload(corpus["path"], "corpus.ndjson")
        runs = {case: [] for case in CASES}
        # An untimed round first: S3Mock's JVM compiles its request handling on its first requests,
        # which an object store that has been up for a while does not.
        for case in CASES:
            run_case(case, corpus, work, "warm", a, server)
        print("untimed round: done", flush=True)
        for i in range(a.runs):
            for case in CASES:
                runs[case].append(run_case(case, corpus, work, str(i), a, server))
            print(f"round {i + 1}: " + ", ".join(f"{c} {runs[c][-1]['wall_s']} s" for c in CASES), flush=True)
    finally:
        server.terminate()
        server.wait()
    mb = corpus["bytes"] / 1e6
    base = statistics.median(r["wall_s"] for r in runs["local-to-local"])
    summary = {}
    for case in CASES:
        wall = statistics.median(r["wall_s"] for r in runs[case])
        summary[case] = {"wall_s": wall, "mb_per_s": round(mb / wall, 1), "of_local": round(base / wall, 2),
                         "cpu_s": statistics.median(r["cpu_s"] for r in runs[case]),
                         "server_cpu_s": statistics.median(r["server_cpu_s"] for r in runs[case]),
                         "peak_rss_mib": round(max(r["peak_rss_kib"] for r in runs[case]) / 1024)}
        print(f"{case:15} {wall:7.2f} s  {mb / wall:7.1f} MB/s  {base / wall:5.2f}x local  "
              f"cpu {summary[case]['cpu_s']} s (server {summary[case]['server_cpu_s']} s)  "
              f"rss {summary[case]['peak_rss_mib']} MiB")
    with open(os.path.join(work, "result.json"), "w") as f:
        json.dump({"size": a.size, "bytes": corpus["bytes"], "parallelism": a.parallelism,
                   "parq_cores": a.parq_cores, "server_cores": server_cores, "runs": runs,
                   "summary": summary}, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1:])
