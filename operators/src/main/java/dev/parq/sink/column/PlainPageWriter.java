package dev.parq.sink.column;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

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
public final class PlainPageWriter {

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
    /** Bit {@code i} is set when the page's row {@code i} is not null. */
    private long[] defined = new long[64];
    private int rows;
    private int nulls;
    private Statistics<?> statistics;
    private int minAt = -1;
    private int minLength;
    private int maxAt = -1;
    private int maxLength;
    private byte[] levels = new byte[256];
    private int levelsLength;
    /** The string bytes of the rows being appended, copied out of Arrow memory in one piece. */
    private byte[] slice = new byte[64 * 1024];

    public PlainPageWriter(ColumnDescriptor column, PageWriter pages, int pageSize, int pageRowLimit) {
        this.column = column;
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

    /** Bytes held for this column: pages handed over, and the page being filled. */
    public long bufferedSize() {
        return pages.getMemSize() + valuesLength + rows / 8;
    }

    /** Writes rows {@code start} to {@code end} of {@code vector}, the column's vector. */
    public void write(ValueVector vector, int start, int end) throws IOException {
        while (start < end) {
            int to = Math.min(end, start + pageRowLimit - rows);
            if (vector instanceof VarCharVector) {
                appendStrings((VarCharVector) vector, start, to);
            } else {
                appendFixedWidth((BaseFixedWidthVector) vector, start, to);
            }
            start = to;
            if (rows >= pageRowLimit || valuesLength >= pageSize) {
                writePage();
            }
        }
    }

    /** Writes the page being filled, if any; the row group is complete. */
    public void flush() throws IOException {
        if (rows > 0) {
            writePage();
        }
    }

    private void appendFixedWidth(BaseFixedWidthVector vector, int start, int end) {
        ArrowBuf validity = vector.getValidityBuffer();
        ArrowBuf data = vector.getDataBuffer();
        int count = end - start;
        growDefined(rows + count);
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

    private void appendStrings(VarCharVector vector, int start, int end) {
        ArrowBuf validity = vector.getValidityBuffer();
        ArrowBuf offsets = vector.getOffsetBuffer();
        growDefined(rows + end - start);
        int sliceStart = offsets.getInt((long) start * BaseVariableWidthVector.OFFSET_WIDTH);
        int sliceLength = offsets.getInt((long) end * BaseVariableWidthVector.OFFSET_WIDTH) - sliceStart;
        if (sliceLength > slice.length) {
            slice = new byte[Math.max(sliceLength, slice.length * 2)];
        }
        vector.getDataBuffer().getBytes(sliceStart, slice, 0, sliceLength);
        growValues(valuesLength + (end - start) * Integer.BYTES + sliceLength);
        for (int row = start; row < end; row++) {
            if (!defineNext(validity, row)) {
                continue;
            }
            long offsetAt = (long) row * BaseVariableWidthVector.OFFSET_WIDTH;
            int from = offsets.getInt(offsetAt);
            int length = offsets.getInt(offsetAt + BaseVariableWidthVector.OFFSET_WIDTH) - from;
            INT.set(values, valuesLength, length);
            int at = valuesLength + Integer.BYTES;
            System.arraycopy(slice, from - sliceStart, values, at, length);
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

    /** Records row {@code row} of {@code validity} as the page's next row; returns whether it is set. */
    private boolean defineNext(ArrowBuf validity, int row) {
        boolean set = BitVectorHelper.get(validity, row) != 0;
        if (set) {
            defined[rows >>> 6] |= 1L << rows;
        } else {
            nulls++;
        }
        rows++;
        return set;
    }

    private void writePage() throws IOException {
        if (minAt >= 0) {
            statistics.updateStats(Binary.fromReusedByteArray(values, minAt, minLength));
            statistics.updateStats(Binary.fromReusedByteArray(values, maxAt, maxLength));
        }
        statistics.incrementNumNulls(nulls);
        encodeDefinitionLevels();
        SizeStatistics sizes = new SizeStatistics(type, unencodedBytes, List.of((long) rows),
                List.of((long) nulls, (long) (rows - nulls)));
        pages.writePage(
                BytesInput.concat(BytesInput.from(levels, 0, levelsLength), BytesInput.from(values, 0, valuesLength)),
                rows, rows, statistics, sizes, Encoding.BIT_PACKED, Encoding.RLE, Encoding.PLAIN);
        Arrays.fill(defined, 0, (rows + 63) >>> 6, 0L);
        rows = 0;
        nulls = 0;
        valuesLength = 0;
        unencodedBytes = 0;
        minAt = -1;
        maxAt = -1;
        statistics = Statistics.createStats(type);
    }

    /**
     * The definition levels, one bit each, in the RLE/bit-packed hybrid after their 4-byte length:
     * runs of at least 16 equal levels, counted in whole bytes of levels, as RLE runs; whatever is
     * between them as bit-packed groups of 8, which are the bytes of {@link #defined} as they are.
     */
    private void encodeDefinitionLevels() {
        int wholeBytes = rows >>> 3;
        int tail = rows & 7;
        levelsLength = Integer.BYTES;
        growLevels(Integer.BYTES + 2 * wholeBytes + 16);
        int i = 0;
        boolean tailDone = tail == 0;
        while (i < wholeBytes) {
            if (startsRun(i, wholeBytes)) {
                int value = levelByte(i);
                int j = i + 2;
                while (j < wholeBytes && levelByte(j) == value) {
                    j++;
                }
                long count = (long) (j - i) * 8;
                if (j == wholeBytes && !tailDone && levelByte(j) == (value & ((1 << tail) - 1))) {
                    count += tail;
                    tailDone = true;
                }
                writeVarInt(count << 1);
                levels[levelsLength++] = (byte) (value & 1);
                i = j;
            } else {
                int j = i + 1;
                while (j < wholeBytes && !startsRun(j, wholeBytes)) {
                    j++;
                }
                writeVarInt(((long) (j - i) << 1) | 1);
                for (int k = i; k < j; k++) {
                    levels[levelsLength++] = (byte) levelByte(k);
                }
                i = j;
            }
        }
        if (!tailDone) {
            writeVarInt((1L << 1) | 1);
            levels[levelsLength++] = (byte) levelByte(wholeBytes);
        }
        INT.set(levels, 0, levelsLength - Integer.BYTES);
    }

    private boolean startsRun(int at, int wholeBytes) {
        int value = levelByte(at);
        return (value == 0 || value == 0xFF) && at + 1 < wholeBytes && levelByte(at + 1) == value;
    }

    /** Levels {@code 8 * at} to {@code 8 * at + 7}, the first in the lowest bit. */
    private int levelByte(int at) {
        return (int) (defined[at >>> 3] >>> ((at & 7) << 3)) & 0xFF;
    }

    private void writeVarInt(long value) {
        while ((value & ~0x7FL) != 0) {
            levels[levelsLength++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        levels[levelsLength++] = (byte) value;
    }

    private void growDefined(int bits) {
        int words = (bits + 63) >>> 6;
        if (words > defined.length) {
            defined = Arrays.copyOf(defined, Math.max(words, defined.length * 2));
        }
    }

    private void growValues(int bytes) {
        if (bytes > values.length) {
            values = Arrays.copyOf(values, Math.max(bytes, values.length * 2));
        }
    }

    private void growLevels(int bytes) {
        if (bytes > levels.length) {
            levels = new byte[Math.max(bytes, levels.length * 2)];
        }
    }
}
