package dev.parq.sink.record;

import org.apache.arrow.vector.DecimalVector;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.io.api.Binary;

/**
 * DECIMAL(p, s) from Arrow's 128-bit little-endian unscaled value: INT32 for p &le; 9, INT64 for
 * p &le; 18, else the big-endian two's complement in the fewest bytes that hold p digits.
 */
abstract class DecimalValueWriter extends FixedWidthValueWriter {

    DecimalValueWriter(DecimalVector vector) {
        super(vector);
    }

    static DecimalValueWriter of(DecimalVector vector, int precision, int fixedLength) {
        if (precision <= 9) {
            return new Int32Decimal(vector);
        }
        if (precision <= 18) {
            return new Int64Decimal(vector);
        }
        return new FixedLengthDecimal(vector, fixedLength);
    }

    /** The low 64 bits of the unscaled value, which hold all of it for p &le; 18. */
    final long low64(int row) {
        return vector.getDataBuffer().getLong(offset(row));
    }

    private static final class Int32Decimal extends DecimalValueWriter {
        Int32Decimal(DecimalVector vector) {
            super(vector);
        }

        @Override
        public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
            column.write((int) low64(row), repetitionLevel, definitionLevel);
        }
    }

    private static final class Int64Decimal extends DecimalValueWriter {
        Int64Decimal(DecimalVector vector) {
            super(vector);
        }

        @Override
        public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
            column.write(low64(row), repetitionLevel, definitionLevel);
        }
    }

    private static final class FixedLengthDecimal extends DecimalValueWriter {
        private final byte[] littleEndian = new byte[DecimalVector.TYPE_WIDTH];
        private final byte[] bigEndian;

        FixedLengthDecimal(DecimalVector vector, int length) {
            super(vector);
            this.bigEndian = new byte[length];
        }

        @Override
        public void write(ColumnWriter column, int row, int repetitionLevel, int definitionLevel) {
            column.write(value(row), repetitionLevel, definitionLevel);
        }

        /** Parquet copies a reused array wherever it keeps a value (dictionary, statistics). */
        private Binary value(int row) {
            vector.getDataBuffer().getBytes(offset(row), littleEndian, 0, littleEndian.length);
            int last = bigEndian.length - 1;
            for (int i = 0; i <= last; i++) {
                bigEndian[i] = littleEndian[last - i];
            }
            return Binary.fromReusedByteArray(bigEndian);
        }
    }
}
