package dev.parq.sink.page;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.apache.parquet.bytes.BytesInput;

/**
 * The bytes of one page section being built, in an array that grows and is reused from page to
 * page, so that encoding a page allocates nothing once the array has reached its size.
 */
public final class ByteSink {

    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] bytes;
    private int length;

    public ByteSink(int initialCapacity) {
        bytes = new byte[initialCapacity];
    }

    int length() {
        return length;
    }

    public void clear() {
        length = 0;
    }

    /** Makes room for {@code more} bytes beyond the current length. */
    public void reserve(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + more, bytes.length * 2));
        }
    }

    /** Appends a byte; room for it must have been reserved. */
    public void put(int value) {
        bytes[length++] = (byte) value;
    }

    void putVarInt(long value) {
        reserve(10);
        while ((value & ~0x7FL) != 0) {
            bytes[length++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[length++] = (byte) value;
    }

    /** Appends the lowest {@code width} bytes of {@code value}, least significant first. */
    void putLittleEndian(int value, int width) {
        reserve(width);
        for (int i = 0; i < width; i++) {
            bytes[length++] = (byte) (value >>> (8 * i));
        }
    }

    /** Appends four placeholder bytes for a length; returns where they are. */
    int openLength() {
        reserve(Integer.BYTES);
        length += Integer.BYTES;
        return length - Integer.BYTES;
    }

    /** Fills the placeholder at {@code at} with the count of bytes appended after it. */
    void closeLength(int at) {
        INT.set(bytes, at, length - at - Integer.BYTES);
    }

    /** Copies the bytes into {@code into} from {@code at}. */
    void copyTo(byte[] into, int at) {
        System.arraycopy(bytes, 0, into, at, length);
    }

    /** The bytes so far, valid until this sink is next written to. */
    public BytesInput bytes() {
        return BytesInput.from(bytes, 0, length);
    }
}
