package dev.parq.sink.column;

import org.apache.arrow.vector.DecimalVector;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * DECIMAL(p, s) from Arrow's 128-bit little-endian unscaled value: INT32 for p &le; 9, INT64 for
 * p &le; 18, else the big-endian two's complement in the fewest bytes that hold p digits.
 */
abstract class DecimalWriter extends FixedWidthWriter {

    DecimalWriter(DecimalVector vector) {
        super(vector);
    }

    static DecimalWriter of(DecimalVector vector, int precision, int fixedLength) {
        if (precision <= 9) {
            return new DecimalWriter(vector) {
                @Override
                public void write(RecordConsumer out, int row) {
                    out.addInteger((int) vector.getDataBuffer().getLong(offset(row)));
                }
            };
        }
        if (precision <= 18) {
            return new DecimalWriter(vector) {
                @Override
                public void write(RecordConsumer out, int row) {
                    out.addLong(vector.getDataBuffer().getLong(offset(row)));
                }
            };
        }
        return new FixedLength(vector, fixedLength);
    }

    private static final class FixedLength extends DecimalWriter {
        private final byte[] littleEndian = new byte[DecimalVector.TYPE_WIDTH];
        private final byte[] bigEndian;

        FixedLength(DecimalVector vector, int length) {
            super(vector);
            this.bigEndian = new byte[length];
        }

        @Override
        public void write(RecordConsumer out, int row) {
            vector.getDataBuffer().getBytes(offset(row), littleEndian, 0, littleEndian.length);
            int last = bigEndian.length - 1;
            for (int i = 0; i <= last; i++) {
                bigEndian[i] = littleEndian[last - i];
            }
            // Parquet copies a reused array wherever it keeps a value (dictionary, statistics).
            out.addBinary(Binary.fromReusedByteArray(bigEndian));
        }
    }
}
