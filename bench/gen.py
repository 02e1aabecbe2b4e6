#!/usr/bin/env python3
"""Deterministic application-log NDJSON corpus for the parq benchmark.

    python3 bench/gen.py SIZE OUT [--seed N]        e.g.  bench/gen.py 100m /tmp/parq-bench/x.ndjson

The same SIZE and seed give the same bytes on every machine and Python >= 3.8: nothing here uses
`random`, hash(), floats or the clock. A pool of a few thousand distinct line templates (level,
service, host, status, user name/country, tags, message, error...) is built once with `json`,
then lines are written in a pseudo-random order over the pool, each with its own timestamp,
trace id, latency, user id and byte count filled in by plain string formatting (that is what keeps
generation above 100 MB/s in pure Python).

Per line: ts (strictly increasing, ISO-8601 UTC with millis and 'Z'), trace_id (32 hex, distinct),
latency_ms (float, distinct), user.id (distinct), bytes (int64, some above 2^32), ~5% of lines
with an `error` object. Messages contain JSON escapes (\\" \\\\ \\t \\n) and non-ASCII text.
The file stops at the last whole line that fits in SIZE bytes.
"""
import hashlib
import json
import os
import random
import queue
import sys
import threading
import time

GEN_VERSION = 1          # bump when the output changes; part of the cache key
DEFAULT_SEED = 42
POOL = 4093              # templates (prime, so the cycling below visits them all)
MASK64 = (1 << 64) - 1
MASK128 = (1 << 128) - 1


def parse_size(s: str) -> int:
    """'10m' -> 10 MiB, '1g' -> 1 GiB, '512k', '123' (bytes). Binary units."""
    t = s.strip().lower().removesuffix("b").removesuffix("i")
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    if t and t[-1] in mult:
        return int(float(t[:-1]) * mult[t[-1]])
    return int(t)


def size_label(s: str) -> str:
    return s.strip().lower().removesuffix("b").removesuffix("i")


class SplitMix64:
    """Tiny portable PRNG: identical sequence on every platform and Python version."""

    def __init__(self, seed: int):
        self.s = seed & MASK64

    def next(self) -> int:
        self.s = (self.s + 0x9E3779B97F4A7C15) & MASK64
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]


LEVELS = ["INFO"] * 14 + ["DEBUG"] * 3 + ["WARN"] * 2 + ["ERROR"]
SERVICES = ["checkout", "billing", "auth", "search", "catalog", "gateway", "inventory",
            "notifications", "recommendations", "payments", "shipping", "profile"]
REGIONS = ["eu-west-1", "us-east-1", "ap-northeast-1", "sa-east-1"]
STATUSES = [200] * 12 + [201, 204, 301, 304, 400, 401, 403, 404, 404, 409, 429, 500, 502, 503]
NAMES = ["ana", "bo", "José", "Zoë", "François", "Łukasz", "Søren", "Björk", "田中", "山本 花子",
         "Иван", "Αλέξης", "محمد", "Nguyễn", "Olúwasẹ́gun", "priya", "chen wei", "O'Brien",
         "mary-jane", "dmitri"]
COUNTRIES = ["FR", "DE", "US", "JP", "BR", "IN", "PL", "DK", "IS", "NG", "VN", "GR", "EG", "RU",
             "GB", "ES", "CA", "CN"]
TAGS = ["web", "mobile", "api", "beta", "eu", "us", "apac", "canary", "cache-hit", "cache-miss",
        "retry", "slow", "batch", "internal", "v2", "experiment-7", "日本", "café"]
PATHS = ["/api/v2/orders", "/api/v2/orders/{id}", "/login", "/search?q=caf%C3%A9", "/cart",
         "/api/v1/items/{id}/reviews", "/health", "/checkout/confirm", "/static/app.js"]
