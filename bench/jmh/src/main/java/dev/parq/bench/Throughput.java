package dev.parq.bench;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a benchmark's operations got through, which JMH reports per second next to the operations:
 * {@code bytes} of input (NDJSON, or the mapped array) and {@code rows} (array elements for the
 * sums), the figures to compare with bench/run's MB/s and rows/s.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.OPERATIONS)
public class Throughput {

    public long bytes;
    public long rows;

    @Setup(Level.Iteration)
    public void reset() {
        bytes = 0;
        rows = 0;
    }
}
