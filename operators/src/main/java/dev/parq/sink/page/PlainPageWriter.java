package dev.parq.sink.page;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;

/**
 * Writes one row group's pages of a primitive column that is not dictionary encoded straight to
 * its {@link PageWriter}, bypassing parquet-mr's column writer, which spends most of its time per
 * value on what is done here per page or in bulk: values are copied from the Arrow buffers in
 * PLAIN encoding (little-endian, as Arrow keeps them), levels are run-length encoded from the
 * validity bits, and string minimum and maximum are compared with {@link Arrays#compareUnsigned}.
 */
public final class PlainPageWriter extends DataPageWriter {

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * Room kept in front of the values for the page's levels, so that the whole page lies in one
     * array: levels of a few hundred rows, or of one row with a very large value, fit.
     */
    private static final int LEVELS_ROOM = 512;
    private static final int INITIAL_BYTES = 4 * 1024;
    /**
     * A values array grown past this (a page with a very large value) is let go when the page is
     * written; smaller ones are kept for the next page.
     */
    static final int RETAINED_BYTES = 4 << 20;

    private byte[] values = new byte[INITIAL_BYTES];
    /** Where the page's values end in {@link #values}; they start at {@link #LEVELS_ROOM}. */
    private int valuesLength = LEVELS_ROOM;
    /** Booleans in the page, which PLAIN packs eight to a byte. */
    private int booleans;
    /** Minimum and maximum of the page's fixed-width values; those of strings are kept by position. */
    private Statistics<?> fixedWidthStatistics;
    private int minAt = -1;
    private int minLength;
    private int maxAt = -1;
    private int maxLength;
    private final StringBounds bounds;

    public PlainPageWriter(ColumnDescriptor column, PageWriter pages, int pageSize, int pageRowLimit) {
        super(column, pages, pageSize, pageRowLimit);
        this.fixedWidthStatistics = Statistics.createStats(type);
        this.bounds = new StringBounds(type);
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
    protected int appendValues(ValueVector leaf, RowLevels range) {
        int count = range.valueCount();
        if (count > 0) {
            if (leaf instanceof VarCharVector) {
                appendStrings((VarCharVector) leaf, range.valueIndexes(), count);
            } else {
                appendFixedWidth((BaseFixedWidthVector) leaf, range.valueIndexes(), count);
            }
        }
        return count;
    }

    private void appendFixedWidth(BaseFixedWidthVector vector, int[] indexes, int count) {
        ArrowBuf data = vector.getDataBuffer();
        growValues(valuesLength + (long) count * Long.BYTES);
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
        int span = StringSlice.span(vector, indexes[0], indexes[count - 1] + 1);
        growValues((long) valuesLength + (long) count * Integer.BYTES + span);
        // Values of a range too large to slice (one large value, in practice) are copied once,
        // straight from the Arrow buffer.
        boolean sliced = span <= StringSlice.RETAINED_BYTES;
        byte[] bytes = null;
        StringSlice slice = PageScratch.current().strings();
        if (sliced) {
            slice.load(vector, indexes[0], indexes[count - 1] + 1);
            bytes = slice.bytes();
        }
        ArrowBuf offsets = vector.getOffsetBuffer();
        ArrowBuf data = vector.getDataBuffer();
        for (int k = 0; k < count; k++) {
            int index = indexes[k];
            int at = valuesLength + Integer.BYTES;
            int length;
            if (sliced) {
                length = slice.length(index);
                System.arraycopy(bytes, slice.start(index), values, at, length);
            } else {
                int start = offsets.getInt((long) index * BaseVariableWidthVector.OFFSET_WIDTH);
                length = offsets.getInt((long) (index + 1) * BaseVariableWidthVector.OFFSET_WIDTH) - start;
                data.getBytes(start, values, at, length);
            }
            INT.set(values, valuesLength, length);
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
    protected long pageValueBytes() {
        return valuesLength - LEVELS_ROOM;
    }

    @Override
    protected BytesInput takeValues(Statistics<?> statistics) {
        if (minAt >= 0) {
            statistics.updateStats(bounds.lower(values, minAt, minLength));
            statistics.updateStats(bounds.upper(values, maxAt, maxLength));
        } else {
            statistics.mergeStatistics(fixedWidthStatistics);
        }
        return BytesInput.from(values, LEVELS_ROOM, valuesLength - LEVELS_ROOM);
    }

    @Override
    BytesInput withLevels(ByteSink levels, BytesInput values) {
        int length = levels.length();
        if (length > LEVELS_ROOM) {
            return super.withLevels(levels, values);
        }
        levels.copyTo(this.values, LEVELS_ROOM - length);
        return BytesInput.from(this.values, LEVELS_ROOM - length, valuesLength - LEVELS_ROOM + length);
    }

    @Override
    protected Encoding valuesEncoding() {
        return Encoding.PLAIN;
    }

    @Override
    protected void clearValues() {
        valuesLength = LEVELS_ROOM;
        if (values.length > RETAINED_BYTES) {
            values = new byte[INITIAL_BYTES];
        }
        booleans = 0;
        minAt = -1;
        maxAt = -1;
        fixedWidthStatistics = Statistics.createStats(type);
    }

    @Override
    protected long heldBytes() {
        return values.length;
    }

    /**
     * Makes room for {@code bytes} in {@link #values}: by doubling while the page is of ordinary
     * size, and to the exact size beyond {@link #RETAINED_BYTES}, where a doubling would hold up to
     * twice a very large value.
     */
    private void growValues(long bytes) {
        if (bytes > values.length) {
            if (bytes > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("a page of " + bytes + " bytes is too large for column " + column);
            }
            long doubled = 2L * values.length;
            values = Arrays.copyOf(values, (int) (bytes > RETAINED_BYTES || doubled > RETAINED_BYTES
                    ? bytes : Math.max(bytes, doubled)));
        }
    }
}
