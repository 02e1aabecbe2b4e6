#!/usr/bin/env python3
"""One NDJSON -> Parquet (snappy) conversion with a peer tool; run by bench/run under /usr/bin/time.

    python3 bench/peers.py duckdb|polars|pyarrow INPUT OUTPUT.parquet THREADS

Each tool is used the way its documentation suggests for this job, with schema inference:
  duckdb   COPY (SELECT * FROM read_json(F, format='newline_delimited')) TO out (FORMAT parquet,
           COMPRESSION snappy), after SET threads = THREADS
  polars   pl.scan_ndjson(F).sink_parquet(out, compression='snappy'); POLARS_MAX_THREADS=THREADS
           is set by bench/run before this process starts (polars reads it at import)
  pyarrow  pyarrow.json.open_json(F) streamed (4 MiB blocks) into a pq.ParquetWriter (snappy),
           batches gathered into row groups of >= 128Ki rows; pa.set_cpu_count(THREADS)
"""
import sys


def duckdb_convert(src, out, threads):
    import duckdb
    con = duckdb.connect()
    con.execute(f"SET threads = {int(threads)}")
    q = src.replace("'", "''")
    o = out.replace("'", "''")
    con.execute(f"COPY (SELECT * FROM read_json('{q}', format='newline_delimited')) "
                f"TO '{o}' (FORMAT parquet, COMPRESSION snappy)")


def polars_convert(src, out, threads):
    import polars as pl
    pl.scan_ndjson(src).sink_parquet(out, compression="snappy")


def pyarrow_convert(src, out, threads):
    import pyarrow as pa
    import pyarrow.json as pj
    import pyarrow.parquet as pq
    pa.set_cpu_count(int(threads))
    reader = pj.open_json(src, read_options=pj.ReadOptions(block_size=4 << 20))
    buf, rows = [], 0
    with pq.ParquetWriter(out, reader.schema, compression="snappy") as w:
        for batch in reader:
            buf.append(batch)
            rows += batch.num_rows
            if rows >= 1 << 17:
                w.write_table(pa.Table.from_batches(buf, schema=reader.schema))
                buf, rows = [], 0
        if buf:
            w.write_table(pa.Table.from_batches(buf, schema=reader.schema))


TOOLS = {"duckdb": duckdb_convert, "polars": polars_convert, "pyarrow": pyarrow_convert}


def versions():
    """Tool versions for the results file (imported in bench/run's own process)."""
    v = {}
    for name in TOOLS:
        try:
            v[name] = __import__(name).__version__
        except Exception as e:  # noqa: BLE001
            v[name] = f"unavailable: {e}"
    return v


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] not in TOOLS:
        sys.exit(__doc__)
    TOOLS[sys.argv[1]](sys.argv[2], sys.argv[3], sys.argv[4])
