package dev.parq.sink.tensor;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import dev.parq.batch.ArrowBatch;
import dev.parq.mmap.DType;

/**
 * Writes the chosen columns of Arrow batches as rows of float32 or float64 values, row-major and
 * little-endian, into {@link Segment} files in a directory. The client concatenates the segments
 * in input order behind an mmap array header once the job is done; nothing is committed here.
 *
 * <p>Each writer keeps one segment open while its batches continue the same byte range of the
 * same file and starts a new one otherwise, so a segment never holds rows of two ranges that
 * another writer's rows could fall between.
 */
public final class TensorSink implements Sink<ArrowBatch> {
    private static final long serialVersionUID = 1L;

    private final String directory;
    private final List<String> inputFiles;
    private final TensorColumns columns;
    private final int dtypeId;

    /**
     * @param directory where the segments go; it must exist
     * @param inputFiles the input files in input order: a segment is named by its file's index here
     * @param dtype {@link DType#FLOAT32} or {@link DType#FLOAT64}
     */
    public TensorSink(String directory, List<String> inputFiles, TensorColumns columns, DType<?> dtype) {
        if (dtype != DType.FLOAT32 && dtype != DType.FLOAT64) {
            throw new IllegalArgumentException("a tensor is float32 or float64, not " + dtype);
        }
        this.directory = directory;
        this.inputFiles = List.copyOf(inputFiles);
        this.columns = columns;
        this.dtypeId = dtype.id();
    }

    @Override
    public SinkWriter<ArrowBatch> createWriter(WriterInitContext context) throws IOException {
        return new SegmentWriter(Path.of(directory), inputFiles, columns, DType.fromId(dtypeId),
                context.getTaskInfo().getIndexOfThisSubtask() + "-" + context.getTaskInfo().getAttemptNumber());
    }
}
