package dev.parq.job;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.core.fs.FSDataOutputStream;

import dev.parq.mmap.Mappings;
import dev.parq.parse.BatchParser;
import dev.parq.schema.TableSchema;
import dev.parq.sink.ArrowParquetWriter;
import dev.parq.sink.FlinkOutputFile;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.source.enumerator.InputFile;

/**
 * Runs the parser and the Parquet writer over the head of the input, writing nowhere, while the
 * embedded cluster is still starting. The job's tasks run in this JVM, on these classes, so they
 * start with the classes loaded and the hot paths already compiled; otherwise the first seconds
 * of a conversion run interpreted code while the JIT compilers compete with the tasks for the
 * cores. It stops as soon as the cluster is ready (the job then waits for nothing) or when the
 * head is used up, and it never fails the run: bad lines and errors are ignored here, the job
 * meets them again and deals with them.
 */
final class Warmup {

    /** The most input read; about a second of parsing on one core. */
    static final long MAX_BYTES = 32L << 20;
    private static final int STEP = 1 << 20;

    private Warmup() {}

    /** Parses and encodes up to {@link #MAX_BYTES} of the first input until {@code stop} says so. */
    static void run(List<InputFile> files, TableSchema schema, int batchRows, ParquetWriterOptions writerOptions,
            BooleanSupplier stop) {
        InputFile first = files.stream().filter(f -> f.length() > 0).findFirst().orElse(null);
        if (first == null || stop.getAsBoolean()) {
            return;
        }
        try (FileChannel channel = FileChannel.open(Path.of(first.path()), StandardOpenOption.READ)) {
            int length = (int) Math.min(first.length(), MAX_BYTES);
            MappedByteBuffer head = Mappings.mapReadOnly(channel, 0, length);
            try {
                encode(head, lastLineEnd(head, length), first.path(), schema, batchRows, writerOptions, stop);
            } finally {
                Mappings.unmap(head);
            }
        } catch (IOException | RuntimeException ignored) {
            // Only a head start: the job reads the same input and reports what is wrong with it.
        }
    }

    private static void encode(ByteBuffer head, int end, String file, TableSchema schema, int batchRows,
            ParquetWriterOptions writerOptions, BooleanSupplier stop) throws IOException {
        try (BufferAllocator allocator = new RootAllocator();
                BatchParser parser = new BatchParser(schema.rowType(), allocator, batchRows, (f, o, r, b, s, e) -> {});
                ArrowParquetWriter writer = new ArrowParquetWriter(new FlinkOutputFile(new Nowhere()), schema.rowType(), writerOptions)) {
            int pos = 0;
            while (pos < end && !stop.getAsBoolean()) {
                pos = parser.parse(head, pos, Math.min(end, lineEndAfter(head, pos + STEP, end)), file, pos);
                if (parser.isFull() || pos >= end) {
                    writer.write(parser.batch());
                    parser.clear();
                }
            }
        }
    }

    /** The end of the last whole line in buf[0, length), or 0. */
    private static int lastLineEnd(ByteBuffer buf, int length) {
        for (int i = length - 1; i >= 0; i--) {
            if (buf.get(i) == '\n') {
                return i + 1;
            }
        }
        return 0;
    }

    /** The end of the line holding index {@code at}, at most {@code end}. */
    private static int lineEndAfter(ByteBuffer buf, int at, int end) {
        for (int i = at; i < end; i++) {
            if (buf.get(i) == '\n') {
                return i + 1;
            }
        }
        return end;
    }

    /** A stream that keeps nothing, behind the same Parquet output class as the job's files. */
    private static final class Nowhere extends FSDataOutputStream {

        private long position;

        @Override
        public long getPos() {
            return position;
        }

        @Override
        public void write(int b) {
            position++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            position += len;
        }

        @Override
        public void flush() {}

        @Override
        public void sync() {}

        @Override
        public void close() {}
    }
}
