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

    /** Sets or clears the validity bit of slot index; the buffer must hold it. */
    static void setValidity(ArrowBuf validity, int index, boolean valid) {
        long address = validity.memoryAddress() + (index >>> 3);
        byte bits = MemoryUtil.getByte(address);
        byte bit = (byte) (1 << (index & 7));
        MemoryUtil.putByte(address, (byte) (valid ? bits | bit : bits & ~bit));
    }
}
