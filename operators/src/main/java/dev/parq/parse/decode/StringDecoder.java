package dev.parq.parse.decode;


import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.VarCharVector;

import dev.parq.parse.tape.Tape;

/**
 * STRING, VARCHAR and CHAR: a JSON string becomes its unescaped UTF-8; any other value is kept as
 * its JSON text exactly as written. Bytes go straight from the input into the vector's data buffer.
 *
 * <p>This is the most frequent decoder on log lines, so it writes the offset, validity and data
 * buffers by address: {@link #reserve} checks every capacity first, which is what Arrow's per-access
 * bounds checks would do again on each byte range.
 */
public final class StringDecoder implements Decoder {

    private final VarCharVector vector;
    private byte[] scratch = new byte[256];

    public StringDecoder(VarCharVector vector) {
        this.vector = vector;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        byte[] buf = tape.bytes();
        int kind = tape.kind(t);
        if (kind == Tape.STRING && tape.has(t, Tape.ESCAPED)) {
            int from = tape.start(t);
            int to = tape.end(t);
            if (scratch.length < to - from) {
                scratch = new byte[Math.max(to - from, scratch.length * 2)];
            }
            int n = JsonStrings.unescape(buf, from, to, scratch);
            store(index, scratch, 0, n);
            return;
        }
        int from = kind == Tape.STRING ? tape.start(t) : tape.rawStart(t);
        int to = kind == Tape.STRING ? tape.end(t) : tape.rawEnd(t);
        store(index, buf, from, to - from);
    }

    private void store(int index, byte[] bytes, int from, int n) {
        int start = reserve(index, n);
        MemoryUtil.copyToMemory(bytes, from, vector.getDataBuffer().memoryAddress() + start, n);
        written(index, start + n, true);
    }

    /** Makes room for slot index and n data bytes; returns where the bytes go. */
    private int reserve(int index, int n) {
        while ((long) (index + 2) * VarCharVector.OFFSET_WIDTH > vector.getOffsetBuffer().capacity()
                || (index >>> 3) >= vector.getValidityBuffer().capacity()) {
            vector.reallocValidityAndOffsetBuffers();
        }
        int start = MemoryUtil.getInt(vector.getOffsetBuffer().memoryAddress() + (long) index * VarCharVector.OFFSET_WIDTH);
        long needed = (long) start + n;
        while (needed > vector.getDataBuffer().capacity()) {
            vector.reallocDataBuffer();
        }
        return start;
    }

    private void written(int index, int end, boolean valid) {
        MemoryUtil.putInt(vector.getOffsetBuffer().memoryAddress() + (long) (index + 1) * VarCharVector.OFFSET_WIDTH, end);
        ArrowBuf validity = vector.getValidityBuffer();
        long address = validity.memoryAddress() + (index >>> 3);
        byte bits = MemoryUtil.getByte(address);
        byte bit = (byte) (1 << (index & 7));
        MemoryUtil.putByte(address, (byte) (valid ? bits | bit : bits & ~bit));
        vector.setLastSet(index);
    }

    @Override
    public void writeNull(int index) {
        int start = reserve(index, 0);
        written(index, start, false);
    }

    @Override
    public void finish(int count) {
        vector.setLastSet(count - 1);
    }
}
