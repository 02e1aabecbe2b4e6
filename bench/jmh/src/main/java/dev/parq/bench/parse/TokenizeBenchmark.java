package dev.parq.parse.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import dev.parq.parse.tape.Tokenizer;

/**
 * Throughput of the {@link Tokenizer} alone over the same log lines as {@link ParseBenchmark}, per
 * core of CPU time. With no Arrow vectors involved it varies far less from run to run, so it shows
 * tokenizer changes of a few percent that the whole-parser figure hides.
 * Run: {@code java -cp <test classpath> dev.parq.parse.bench.TokenizeBenchmark [megabytes] [rounds]}.
 */
public final class TokenizeBenchmark {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private TokenizeBenchmark() {}

    public static void main(String[] args) {
        int megabytes = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
        byte[] data = ParseBenchmark.generate(megabytes * 1_000_000L);
        Tokenizer tokenizer = new Tokenizer();
        for (int round = 0; round < rounds; round++) {
            long cpuStart = CPU.getCurrentThreadCpuTime();
            int pos = 0;
            while (pos < data.length) {
                if (tokenizer.scan(data, pos, data.length) != Tokenizer.OBJECT) {
                    throw new IllegalStateException(tokenizer.errorReason() + " at " + tokenizer.errorPosition());
                }
                pos = tokenizer.lineEnd() + 1;
            }
            double cpuSeconds = (CPU.getCurrentThreadCpuTime() - cpuStart) / 1e9;
            System.out.printf("round %d: %.0f MB/s per core%n", round + 1, data.length / 1e6 / cpuSeconds);
        }
    }
}
