package dev.parq.parse.operator;

/**
 * Names of the accumulators and metrics the parse operator keeps; the job reads the accumulators
 * for its progress line and manifest, the Flink web UI shows the metrics.
 */
public final class ConversionCounters {

    public static final String BYTES_IN = "parq.bytes-in";
    public static final String RECORDS_IN = "parq.records-in";
    public static final String REJECTED = "parq.rejected";
    public static final String UNKNOWN_FIELDS = "parq.unknown-fields";

    public static final String METRIC_BYTES_IN = "parqBytesIn";
    public static final String METRIC_RECORDS_IN = "parqRecordsIn";
    public static final String METRIC_ROWS_OUT = "parqRowsOut";
    public static final String METRIC_REJECTED = "parqRejectedLines";

    private ConversionCounters() {}
}
