package dev.parq.job.run;

/**
 * Where a running ingest is, from its Flink metrics and counters: lines parsed and rejected since
 * this start and lines per second over the last report; bytes in the followed files not read yet
 * (lag); files followed; rotations, truncations and copies seen; bytes lost (deleted or truncated
 * before they were read); the newest checkpoint committed (0 before the first).
 */
public record IngestStatus(long lines, long rejected, long linesPerSecond, long bytesBehind, long files,
        long rotations, long truncations, long copies, long bytesLost, long lastCommitted) {}
