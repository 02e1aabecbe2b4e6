package dev.parq.sink.column;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Writes one row group's pages of a top-level primitive column, one that is optional but neither
 * nested nor repeated and not dictionary encoded, straight to its {@link PageWriter}, bypassing
 * parquet-mr's column writer, which spends most of its time per value on what is done here per
 * page or in bulk: values are copied from the Arrow buffers in PLAIN encoding (little-endian, as
 * Arrow keeps them), definition levels are run-length encoded from the validity bits, and string
 * minimum and maximum are compared with {@link Arrays#compareUnsigned}.
 */
public final class PlainPageWriter implements PageColumnWriter {

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final ColumnDescriptor column;
    private final PrimitiveType type;
    private final PageWriter pages;
    private final int pageSize;
    private final int pageRowLimit;

    private byte[] values = new byte[64 * 1024];
    private int valuesLength;
    private long unencodedBytes;
    private final DefinitionLevels definitions;
    private final ByteSink levels = new ByteSink(256);
    private Statistics<?> statistics;
    private int minAt = -1;
    private int minLength;
    private int maxAt = -1;
    private int maxLength;
    private final StringSlice slice = new StringSlice();

    public PlainPageWriter(ColumnDescriptor column, PageWriter pages, int pageSize, int pageRowLimit) {
        this.column = column;
        this.definitions = DefinitionLevels.upTo(column.getMaxDefinitionLevel());
        this.type = column.getPrimitiveType();
        this.pages = pages;
        this.pageSize = pageSize;
        this.pageRowLimit = pageRowLimit;
        this.statistics = Statistics.createStats(type);
    }

    /** Whether a top-level column of {@code type} can be written by this class. */
    public static boolean supports(LogicalType type) {
        switch (type.getTypeRoot()) {
            case INTEGER:
            case DATE:
            case BIGINT:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
            case FLOAT:
            case DOUBLE:
            case CHAR:
            case VARCHAR:
                return true;
            default:
                return false;
        }
    }

    @Override
    public long bufferedSize() {
        return pages.getMemSize() + valuesLength + definitions.rows() / 8;
    }

    @Override
    public void write(LeafPath path, int start, int end) throws IOException {
        ValueVector vector = path.leaf();
        ArrowBuf[] validity = path.validityBuffers();
        while (start < end) {
            int to = Math.min(end, start + pageRowLimit - definitions.rows());
            definitions.reserve(to - start);
            if (vector instanceof VarCharVector) {
                appendStrings((VarCharVector) vector, validity, start, to);
            } else {
                appendFixedWidth((BaseFixedWidthVector) vector, validity, start, to);
            }
            start = to;
            if (definitions.rows() >= pageRowLimit || valuesLength >= pageSize) {
                writePage();
            }
        }
    }

    @Override
    public void flush() throws IOException {
        if (definitions.rows() > 0) {
            writePage();
        }
    }

    private void appendFixedWidth(BaseFixedWidthVector vector, ArrowBuf[] validity, int start, int end) {
        ArrowBuf data = vector.getDataBuffer();
        int count = end - start;
        growValues(valuesLength + count * Long.BYTES);
        switch (type.getPrimitiveTypeName()) {
            case INT32:
                for (int row = start; row < end; row++) {
                    if (defineNext(validity, row)) {
                        int value = data.getInt((long) row * Integer.BYTES);
                        INT.set(values, valuesLength, value);
                        valuesLength += Integer.BYTES;
                        statistics.updateStats(value);
                    }
                }
                break;
            case INT64:
                for (int row = start; row < end; row++) {
                    if (defineNext(validity, row)) {
                        long value = data.getLong((long) row * Long.BYTES);
                        LONG.set(values, valuesLength, value);
                        valuesLength += Long.BYTES;
                        statistics.updateStats(value);
                    }
                }
                break;
            case FLOAT:
                for (int row = start; row < end; row++) {
                    if (defineNext(validity, row)) {
                        int bits = data.getInt((long) row * Float.BYTES);
                        INT.set(values, valuesLength, bits);
                        valuesLength += Float.BYTES;
                        statistics.updateStats(Float.intBitsToFloat(bits));
                    }
                }
                break;
            case DOUBLE:
                for (int row = start; row < end; row++) {
                    if (defineNext(validity, row)) {
                        long bits = data.getLong((long) row * Double.BYTES);
                        LONG.set(values, valuesLength, bits);
                        valuesLength += Double.BYTES;
                        statistics.updateStats(Double.longBitsToDouble(bits));
                    }
                }
                break;
            default:
                throw new IllegalStateException("column " + column + " is not a fixed-width plain column");
        }
    }

    private void appendStrings(VarCharVector vector, ArrowBuf[] validity, int start, int end) {
        int sliceLength = slice.load(vector, start, end);
        byte[] bytes = slice.bytes();
        growValues(valuesLength + (end - start) * Integer.BYTES + sliceLength);
        for (int row = start; row < end; row++) {
            if (!defineNext(validity, row)) {
                continue;
            }
            int length = slice.length(row);
            INT.set(values, valuesLength, length);
            int at = valuesLength + Integer.BYTES;
            System.arraycopy(bytes, slice.start(row), values, at, length);
            valuesLength = at + length;
            unencodedBytes += length;
            if (minAt < 0) {
                minAt = at;
                minLength = length;
                maxAt = at;
                maxLength = length;
            } else if (Arrays.compareUnsigned(values, at, at + length, values, minAt, minAt + minLength) < 0) {
                minAt = at;
                minLength = length;
            } else if (Arrays.compareUnsigned(values, at, at + length, values, maxAt, maxAt + maxLength) > 0) {
                maxAt = at;
                maxLength = length;
            }
        }
    }

    /** Appends the level of {@code row} as the page's next; returns whether its value is present. */
    private boolean defineNext(ArrowBuf[] validity, int row) {
        return definitions.append(LeafPath.levelOf(validity, row));
    }

    private void writePage() throws IOException {
        if (minAt >= 0) {
            statistics.updateStats(Binary.fromReusedByteArray(values, minAt, minLength));
            statistics.updateStats(Binary.fromReusedByteArray(values, maxAt, maxLength));
        }
        int rows = definitions.rows();
        statistics.incrementNumNulls(definitions.nulls());
        levels.clear();
        definitions.writeTo(levels);
        SizeStatistics sizes = new SizeStatistics(type, unencodedBytes, List.of((long) rows), definitions.histogram());
        pages.writePage(BytesInput.concat(levels.bytes(), BytesInput.from(values, 0, valuesLength)),
                rows, rows, statistics, sizes, Encoding.BIT_PACKED, Encoding.RLE, Encoding.PLAIN);
        definitions.clear();
        valuesLength = 0;
        unencodedBytes = 0;
        minAt = -1;
        maxAt = -1;
        statistics = Statistics.createStats(type);
    }

    private void growValues(int bytes) {
        if (bytes > values.length) {
            values = Arrays.copyOf(values, Math.max(bytes, values.length * 2));
        }
    }
}