MESSAGES = [
    "request served in {ms} ms path={path}",
    "user \"{name}\" logged in from {country}",
    "cache miss for key \"product:{n}\"; falling back to DB",
    "utilisateur connecté: {name} — session ouverte, préférences chargées",
    "注文を受け付けました (order {n}) 日本からのリクエスト",
    "payment accepted ✅ amount={n}.{m} EUR 💶",
    "slow query:\n\tSELECT * FROM orders WHERE id = {n}\n\tduration={ms}ms",
    "file saved to C:\\data\\exports\\report-{n}.csv",
    "retrying upstream call (attempt {m}/5) \"{path}\" 🔁",
    "payload: {{\"sku\": \"A-{n}\", \"qty\": {m}, \"note\": \"fragile\\tglass\"}}",
    "Größe überschritten: {n} Bytes > Limit; Anfrage abgelehnt",
    "rate limit hit for tenant t-{n} 🚦 window=60s\nheaders: X-Rate-Limit: {m}",
    "ответ отправлен клиенту {name}",
    "emoji test 🎉🔥👍 done; path={path}",
    "tab\tseparated\tvalues\t{n}\t{m}",
]
ERRORS = [
    {"type": "TimeoutException", "code": 504, "message": "upstream timed out after 30s",
     "retryable": True},
    {"type": "ValidationError", "code": 400, "message": "field \"email\" is invalid: é@x",
     "retryable": False},
    {"type": "NullPointerException", "code": 500,
     "message": "at dev.shop.Cart.total(Cart.java:42)\n\tat dev.shop.Api.handle(Api.java:7)",
     "retryable": False},
    {"type": "DbError", "code": 503, "message": "connection reset by peer (pool=main) 🔌",
     "retryable": True},
]


def build_pool(seed: int):
    """POOL line templates for the '%' operator: the per-line fields are %-slots, in order
    (ts_prefix, ms, trace_id, lat_int, lat_frac, bytes, user_id)."""
    rng = SplitMix64(seed)
    pool = []
    for k in range(POOL):
        status = rng.pick(STATUSES)
        level = "ERROR" if status >= 500 else rng.pick(LEVELS)
        service = rng.pick(SERVICES)
        host = f"{service}-{rng.below(40):02d}.{rng.pick(REGIONS)}"
        name = rng.pick(NAMES)
        country = rng.pick(COUNTRIES)
        ntags = rng.below(5)
        tags = [rng.pick(TAGS) for _ in range(ntags)]
        msg = rng.pick(MESSAGES).format(ms=rng.below(5000), path=rng.pick(PATHS),
                                        name=name, country=country,
                                        n=rng.below(10_000_000), m=rng.below(100))
        # pad messages a little so lines average ~380 bytes
        if rng.below(3) == 0:
            msg += " | ctx: " + " ".join(rng.pick(TAGS) for _ in range(2 + rng.below(6)))
        # ~5% of lines carry an error object (the pool is cycled uniformly)
        err = None
        if rng.below(100) < 5:
            err = dict(rng.pick(ERRORS))
            err["attempt"] = 1 + rng.below(3)
        # lat_int range by status class; bytes base, some lines above 2^32 (int64 needed)
        lat_int = rng.below(40) if status < 400 else 40 + rng.below(2000)
        big = rng.below(100) == 0
        d = {
            "ts": "@@TS@@",
            "level": level,
            "service": service,
            "host": host,
            "trace_id": "@@TR@@",
            "latency_ms": "@@LAT@@",
            "status": status,
            "bytes": "@@BY@@",
            "user": {"id": "@@UID@@", "name": name, "country": country},
            "tags": tags,
            "message": msg,
        }
        if err is not None:
            d["error"] = err
        s = json.dumps(d, ensure_ascii=False, separators=(",", ":"))
        s = s.replace("%", "%%")
        s = s.replace('"@@TS@@"', '"%s%03dZ"')
        s = s.replace('"@@TR@@"', '"%032x"')
        s = s.replace('"@@LAT@@"', str(lat_int) + ".%09d")
        s = s.replace('"@@BY@@"', "%d")
        s = s.replace('"@@UID@@"', "%d")
        assert "@@" not in s
        pool.append((s + "\n", (1 << 32) if big else 0))
    # a pseudo-random visiting order over the pool, longer than the pool
    order = [rng.below(POOL) for _ in range(POOL * 7 + 3)]
    return pool, order


