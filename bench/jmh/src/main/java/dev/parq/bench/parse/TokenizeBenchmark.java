package dev.parq.bench.parse;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import dev.parq.bench.StageBenchmark;
import dev.parq.bench.Throughput;
import dev.parq.json.Tokenizer;

/**
 * Throughput of the {@link Tokenizer} alone over the same log lines as {@link ParseBenchmark}. With
 * no Arrow vectors involved it varies far less from run to run, so it shows tokenizer changes of a
 * few percent that the whole-parser figure hides.
 */
public class TokenizeBenchmark extends StageBenchmark {

    /** Size of the generated corpus. */
    @Param("64")
    public int megabytes;

    private byte[] data;
    private final Tokenizer tokenizer = new Tokenizer();

    @Setup(Level.Trial)
    public void generateCorpus() {
        data = ParseBenchmark.generate(megabytes * 1_000_000L);
    }

    @Benchmark
    public long tokenize(Throughput throughput) {
        long lines = 0;
        int pos = 0;
        while (pos < data.length) {
            if (tokenizer.scan(data, pos, data.length) != Tokenizer.OBJECT) {
                throw new IllegalStateException(tokenizer.errorReason() + " at " + tokenizer.errorPosition());
            }
            pos = tokenizer.lineEnd() + 1;
            lines++;
        }
        throughput.bytes += data.length;
        throughput.rows += lines;
        return lines;
    }
}
