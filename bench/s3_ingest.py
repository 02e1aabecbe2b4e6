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
    """Puts `a.listing` empty-ish objects under flat/ and reads how long ingest's listing of the
    prefix takes (its log says, for the first listing): the cost of a prefix that keeps its history."""
    from concurrent.futures import ThreadPoolExecutor
    body = b'{"seq":1}\n'

    def put(i):
        req = urllib.request.Request(f"{s3.ENDPOINT}/{s3.BUCKET}/flat/part-{i:07d}.ndjson", method="PUT", data=body)
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status

    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        for status in pool.map(put, range(a.listing)):
            if status // 100 != 2:
                sys.exit(f"upload: HTTP {status}")
    print(f"{a.listing:,} objects uploaded in {time.monotonic() - started:.0f} s", flush=True)
    outdir = os.path.join(work, "listing")
    argv = [bench.PARQ, "ingest", f"s3a://{s3.BUCKET}/flat/", "-o", outdir, "--start-at", "end",
            "--discover-interval", "1s", *bench.schema_args(a.parq_schema), *s3.S3_FLAGS]
    run = ingest.Ingest(None, outdir, a, argv=argv)
    deadline = time.monotonic() + a.timeout
    took = None
    while time.monotonic() < deadline and took is None:
        m = re.search(r"listing the inputs took (\d+) ms for (\d+) objects", run.output())
        took = int(m.group(1)) if m else None
        if run.failure():
            sys.exit(run.failure())
        time.sleep(1)
    run.stop()
    print(f"listing s3a://{s3.BUCKET}/flat/ ({a.listing:,} objects, flat): {took} ms", flush=True)
    return took


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
                    help="instead: put N small objects under one flat prefix and time ingest's listing of it")
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