BLOCK = 20000            # lines per block; blocks are independent, so they can be made in parallel
_W = {}                  # per-process state: templates of the pool and the visiting order


def _init(seed: int):
    pool, order = build_pool(seed)
    _W.update(seed=seed, tpls=[p[0] for p in pool], bigs=[p[1] for p in pool], order=order)


def _block(i0: int) -> bytes:
    """Lines i0 .. i0+BLOCK-1, UTF-8."""
    seed, tpls, bigs, order = _W["seed"], _W["tpls"], _W["bigs"], _W["order"]
    norder = len(order)
    base = 1_780_000_000_000 + (seed % 1000) * 86_400_000  # 2026-05-28 + seed days, in ms
    sd = seed * 0x1000193
    C = 0x9E3779B97F4A7C15F39CC0605CEDC835                   # odd: j -> j*C mod 2^128 is 1:1
    K = 0x5851F42D4C957F2D
    M = MASK128
    idx = range(i0, i0 + BLOCK)
    s0 = (base + 3 * i0) // 1000
    s1 = (base + 3 * (i0 + BLOCK) + 3) // 1000
    pref = [time.strftime("%Y-%m-%dT%H:%M:%S.", time.gmtime(s)) for s in range(s0, s1 + 1)]
    ords = [order[j % norder] for j in idx]
    # per line j: ts strictly increasing (3 ms steps + 0..2 ms jitter), distinct trace id
    # (bijection of j), latency fraction (j*3^18 mod 10^9, 1:1 for j < 10^9), user id
    # (j*2654435761 mod 10^11, 1:1), bytes (some templates add 2^32)
    buf = [tpls[o] % (pref[(m := base + 3 * j + (j * 0x9E3779B1 >> 7) % 3) // 1000 - s0],
                      m % 1000,
                      (((j + sd) * C) ^ K) & M,
                      (j * 387_420_489) % 1_000_000_000,
                      bigs[o] + 512 + (j * 40503) % 5_000_000,
                      100_000_000_000 + (j * 2_654_435_761) % 100_000_000_000)
           for j, o in zip(idx, ords)]
    return "".join(buf).encode("utf-8")


def generate(size: int, out_path: str, seed: int = DEFAULT_SEED, workers: int = 0) -> dict:
    """Write the corpus; returns {'bytes','lines','sha256','seconds'}. workers: processes making
    blocks (0 = one per core beyond the first on 4+ cores, else 1: on 2 cores the writer thread and
    the pipes eat the gain); the output does not depend on it."""
    ncpu = os.cpu_count() or 1
    workers = workers or (ncpu - 1 if ncpu >= 4 else 1)
    t0 = time.perf_counter()
    h = hashlib.sha256()
    written = 0
    lines = 0
    tmp = out_path + ".partial"
    # hashing and writing run in a thread (both release the GIL on big buffers)
    q = queue.Queue(maxsize=4)

    def sink(f):
        while (chunk := q.get()) is not None:
            f.write(chunk)
            h.update(chunk)

    pool = None
    if workers > 1:
        import multiprocessing
        pool = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn").Pool(
            workers, initializer=_init, initargs=(seed,))
    else:
        _init(seed)
    try:
        with open(tmp, "wb") as f:
            th = threading.Thread(target=sink, args=(f,), daemon=True)
            th.start()
            done = False
            i0 = 0
            while not done:
                wave = range(i0, i0 + BLOCK * 2 * workers, BLOCK)
                i0 = wave.stop
                blocks = pool.imap(_block, wave) if pool else map(_block, wave)
                for data in blocks:
                    if written + len(data) >= size:
                        cut = data.rfind(b"\n", 0, size - written)   # keep the whole lines that fit
                        data = data[:cut + 1] if cut >= 0 else b""
                        done = True
                    lines += data.count(b"\n")
                    q.put(data)
                    written += len(data)
                    if done:
                        break
            q.put(None)
            th.join()
    finally:
        if pool:
            pool.terminate()
    os.replace(tmp, out_path)
    return {"bytes": written, "lines": lines, "sha256": h.hexdigest(),
            "seconds": round(time.perf_counter() - t0, 3)}


