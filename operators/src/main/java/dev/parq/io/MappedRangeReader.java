package dev.parq.io;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

import dev.parq.mmap.Mappings;

/** A local file: windows are mappings of the file, unmapped as soon as the next one is asked for. */
final class MappedRangeReader implements RangeReader {

    private final Path path;
    private final FileChannel channel;
    private MappedByteBuffer mapped;

    MappedRangeReader(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.READ);
    }

    @Override
    public long size() throws IOException {
        return channel.size();
    }

    @Override
    public long lastModified() throws IOException {
        return Files.getLastModifiedTime(path).toMillis();
    }

    @Override
    public String fileKey() throws IOException {
        Object key = Files.readAttributes(path, BasicFileAttributes.class).fileKey();
        return key == null ? "" : key.toString();
    }

    @Override
    public int read(long position, byte[] into, int offset, int length) throws IOException {
        ByteBuffer target = ByteBuffer.wrap(into, offset, length);
        int total = 0;
        while (target.hasRemaining()) {
            int n = channel.read(target, position + total);
            if (n < 0) {
                return total == 0 ? -1 : total;
            }
            total += n;
        }
        return total;
    }

    @Override
    public ByteBuffer window(long position, int length) throws IOException {
        releaseWindow();
        // A mapped page past the file's end faults when touched (SIGBUS, an InternalError in Java):
        // a file truncated since it was listed is told as such here instead.
        long size = channel.size();
        if (size < position + length) {
            throw InputChangedException.truncated(path.toString(), position, position + length, size);
        }
        mapped = Mappings.mapReadOnly(channel, position, length);
        return mapped;
    }

    @Override
    public void releaseWindow() {
        if (mapped != null) {
            Mappings.unmap(mapped);
            mapped = null;
        }
    }

    @Override
    public void close() throws IOException {
        releaseWindow();
        channel.close();
    }
}
