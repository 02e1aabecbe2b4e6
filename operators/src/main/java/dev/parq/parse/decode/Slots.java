package dev.parq.parse.decode;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;

/**
 * Writes vector slots by address for the hot decoders. Arrow's setSafe checks the capacity with a
 * division and then every access again against the buffer bounds and reference count; here one
 * comparison per buffer makes room, and the writes that follow cannot leave it.
 */
final class Slots {

    private Slots() {}

    /**
     * Makes room for slot index of a fixed-width vector, marks it valid or null, and returns the
     * address of its value.
     */
    static long fixed(BaseFixedWidthVector vector, int width, int index, boolean valid) {
        while ((long) (index + 1) * width > vector.getDataBuffer().capacity()
                || (index >>> 3) >= vector.getValidityBuffer().capacity()) {
            vector.reAlloc();
        }
        setValidity(vector.getValidityBuffer(), index, valid);
        return vector.getDataBuffer().memoryAddress() + (long) index * width;
    }

    /** Makes room for slots [from, to) of a fixed-width vector and marks them all null. */
    static void fixedNulls(BaseFixedWidthVector vector, int width, int from, int to) {
        fixed(vector, width, to - 1, false);
        clearValidity(vector.getValidityBuffer(), from, to);
    }

    /** Clears the validity bits of slots [from, to): whole bytes at once, the ends bit by bit. */
    static void clearValidity(ArrowBuf validity, int from, int to) {
        int i = from;
        for (; i < to && (i & 7) != 0; i++) {
            setValidity(validity, i, false);
        }
        long address = validity.memoryAddress();
        for (; i + 8 <= to; i += 8) {
            MemoryUtil.putByte(address + (i >>> 3), (byte) 0);
        }
        for (; i < to; i++) {
            setValidity(validity, i, false);
        }
    }

    /** Sets or clears the validity bit of slot index; the buffer must hold it. */
    static void setValidity(ArrowBuf validity, int index, boolean valid) {
        setValidity(validity.memoryAddress(), index, valid);
    }

    /** Sets or clears the validity bit of slot index in the validity buffer at validityAddress. */
    static void setValidity(long validityAddress, int index, boolean valid) {
        long address = validityAddress + (index >>> 3);
        byte bits = MemoryUtil.getByte(address);
        byte bit = (byte) (1 << (index & 7));
        MemoryUtil.putByte(address, (byte) (valid ? bits | bit : bits & ~bit));
    }
}
