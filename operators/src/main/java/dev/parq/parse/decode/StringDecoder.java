package dev.parq.parse.decode;


import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.VarCharVector;

import dev.parq.json.ByteScan;
import dev.parq.json.JsonStrings;
import dev.parq.json.Tape;

/**
 * STRING, VARCHAR and CHAR: a JSON string becomes its unescaped UTF-8; any other value is kept as
 * its JSON text exactly as written. Bytes go straight from the input into the vector's data buffer.
 *
 * <p>This is the most frequent decoder on log lines, so it writes the offset, validity and data
 * buffers by address: {@link #reserve} checks every capacity first, which is what Arrow's per-access
 * bounds checks would do again on each byte range. The buffers' addresses and capacities are kept
 * here, and read again only when the vector holds other buffers (after a reallocation, or when
 * Arrow replaced them), instead of through the vector and its buffers for every value: 3-4% more
 * throughput in ParseBenchmark.
 */
public final class StringDecoder extends Decoder {

    /** Values up to this many bytes are moved as two words (see {@link #store}). */
    private static final int SHORT_VALUE = 2 * Long.BYTES;

    private final VarCharVector vector;
    private byte[] scratch = new byte[256];
    /** The vector's data and offset buffers when last seen; its validity buffer is replaced with the offsets. */
    private ArrowBuf data;
    private ArrowBuf offsets;
    private long dataAddress;
    private long dataCapacity;
    private long offsetAddress;
    private long offsetCapacity;
    private long validityAddress;
    private long validityCapacity;

    public StringDecoder(VarCharVector vector) {
        this.vector = vector;
    }

    @Override
    public void decode(Tape tape, int t, int index) {
        byte[] buf = tape.bytes();
        int kind = tape.kind(t);
        if (kind == Tape.STRING && tape.has(t, Tape.ESCAPED)) {
            storeUnescaped(index, buf, tape.start(t), tape.end(t));
            return;
        }
        int from = kind == Tape.STRING ? tape.start(t) : tape.rawStart(t);
        int to = kind == Tape.STRING ? tape.end(t) : tape.rawEnd(t);
        store(index, buf, from, to - from);
    }

    @Override
    public int decodeInline(byte[] bytes, int p, int limit, int index) {
        byte c = bytes[p];
        if (c != '"') {
            int end = c == 't' || c == 'f' ? ByteScan.literalEnd(bytes, p, limit) : ByteScan.numberEnd(bytes, p, limit);
            if (end < 0) {
                return FALLBACK;
            }
            store(index, bytes, p, end - p);
            return end;
        }
        int from = p + 1;
        int stop = ByteScan.plainEnd(bytes, from, limit);
        if (stop < limit && bytes[stop] == '"') {
            store(index, bytes, from, stop - from);
            return stop + 1;
        }
        int end = ByteScan.stringEnd(bytes, stop, limit);
        if (end < 0) {
            return FALLBACK;
        }
        if (ByteScan.indexOfBackslash(bytes, stop, end) < end) {
            storeUnescaped(index, bytes, from, end);
        } else {
            store(index, bytes, from, end - from);
        }
        return end + 1;
    }

    private void storeUnescaped(int index, byte[] bytes, int from, int to) {
        if (scratch.length < to - from) {
            scratch = new byte[Math.max(to - from, scratch.length * 2)];
        }
        int n = JsonStrings.unescape(bytes, from, to, scratch);
        store(index, scratch, 0, n);
    }

    /** Writes bytes[from, from + n) as they are into slot index. */
    void store(int index, byte[] bytes, int from, int n) {
        int start = reserve(index, n);
        long address = dataAddress + start;
        if (n <= SHORT_VALUE && from + SHORT_VALUE <= bytes.length && start + SHORT_VALUE <= dataCapacity) {
            // Two word moves instead of a call into the copy routine, which costs more than the
            // copy for values this short (levels, countries, host names, ids). The bytes past the
            // value are written over by the next one, or lie beyond the last offset.
            MemoryUtil.putLong(address, MemoryUtil.getLong(bytes, from));
            MemoryUtil.putLong(address + Long.BYTES, MemoryUtil.getLong(bytes, from + Long.BYTES));
        } else {
            MemoryUtil.copyToMemory(bytes, from, address, n);
        }
        written(index, start + n, true);
    }

    /** Makes room for slot index and n data bytes; returns where the bytes go. */
    private int reserve(int index, int n) {
        reserveSlot(index);
        int start = MemoryUtil.getInt(offsetAddress + (long) index * VarCharVector.OFFSET_WIDTH);
        long needed = (long) start + n;
        while (needed > dataCapacity) {
            vector.reallocDataBuffer();
            buffersChanged();
        }
        return start;
    }

    /** Makes room for the offset and validity bit of slot index. */
    private void reserveSlot(int index) {
        if (vector.getDataBuffer() != data || vector.getOffsetBuffer() != offsets) {
            buffersChanged();
        }
        while ((long) (index + 2) * VarCharVector.OFFSET_WIDTH > offsetCapacity || (index >>> 3) >= validityCapacity) {
            vector.reallocValidityAndOffsetBuffers();
            buffersChanged();
        }
    }

    /** Arrow replaces the validity and offset buffers together, so those two tell any change. */
    private void buffersChanged() {
        data = vector.getDataBuffer();
        offsets = vector.getOffsetBuffer();
        ArrowBuf validity = vector.getValidityBuffer();
        dataAddress = data.memoryAddress();
        dataCapacity = data.capacity();
        offsetAddress = offsets.memoryAddress();
        offsetCapacity = offsets.capacity();
        validityAddress = validity.memoryAddress();
        validityCapacity = validity.capacity();
    }

    private void written(int index, int end, boolean valid) {
        MemoryUtil.putInt(offsetAddress + (long) (index + 1) * VarCharVector.OFFSET_WIDTH, end);
        Slots.setValidity(validityAddress, index, valid);
        vector.setLastSet(index);
    }

    @Override
    public void writeNull(int index) {
        int start = reserve(index, 0);
        written(index, start, false);
    }

    @Override
    public void writeNulls(int from, int to) {
        reserveSlot(to - 1);
        int start = MemoryUtil.getInt(offsetAddress + (long) from * VarCharVector.OFFSET_WIDTH);
        for (int i = from + 1; i <= to; i++) {
            MemoryUtil.putInt(offsetAddress + (long) i * VarCharVector.OFFSET_WIDTH, start);
        }
        Slots.clearValidity(vector.getValidityBuffer(), from, to);
        vector.setLastSet(to - 1);
    }

    @Override
    public void finish(int count) {
        vector.setLastSet(count - 1);
    }
}
