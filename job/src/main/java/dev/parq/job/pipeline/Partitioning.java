package dev.parq.job.pipeline;

import java.io.Serializable;
import java.time.ZoneId;
import java.util.Optional;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.types.logical.RowType;

import dev.parq.sink.partition.PartitionOptions;
import dev.parq.sink.partition.PartitionSpec;

/** The output's partition folders, if any, and how many part files a writer keeps open. */
public record Partitioning(Optional<PartitionSpec> spec, int maxOpen) implements Serializable {

    /**
     * The partitions {@code config} asks for, of rows of {@code rowType}.
     *
     * @throws ConversionException a usage error naming an expression that names no column, or a
     *     column of a type it cannot take
     */
    static Partitioning of(Configuration config, RowType rowType) throws ConversionException {
        Optional<String> expressions = config.getOptional(PartitionOptions.PARTITION_BY)
                .map(String::trim).filter(e -> !e.isEmpty());
        try {
            return new Partitioning(expressions.map(e -> PartitionSpec.parse(e, rowType,
                    ZoneId.of(config.get(PartitionOptions.TIME_ZONE)))), config.get(PartitionOptions.MAX_OPEN));
        } catch (IllegalArgumentException e) {
            throw ConversionException.usage(e.getMessage());
        }
    }

    /** The type of the rows as the files store them: the partition columns whose values are folders left out. */
    public RowType fileType(RowType rowType) {
        return spec.map(PartitionSpec::fileType).orElse(rowType);
    }
}
