package dev.parq.mmap;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The one place that maps and unmaps file regions, shared by the NDJSON source and {@code MmapArray}.
 *
 * <p>Java 17 cannot map more than {@link Integer#MAX_VALUE} bytes in one buffer and offers no
 * deterministic unmap; callers map bounded regions and release each as soon as they are done with
 * it, so that resident mapped pages (which count in the process RSS) do not pile up.
 */
public final class Mappings {

    /** The largest region one {@link MappedByteBuffer} can cover. */
    public static final long MAX_REGION = Integer.MAX_VALUE;

    private static final Method INVOKE_CLEANER;
    private static final Object UNSAFE;

    static {
        Method invokeCleaner = null;
        Object unsafe = null;
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            unsafe = theUnsafe.get(null);
            invokeCleaner = unsafeClass.getMethod("invokeCleaner", ByteBuffer.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            // Without Unsafe the mapping is released by the garbage collector instead.
            invokeCleaner = null;
            unsafe = null;
        }
        INVOKE_CLEANER = invokeCleaner;
        UNSAFE = unsafe;
    }

    private Mappings() {}

    /**
     * Maps {@code length} bytes of {@code channel} from {@code position}, read-only, little-endian.
     *
     * @throws IllegalArgumentException if the region is larger than {@link #MAX_REGION}
     */
    public static MappedByteBuffer mapReadOnly(FileChannel channel, long position, long length)
            throws IOException {
        return map(channel, FileChannel.MapMode.READ_ONLY, position, length);
    }

    /** Maps a region in the given mode, little-endian. */
    public static MappedByteBuffer map(
            FileChannel channel, FileChannel.MapMode mode, long position, long length)
            throws IOException {
        if (length < 0 || length > MAX_REGION) {
            throw new IllegalArgumentException(
                    "cannot map " + length + " bytes in one region (at most " + MAX_REGION + ")");
        }
        MappedByteBuffer buffer = channel.map(mode, position, length);
        buffer.order(ByteOrder.LITTLE_ENDIAN);
        return buffer;
    }

    /**
     * Releases a mapping now instead of at the next garbage collection. The buffer and every
     * view of it must not be touched afterwards: the JVM would crash. Slices and duplicates are
     * not mappings of their own and are left to the collector.
     */
    public static void unmap(ByteBuffer buffer) {
        if (buffer == null || !buffer.isDirect() || INVOKE_CLEANER == null) {
            return;
        }
        try {
            INVOKE_CLEANER.invoke(UNSAFE, buffer);
        } catch (ReflectiveOperationException e) {
            // A slice or duplicate has no cleaner of its own; the collector releases its parent.
        } catch (IllegalArgumentException e) {
            // Same: Unsafe refuses buffers that are views of another mapping.
        }
    }
}