# Corpora of long string values, by name: the length of each record's value.
VALUE_CORPORA = {"values-32k": 32_000, "values-320k": 320_000, "values-3m": 3_000_000}
CORPORA = ["app-logs", *VALUE_CORPORA]


def generate_values(size: int, value_bytes: int, out_path: str, seed: int = DEFAULT_SEED) -> dict:
    """Records {"id": N, "level": ..., "s": "<value_bytes of text>"}: log lines that carry a
    document body or a stack trace. Each value is its record's number followed by a stretch of a
    pool of numbered words from a random place, so that values compress about as well as log text
    and no two are the same."""
    rnd = random.Random(seed)
    t0 = time.perf_counter()
    words = ("at", "dev.parq.Job.run(Job.java:", "request", "user", "failed", "Caused by:", "timeout", "session")
    pool = " ".join(rnd.choice(words) + str(rnd.randrange(1_000_000)) for _ in range(1_000_000))
    pool = (pool * (2 + value_bytes // len(pool)))
    h = hashlib.sha256()
    written = lines = 0
    tmp = out_path + ".partial"
    with open(tmp, "wb") as f:
        while True:
            head = f"{lines}: "
            at = rnd.randrange(len(pool) - value_bytes)
            value = head + pool[at:at + value_bytes - len(head)]
            line = (f'{{"id":{lines},"level":"{rnd.choice(("INFO", "WARN", "ERROR"))}","s":"{value}"}}\n'
                    ).encode("ascii")
            if written + len(line) > size and lines > 0:
                break
            f.write(line)
            h.update(line)
            written += len(line)
            lines += 1
    os.replace(tmp, out_path)
    return {"bytes": written, "lines": lines, "sha256": h.hexdigest(),
            "seconds": round(time.perf_counter() - t0, 3)}


def corpus(size_str: str, data_dir: str, seed: int = DEFAULT_SEED, verify: bool = False,
           log=print, kind: str = "app-logs") -> dict:
    """Path and metadata of the cached corpus of a kind (CORPORA) for size+seed, generating it if needed."""
    size = parse_size(size_str)
    os.makedirs(data_dir, exist_ok=True)
    name = f"{kind}-{size_label(size_str)}-s{seed}-v{GEN_VERSION}.ndjson"
    path = os.path.join(data_dir, name)
    meta_path = path + ".meta.json"
    if os.path.exists(path) and os.path.exists(meta_path):
        with open(meta_path) as m:
            meta = json.load(m)
        ok = os.path.getsize(path) == meta.get("bytes") and meta.get("target") == size
        if ok and verify:
            log(f"verifying sha256 of {path} ...")
            ok = sha256_file(path) == meta.get("sha256")
        if ok:
            meta["path"] = path
            meta["cached"] = True
            return meta
        log(f"cached corpus {path} does not match its metadata: regenerating")
    log(f"generating {path} ({size_str}, seed {seed}) ...")
    meta = generate_values(size, VALUE_CORPORA[kind], path, seed) if kind in VALUE_CORPORA \
        else generate(size, path, seed)
    meta.update({"target": size, "seed": seed, "gen_version": GEN_VERSION})
    with open(meta_path, "w") as m:
        json.dump(meta, m, indent=1)
    log(f"  {meta['bytes']} bytes, {meta['lines']} lines in {meta['seconds']} s "
        f"({meta['bytes'] / 1e6 / max(meta['seconds'], 1e-9):.0f} MB/s), sha256 {meta['sha256']}")
    meta["path"] = path
    meta["cached"] = False
    return meta


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 22):
            h.update(chunk)
    return h.hexdigest()


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description="Generate the benchmark NDJSON corpus (deterministic).")
    ap.add_argument("size", help="target size, binary units: 10m, 100m, 1g, 4g")
    ap.add_argument("out", help="output file")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--workers", type=int, default=0, help="processes making blocks (default: cores-1 on 4+ cores, else 1)")
    a = ap.parse_args(argv)
    meta = generate(parse_size(a.size), a.out, a.seed, a.workers)
    print(json.dumps(meta))


if __name__ == "__main__":
    main(sys.argv[1:])
