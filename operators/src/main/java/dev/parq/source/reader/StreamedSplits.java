package dev.parq.source.reader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;

import dev.parq.config.TaskHeap;
import dev.parq.io.Compression;
import dev.parq.io.LineStream;
import dev.parq.io.Lines;
import dev.parq.io.RangeReader;
import dev.parq.io.SharedLines;
import dev.parq.io.StandardInput;
import dev.parq.source.split.FileSplit;

/**
 * Opens the lines of a split read as one stream: standard input, or a compressed file. A stream
 * cannot be entered in its middle: a split checkpointed part way ({@link FileSplit#streamed()}) is
 * read again from the stream's start, and the lines before where it was are passed over.
 */
final class StreamedSplits {

    private StreamedSplits() {}

    static Lines standardInput(FileSplit split, long chunkSize) throws IOException {
        SharedLines.Opener stdin = () -> {
            byte[] head = StandardInput.head(Compression.HEAD_BYTES);
            InputStream in = StandardInput.open();
            return LineStream.open(StandardInput.LABEL, in, Compression.of(StandardInput.LABEL, head, head.length),
                    (int) chunkSize, TaskHeap.longestLine());
        };
        // Standard input can be read once: its shares are always dealt. Dealt already, or broken
        // off, it cannot be read again, and opening it says so.
        Lines lines = split.shares() > 1 ? SharedLines.share(split.streamName(), split.share(), split.shares(), stdin)
                : null;
        return lines != null ? lines : stdin.open();
    }

    static Lines compressed(FileSplit split, RangeReader opened, Compression compression, long chunkSize)
            throws IOException {
        SharedLines.Opener stream = () -> LineStream.open(split.path(), opened.stream(), compression,
                (int) chunkSize, TaskHeap.longestLine());
        Lines lines = null;
        if (split.shares() > 1 && StandardInput.enabled()) {
            // Every reader of the job runs in this process: one of them inflates the file, and its
            // chunks are dealt, instead of each share's reader inflating all of it.
            lines = SharedLines.share(split.streamName(), split.share(), split.shares(), stream);
        }
        if (lines == null) {
            lines = stream.open().share(split.share(), split.shares());
        }
        return split.streamed() > 0 ? after(lines, split.streamed()) : lines;
    }

    /** {@code lines} from stream offset {@code from} (a line start) on. */
    private static Lines after(Lines lines, long from) {
        return new Lines() {
            private boolean skipped;
            private long chunkOffset;

            @Override
            public ByteBuffer next() throws IOException {
                while (true) {
                    ByteBuffer chunk = lines.next();
                    if (chunk == null || skipped) {
                        chunkOffset = lines.chunkOffset();
                        return chunk;
                    }
                    long end = lines.chunkOffset() + chunk.remaining();
                    if (end > from) {
                        skipped = true;
                        int into = (int) Math.max(0, from - lines.chunkOffset());
                        chunkOffset = lines.chunkOffset() + into;
                        return chunk.position(chunk.position() + into).slice();
                    }
                }
            }

            @Override
            public long chunkOffset() {
                return chunkOffset;
            }

            @Override
            public Compression compression() {
                return lines.compression();
            }

            @Override
            public void close() throws IOException {
                lines.close();
            }
        };
    }
}
