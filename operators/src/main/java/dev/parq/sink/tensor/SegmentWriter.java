package dev.parq.sink.tensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.connector.sink2.SinkWriter;

import dev.parq.batch.ArrowBatch;
import dev.parq.mmap.DType;

/**
 * One subtask's writer of {@link TensorSink}: encodes each batch into a reused buffer and appends
 * it to the open segment, which is written under a hidden name and renamed to its
 * {@link Segment} name, with its end offset, when finished.
 */
final class SegmentWriter implements SinkWriter<ArrowBatch> {

    private final Path directory;
    private final Map<String, Integer> fileIndexes = new HashMap<>();
    private final TensorColumns columns;
    private final boolean float32;
    private final int rowBytes;
    private final Path inProgress;

    private VectorSchemaRoot leavesOf;
    private TensorColumns.Leaf[] leaves;
    private ByteBuffer buffer = ByteBuffer.allocateDirect(0).order(ByteOrder.LITTLE_ENDIAN);

    private FileChannel segment;
    private int segmentFile;
    private long segmentStart;
    private long segmentEnd;

    SegmentWriter(Path directory, List<String> inputFiles, TensorColumns columns, DType<?> dtype, String writerId) {
        this.directory = directory;
        for (int i = 0; i < inputFiles.size(); i++) {
            fileIndexes.put(inputFiles.get(i), i);
        }
        this.columns = columns;
        this.float32 = dtype == DType.FLOAT32;
        this.rowBytes = columns.count() * dtype.byteSize();
        this.inProgress = directory.resolve(".in-progress-" + writerId);
    }

    @Override
    public void write(ArrowBatch batch, Context context) throws IOException {
        int fileIndex = fileIndex(batch.file());
        if (segment == null || fileIndex != segmentFile || batch.firstOffset() != segmentEnd) {
            finishSegment();
            segment = FileChannel.open(inProgress, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
            segmentFile = fileIndex;
            segmentStart = batch.firstOffset();
        }
        ByteBuffer rows = encode(batch);
        while (rows.hasRemaining()) {
            segment.write(rows);
        }
        segmentEnd = batch.endOffset();
    }

    private int fileIndex(String file) throws IOException {
        Integer index = fileIndexes.get(file);
        if (index == null) {
            throw new IOException("batch from " + file + ", which is not one of the job's input files");
        }
        return index;
    }

    private ByteBuffer encode(ArrowBatch batch) {
        if (batch.root() != leavesOf) {
            leaves = columns.leaves(batch.root());
            leavesOf = batch.root();
        }
        int rows = batch.rowCount();
        int bytes = Math.multiplyExact(rows, rowBytes);
        if (buffer.capacity() < bytes) {
            buffer = ByteBuffer.allocateDirect(bytes).order(ByteOrder.LITTLE_ENDIAN);
        }
        buffer.clear();
        for (int row = 0; row < rows; row++) {
            for (TensorColumns.Leaf leaf : leaves) {
                double value = leaf.get(row);
                if (float32) {
                    buffer.putFloat((float) value);
                } else {
                    buffer.putDouble(value);
                }
            }
        }
        return buffer.flip();
    }

    private void finishSegment() throws IOException {
        if (segment == null) {
            return;
        }
        segment.close();
        segment = null;
        Files.move(inProgress, directory.resolve(Segment.fileName(segmentFile, segmentStart, segmentEnd)),
                StandardCopyOption.ATOMIC_MOVE);
    }

    @Override
    public void flush(boolean endOfInput) throws IOException {
        if (endOfInput) {
            finishSegment();
        }
    }

    /** An unfinished segment keeps its hidden name: only a finished one is part of the result. */
    @Override
    public void close() throws IOException {
        if (segment != null) {
            segment.close();
            segment = null;
        }
    }
}
