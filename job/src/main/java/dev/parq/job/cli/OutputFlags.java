package dev.parq.job.cli;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

import dev.parq.sink.ParquetSinkOptions;
import dev.parq.sink.partition.PartitionOptions;
import picocli.CommandLine.Option;

/** How the Parquet output is laid out in files and folders; shared by convert and ingest. */
public final class OutputFlags {

    @Option(names = "--partition-by", paramLabel = "EXPR,...",
            description = "Hive-style folders, nested in the order given: day(COL), hour(COL), month(COL),"
                    + " year(COL) of a TIMESTAMP, TIMESTAMP_LTZ or DATE column (folder COL_day=2024-03-01; the"
                    + " column stays in the files), or a STRING, BOOLEAN, integer, DECIMAL or DATE column (folder"
                    + " COL=value; the files leave the column out). Null or empty: __HIVE_DEFAULT_PARTITION__."
                    + " Default: no folders.")
    String partitionBy;

    @Option(names = "--partition-time-zone", paramLabel = "ZONE",
            description = "Zone in which day(), hour(), month() and year() of a TIMESTAMP_LTZ are taken, e.g."
                    + " Europe/Paris or +02:00. Default: " + PartitionOptions.TIME_ZONE_DEFAULT + ".")
    String partitionTimeZone;

    @Option(names = "--max-open-partitions", paramLabel = "N",
            description = "Part files a writer keeps open at once; past it the least recently written"
                    + " partition's file is closed (it gets a new file if written again). Default: "
                    + PartitionOptions.MAX_OPEN_DEFAULT + ".")
    Integer maxOpenPartitions;

    @Option(names = "--target-file-size", paramLabel = "SIZE", converter = MemorySizeConverter.class,
            description = "Size of a part file: convert starts a new file at it (row groups are no larger);"
                    + " ingest compacts the files of its checkpoints into files of about it. Default: "
                    + ParquetSinkOptions.TARGET_FILE_SIZE_DEFAULT + ".")
    MemorySize targetFileSize;

    /** Sets the flags given on {@code config}. */
    void applyTo(Configuration config) {
        if (partitionBy != null) {
            config.set(PartitionOptions.PARTITION_BY, partitionBy);
        }
        if (partitionTimeZone != null) {
            config.set(PartitionOptions.TIME_ZONE, partitionTimeZone);
        }
        if (maxOpenPartitions != null) {
            config.set(PartitionOptions.MAX_OPEN, maxOpenPartitions);
        }
        if (targetFileSize != null) {
            config.set(ParquetSinkOptions.TARGET_FILE_SIZE, targetFileSize);
        }
    }
}
