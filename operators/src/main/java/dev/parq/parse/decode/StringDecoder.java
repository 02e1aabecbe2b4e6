package dev.parq.parse.decode;


import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.VarCharVector;

import dev.parq.parse.tape.Tape;

/**
 * STRING, VARCHAR and CHAR: a JSON string becomes its unescaped UTF-8; any other value is kept as
 * its JSON text exactly as written. Bytes go straight from the input into the vector's data buffer.
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
        if (tape.kind(t) == Tape.STRING && tape.has(t, Tape.ESCAPED)) {
            int from = tape.start(t);
            int to = tape.end(t);
            if (scratch.length < to - from) {
                scratch = new byte[Math.max(to - from, scratch.length * 2)];
            }
            int n = JsonStrings.unescape(buf, from, to, scratch);
            int start = reserve(index, n);
            vector.getDataBuffer().setBytes(start, scratch, 0, n);
            written(index, start + n);
            return;
        }
        int from = tape.kind(t) == Tape.STRING ? tape.start(t) : tape.rawStart(t);
        int to = tape.kind(t) == Tape.STRING ? tape.end(t) : tape.rawEnd(t);
        int n = to - from;
        int start = reserve(index, n);
        vector.getDataBuffer().setBytes(start, buf, from, n);
        written(index, start + n);
    }

    /** Makes room for slot index and n data bytes; returns where the bytes go. */
    private int reserve(int index, int n) {
        while (index >= vector.getValueCapacity()) {
            vector.reallocValidityAndOffsetBuffers();
        }
        int start = vector.getOffsetBuffer().getInt((long) index * VarCharVector.OFFSET_WIDTH);
        long needed = (long) start + n;
        while (needed > vector.getDataBuffer().capacity()) {
            vector.reallocDataBuffer();
        }
        return start;
    }

    private void written(int index, int end) {
        ArrowBuf offsets = vector.getOffsetBuffer();
        offsets.setInt((long) (index + 1) * VarCharVector.OFFSET_WIDTH, end);
        BitVectorHelper.setBit(vector.getValidityBuffer(), index);
        vector.setLastSet(index);
    }

    @Override
    public void writeNull(int index) {
        int start = reserve(index, 0);
        vector.getOffsetBuffer().setInt((long) (index + 1) * VarCharVector.OFFSET_WIDTH, start);
        BitVectorHelper.unsetBit(vector.getValidityBuffer(), index);
        vector.setLastSet(index);
    }

    @Override
    public void finish(int count) {
        vector.setLastSet(count - 1);
    }
}
