package dev.parq.sink.column;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.io.api.Binary;

/**
 * Writes one row group's pages of a primitive column that is not dictionary encoded straight to
 * its {@link PageWriter}, bypassing parquet-mr's column writer, which spends most of its time per
 * value on what is done here per page or in bulk: values are copied from the Arrow buffers in
 * PLAIN encoding (little-endian, as Arrow keeps them), levels are run-length encoded from the
 * validity bits, and string minimum and maximum are compared with {@link Arrays#compareUnsigned}.
 */
public final class PlainPageWriter extends LeafPageWriter {

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] values = new byte[64 * 1024];
    private int valuesLength;
    /** Booleans in the page, which PLAIN packs eight to a byte. */
    private int booleans;
    /** Minimum and maximum of the page's fixed-width values; those of strings are kept by position. */
    private Statistics<?> fixedWidthStatistics;
    private int minAt = -1;
    private int minLength;
    private int maxAt = -1;
    private int maxLength;
    private final StringSlice slice = new StringSlice();

    public PlainPageWriter(ColumnDescriptor column, PageWriter pages, int pageSize, int pageRowLimit) {
        super(column, pages, pageSize, pageRowLimit);
        this.fixedWidthStatistics = Statistics.createStats(type);
    }

    /** Whether a column of {@code type} can be written by this class. */
    public static boolean supports(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
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
    int appendValues(ValueVector leaf, RowLevels range) {
        if (range.valueCount > 0) {
            if (leaf instanceof VarCharVector) {
                appendStrings((VarCharVector) leaf, range.values, range.valueCount);
            } else {
                appendFixedWidth((BaseFixedWidthVector) leaf, range.values, range.valueCount);
            }
        }
        return range.valueCount;
    }

    private void appendFixedWidth(BaseFixedWidthVector vector, int[] indexes, int count) {
        ArrowBuf data = vector.getDataBuffer();
        growValues(valuesLength + count * Long.BYTES);
        Statistics<?> statistics = fixedWidthStatistics;
        switch (type.getPrimitiveTypeName()) {
            case BOOLEAN:
                for (int k = 0; k < count; k++) {
                    boolean value = BitVectorHelper.get(data, indexes[k]) != 0;
                    int bit = booleans & 7;
                    if (bit == 0) {
                        values[valuesLength++] = 0;
                    }
                    if (value) {
                        values[valuesLength - 1] |= (byte) (1 << bit);
                    }
                    booleans++;
                    statistics.updateStats(value);
                }
                break;
            case INT32:
                for (int k = 0; k < count; k++) {
                    int value = data.getInt((long) indexes[k] * Integer.BYTES);
                    INT.set(values, valuesLength, value);
                    valuesLength += Integer.BYTES;
                    statistics.updateStats(value);
                }
                break;
            case INT64:
                for (int k = 0; k < count; k++) {
                    long value = data.getLong((long) indexes[k] * Long.BYTES);
                    LONG.set(values, valuesLength, value);
                    valuesLength += Long.BYTES;
                    statistics.updateStats(value);
                }
                break;
            case FLOAT:
                for (int k = 0; k < count; k++) {
                    int bits = data.getInt((long) indexes[k] * Float.BYTES);
                    INT.set(values, valuesLength, bits);
                    valuesLength += Float.BYTES;
                    statistics.updateStats(Float.intBitsToFloat(bits));
                }
                break;
            case DOUBLE:
                for (int k = 0; k < count; k++) {
                    long bits = data.getLong((long) indexes[k] * Double.BYTES);
                    LONG.set(values, valuesLength, bits);
                    valuesLength += Double.BYTES;
                    statistics.updateStats(Double.longBitsToDouble(bits));
                }
                break;
            default:
                throw new IllegalStateException("column " + column + " is not a fixed-width plain column");
        }
    }

    private void appendStrings(VarCharVector vector, int[] indexes, int count) {
        int sliceLength = slice.load(vector, indexes[0], indexes[count - 1] + 1);
        byte[] bytes = slice.bytes();
        growValues(valuesLength + count * Integer.BYTES + sliceLength);
        for (int k = 0; k < count; k++) {
            int index = indexes[k];
            int length = slice.length(index);
            INT.set(values, valuesLength, length);
            int at = valuesLength + Integer.BYTES;
            System.arraycopy(bytes, slice.start(index), values, at, length);
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

    @Override
    long pageValueBytes() {
        return valuesLength;
    }

    @Override
    BytesInput takeValues(Statistics<?> statistics) {
        if (minAt >= 0) {
            statistics.updateStats(Binary.fromReusedByteArray(values, minAt, minLength));
            statistics.updateStats(Binary.fromReusedByteArray(values, maxAt, maxLength));
        } else {
            statistics.mergeStatistics(fixedWidthStatistics);
        }
        return BytesInput.from(values, 0, valuesLength);
    }

    @Override
    Encoding valuesEncoding() {
        return Encoding.PLAIN;
    }

    @Override
    void clearValues() {
        valuesLength = 0;
        booleans = 0;
        minAt = -1;
        maxAt = -1;
        fixedWidthStatistics = Statistics.createStats(type);
    }

    @Override
    long heldBytes() {
        return valuesLength;
    }

    private void growValues(int bytes) {
        if (bytes > values.length) {
            values = Arrays.copyOf(values, Math.max(bytes, values.length * 2));
        }
    }
}
