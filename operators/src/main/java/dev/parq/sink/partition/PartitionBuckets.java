package dev.parq.sink.partition;

import dev.parq.sink.ParquetWriterOptions;

/**
 * The file sink's bucket assigner and rolling policy for partitioned (or unpartitioned) output,
 * made together: they share the count of part files open.
 */
public record PartitionBuckets(PartitionAssigner assigner, PartFileRolling rolling) {

    /** Files of {@code options}' target size, at most {@code maxOpen} of them open per writer. */
    public static PartitionBuckets of(ParquetWriterOptions options, int maxOpen) {
        OpenPartitions open = new OpenPartitions(maxOpen);
        return new PartitionBuckets(new PartitionAssigner(open),
                new PartFileRolling(options.targetFileSize(), options.fileSizeSlack(), open));
    }
}
