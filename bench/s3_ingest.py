#!/usr/bin/env python3
"""parq ingest of an object-store prefix against convert of the same prefix, in the same run:
`bench/s3-ingest` calls this file inside a private network namespace, with one S3Mock server on
127.0.0.1:9090.

The corpus is cut at line ends into OBJECTS objects under backlog/HH/ (every other one gzip), as a
log shipper leaves them. Then, in turns: `convert s3a://bench/backlog/` to a local folder, and
`ingest s3a://bench/backlog/` to another, timed from its start until every line is visible (the
catch-up). While that ingest runs, small objects are uploaded one at a time and the time from each
upload's completion to its rows being visible is the discovery lag. Visibility waits for a
checkpoint and the compaction after it: the settings used are printed beside the figures."""
import argparse
import datetime
import gzip
import json
import os
import re
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
import ingest  # noqa: E402
import s3  # noqa: E402

# The launcher's JVM options (./parq), which PARQ_JAVA_OPTS replaces.
DEFAULT_JAVA_OPTS = "-Xms256m -Xmx256m -XX:+UseParallelGC -XX:MaxTenuringThreshold=0"
ENUMERATOR = "dev.parq.source.enumerator.ObjectEnumerator"


def cut(corpus, count, into):
    """The corpus in `count` objects ending at line ends, every other one gzip: (key, path, lines)."""
    size = os.path.getsize(corpus["path"])
    objects = []
    with open(corpus["path"], "rb") as f:
        for i in range(count):
            data = f.read(size // count) + f.readline() if i < count - 1 else f.read()
            if not data:
                break
            gz = i % 2 == 1
            key = f"backlog/{i // 8:02d}/part-{i:05d}.ndjson" + (".gz" if gz else "")
            path = os.path.join(into, key.replace("/", "_"))
            with open(path, "wb") as out:
                out.write(gzip.compress(data, compresslevel=1) if gz else data)
            objects.append((key, path, data.count(b"\n")))
    return objects


def convert(a, outdir):
    argv = [bench.PARQ, "convert", f"s3a://{s3.BUCKET}/backlog/", "-o", outdir, "--overwrite", "--parallelism",
            str(a.parallelism), "--no-progress", *bench.schema_args(a.parq_schema), *s3.S3_FLAGS]
    tfile = outdir + ".time"
    started = time.monotonic()
    proc = bench.start_timed(argv, dict(os.environ), tfile, stdout=subprocess.DEVNULL)
    proc.wait()
    wall = time.monotonic() - started
    if proc.returncode != 0:
        sys.exit(f"{' '.join(argv)}: exit {proc.returncode}")
    return {"wall_s": round(wall, 2), **bench.time_stats(tfile)}


def follow(a, outdir, lines, lag_samples):
    """ingest of the prefix: seconds until `lines` rows are visible, then the lag of small uploads."""
    shutil.rmtree(outdir, ignore_errors=True)
    argv = [bench.PARQ, "ingest", f"s3a://{s3.BUCKET}/backlog/", "-o", outdir, "-p", str(a.parallelism),
            "--checkpoint-interval", a.checkpoint_interval, "--compaction-interval", a.compaction_interval,
            "--discover-interval", a.discover_interval, *bench.schema_args(a.parq_schema), *s3.S3_FLAGS]
    run = ingest.Ingest(None, outdir, a, argv=argv)
    done = run.wait_rows(lines, a.timeout)
    if isinstance(done, str):
        run.stop()
        sys.exit(f"catch-up {done}\n{run.output()[-3000:]}")
    catch_up = done - run.t0
    lags = []
    small = os.path.join(os.path.dirname(outdir), "small.ndjson")
    with open(a.corpus_path, "rb") as f:
        sample = b"".join(f.readline() for _ in range(1000))
    with open(small, "wb") as out:
        out.write(sample)
    for i in range(lag_samples):
        time.sleep(a.lag_pause)
        s3.upload(small, f"backlog/99/late-{i:03d}.ndjson")
        uploaded = time.monotonic()
        lines += 1000
        seen = run.wait_rows(lines, a.timeout)
        if isinstance(seen, str):
            run.stop()
            sys.exit(f"lag sample {i}: {seen}")
        lags.append(round(seen - uploaded, 2))
    stopped = run.stop()
    return {"catch_up_s": round(catch_up, 2), "lags_s": lags, **stopped}


def listing(a, work):
    """Puts `a.listing` small objects under listing/, flat or in `a.folders` date-named folders
    (2026-01-01/, 2026-01-02/, ...), and, once the look-back has passed, `a.recent` more after them
    (a newer folder, or later names); then follows the prefix with each of `a.key_order` and reads
    from its log how long its first listing and its later discoveries take, and how many folders
    each lists: the cost of a prefix that keeps its history."""
    from concurrent.futures import ThreadPoolExecutor
    body = b'{"seq":1}\n'

    def key(i):
        if not a.folders:
            return f"listing/part-{i:07d}.ndjson"
        day = datetime.date(2026, 1, 1) + datetime.timedelta(days=i * a.folders // a.listing)
        return f"listing/{day.isoformat()}/part-{i:07d}.ndjson"

    def put(i):
        req = urllib.request.Request(f"{s3.ENDPOINT}/{s3.BUCKET}/{key(i)}", method="PUT", data=body)
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status

    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        for status in pool.map(put, range(a.listing)):
            if status // 100 != 2:
                sys.exit(f"upload: HTTP {status}")
    print(f"{a.listing:,} objects uploaded in {time.monotonic() - started:.0f} s"
          f" ({f'{a.folders} date-named folders' if a.folders else 'flat'})", flush=True)
    time.sleep(seconds(a.look_back) + 2)
    newest = a.listing * (a.folders + 1) // a.folders if a.folders else a.listing
    for i in range(newest, newest + a.recent):
        put(i)
    # The enumerator tells every listing's cost at DEBUG, the first at INFO.
    os.environ["PARQ_JAVA_OPTS"] = (os.environ.get("PARQ_JAVA_OPTS", DEFAULT_JAVA_OPTS)
                                    + " -Dorg.apache.logging.log4j.simplelog." + ENUMERATOR + ".level=DEBUG")
    results = {}
    for order in a.key_order.split(","):
        outdir = os.path.join(work, f"listing-{order}")
        argv = [bench.PARQ, "ingest", f"s3a://{s3.BUCKET}/listing/", "-o", outdir, "--start-at", "end",
                "--discover-interval", "1s", "--look-back", a.look_back, "--key-order", order,
                *bench.schema_args(a.parq_schema), *s3.S3_FLAGS]
        run = ingest.Ingest(None, outdir, a, argv=argv)
        deadline = time.monotonic() + a.timeout
        listings = []
        while time.monotonic() < deadline and len(listings) < 1 + a.discoveries:
            listings = [tuple(map(int, m)) for m in re.findall(
                r"listing the inputs took (\d+) ms for (\d+) objects in (\d+) folders", run.output())]
            if run.failure():
                sys.exit(run.failure())
            time.sleep(1)
        run.stop()
        if len(listings) < 1 + a.discoveries:
            sys.exit(f"key order {order}: {len(listings)} listings in {a.timeout} s")
        first, later = listings[0], listings[1:1 + a.discoveries]
        results[order] = {"first": dict(zip(("ms", "objects", "folders"), first)),
                          "later_ms": [x[0] for x in later], "later_objects": [x[1] for x in later],
                          "later_folders": [x[2] for x in later]}
        print(f"key order {order:4}: first listing {first[0]:6,} ms ({first[1]:,} objects, {first[2]} folders);"
              f" later discoveries median {statistics.median(x[0] for x in later):6,.0f} ms"
              f" ({statistics.median(x[1] for x in later):,.0f} objects,"
              f" {statistics.median(x[2] for x in later):.0f} folders), {len(later)} discoveries", flush=True)
    with open(os.path.join(work, "listing.json"), "w") as f:
        json.dump({"objects": a.listing + a.recent, "folders": a.folders, "look_back": a.look_back,
                   "results": results}, f, indent=1)
    return results


def seconds(duration):
    """Seconds of a duration as parq's options spell it: 5s, 2min, 1h."""
    m = re.fullmatch(r"(\d+)\s*(ms|s|min|h)", duration)
    if not m:
        sys.exit(f"--look-back {duration}: give ms, s, min or h")
    return int(m.group(1)) * {"ms": 0.001, "s": 1, "min": 60, "h": 3600}[m.group(2)]


def main(argv):
    ap = argparse.ArgumentParser(prog="bench/s3-ingest", description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default="256m", help="backlog size, binary units (default 256m)")
    ap.add_argument("--objects", type=int, default=64, help="objects the backlog is cut into (default 64)")
    ap.add_argument("--runs", type=int, default=2, help="rounds; medians are reported (default 2)")
    ap.add_argument("--lag-samples", type=int, default=5, help="small uploads timed per round (default 5)")
    ap.add_argument("--lag-pause", type=float, default=3.0, help="seconds between them (default 3)")
    ap.add_argument("--parallelism", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--checkpoint-interval", default="2s")
    ap.add_argument("--compaction-interval", default="2s")
    ap.add_argument("--discover-interval", default="1s")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--listing", type=int, default=0, metavar="N",
                    help="instead: put N small objects under one prefix and time ingest's listings of it")
    ap.add_argument("--folders", type=int, default=0, metavar="F",
                    help="with --listing: spread them over F date-named folders (default 0: flat)")
    ap.add_argument("--key-order", default="none,time", metavar="LIST",
                    help="with --listing: the --key-order values to follow the prefix with (default none,time)")
    ap.add_argument("--look-back", default="5s", metavar="DURATION",
                    help="with --listing: ingest's --look-back; the newest objects land this long after the"
                         " others (default 5s)")
    ap.add_argument("--recent", type=int, default=10, metavar="N",
                    help="with --listing: objects put after the look-back, after the others (default 10)")
    ap.add_argument("--discoveries", type=int, default=10, metavar="N",
                    help="with --listing: later discoveries timed after the first listing (default 10)")
    ap.add_argument("--data-dir", default=bench.default_data_dir(), metavar="DIR")
    ap.add_argument("--parq-schema", default=os.path.join(HERE, "app-logs.ddl"), metavar="FILE")
    a = ap.parse_args(argv)
    if not os.path.isfile(s3.S3MOCK_JAR):
        sys.exit(f"no S3Mock jar at {s3.S3MOCK_JAR}: build first (mvn -DskipTests package -pl job -am)")
    corpus = gen.corpus(a.size, a.data_dir)
    a.corpus_path = corpus["path"]
    work = os.path.join(a.data_dir, "s3-ingest-bench")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    store = os.path.join(work, "store")
    os.makedirs(store)
    server = s3.start_server(store)
    try:
        s3.request("PUT")
        if a.listing:
            listing(a, work)
            return
        objects = cut(corpus, a.objects, work)
        for key, path, _ in objects:
            s3.upload(path, key)
        lines = sum(n for _, _, n in objects)
        print(f"backlog: {len(objects)} objects, {corpus['bytes'] / 1e6:.0f} MB, {lines:,} lines", flush=True)
        convert(a, os.path.join(work, "warm"))
        rounds = []
        for i in range(a.runs):
            c = convert(a, os.path.join(work, "convert"))
            f = follow(a, os.path.join(work, f"ingest-{i}"), lines, a.lag_samples)
            for j in range(a.lag_samples):
                s3.request("DELETE", f"backlog/99/late-{j:03d}.ndjson")
            rounds.append({"convert": c, "ingest": f})
            print(f"round {i + 1}: convert {c['wall_s']} s, ingest catch-up {f['catch_up_s']} s, lags {f['lags_s']}",
                  flush=True)
    finally:
        server.terminate()
        server.wait()
    mb = corpus["bytes"] / 1e6
    conv = statistics.median(r["convert"]["wall_s"] for r in rounds)
    catch = statistics.median(r["ingest"]["catch_up_s"] for r in rounds)
    lags = sorted(x for r in rounds for x in r["ingest"]["lags_s"])
    print(f"convert s3a://…/backlog/  {conv:7.2f} s  {mb / conv:6.1f} MB/s")
    print(f"ingest catch-up           {catch:7.2f} s  {mb / catch:6.1f} MB/s  {conv / catch:4.2f}x convert"
          f"  (checkpoint {a.checkpoint_interval}, compaction {a.compaction_interval},"
          f" discover {a.discover_interval})")
    print(f"discovery lag (upload → visible): median {statistics.median(lags):.2f} s, max {max(lags):.2f} s,"
          f" {len(lags)} uploads")
    with open(os.path.join(work, "result.json"), "w") as f:
        json.dump({"size": a.size, "objects": len(objects), "bytes": corpus["bytes"], "lines": lines,
                   "settings": vars(a), "rounds": rounds}, f, indent=1, default=str)


if __name__ == "__main__":
    main(sys.argv[1:])
