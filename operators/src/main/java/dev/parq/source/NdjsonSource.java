package dev.parq.source;

import java.util.List;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import dev.parq.source.enumerate.InputDiscovery;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.StaticInputs;
import dev.parq.source.enumerator.CheckpointRequest;
import dev.parq.source.enumerator.EnumeratorState;
import dev.parq.source.enumerator.EnumeratorStateSerializer;
import dev.parq.source.enumerator.Following;
import dev.parq.source.enumerator.NdjsonSplitEnumerator;
import dev.parq.source.enumerator.ObjectEnumerator;
import dev.parq.source.enumerator.SplitPlanner;
import dev.parq.source.enumerator.TailingEnumerator;
import dev.parq.source.reader.LineChunk;
import dev.parq.source.reader.LineChunkSerializer;
import dev.parq.source.reader.NdjsonSourceReader;
import dev.parq.source.split.FileSplit;
import dev.parq.source.split.FileSplitSerializer;
import dev.parq.types.SerializerTypeInfo;

/**
 * The NDJSON file source: the enumerator takes the files its {@link InputDiscovery} names and cuts
 * each into line-snapped splits; readers read their splits chunk by chunk (mapped, for local
 * files) and emit {@link LineChunk}s of whole lines.
 *
 * <p>Built with {@link #builder(List)}; its settings are declared in {@link NdjsonSourceOptions}.
 */
public final class NdjsonSource
        implements Source<LineChunk, FileSplit, EnumeratorState>, ResultTypeQueryable<LineChunk> {
    private static final long serialVersionUID = 1L;

    public static final TypeInformation<LineChunk> TYPE =
            new SerializerTypeInfo<>(LineChunk.class, LineChunkSerializer.INSTANCE);

    private final InputDiscovery discovery;
    private final long splitSize;
    private final long chunkSize;
    private final Following following;

    NdjsonSource(InputDiscovery discovery, long splitSize, long chunkSize, Following following) {
        this.discovery = discovery;
        this.following = following;
        this.splitSize = splitSize;
        this.chunkSize = chunkSize;
    }

    /** A source of the files {@code discovery} names. */
    public static NdjsonSourceBuilder builder(InputDiscovery discovery) {
        return new NdjsonSourceBuilder(discovery);
    }

    /** A source of exactly {@code files}, as resolved by the caller. */
    public static NdjsonSourceBuilder builder(List<InputFile> files) {
        return builder(new StaticInputs(files));
    }

    /** This source, its enumerator asking {@code request} for a checkpoint once it has read a backlog. */
    public NdjsonSource askingAfterBacklog(CheckpointRequest request) {
        return new NdjsonSource(discovery, splitSize, chunkSize, following.askingAfterBacklog(request));
    }

    @Override
    public Boundedness getBoundedness() {
        return discovery.watching() ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<LineChunk, FileSplit> createReader(SourceReaderContext readerContext) {
        return new NdjsonSourceReader(readerContext, chunkSize, discovery.watching());
    }

    @Override
    public SplitEnumerator<FileSplit, EnumeratorState> createEnumerator(
            SplitEnumeratorContext<FileSplit> context) throws Exception {
        if (discovery.watching()) {
            return restoreEnumerator(context, new EnumeratorState(List.of()));
        }
        List<FileSplit> splits =
                new SplitPlanner(splitSize).plan(discovery.initialFiles(), context.currentParallelism());
        return new NdjsonSplitEnumerator(context, splits);
    }

    @Override
    public SplitEnumerator<FileSplit, EnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<FileSplit> context, EnumeratorState checkpoint) {
        if (discovery.watching() && discovery.objects()) {
            return new ObjectEnumerator(context, discovery, splitSize, following, checkpoint);
        }
        if (discovery.watching()) {
            return new TailingEnumerator(context, discovery, splitSize, following, checkpoint);
        }
        return new NdjsonSplitEnumerator(context, checkpoint.pendingSplits());
    }

    @Override
    public SimpleVersionedSerializer<FileSplit> getSplitSerializer() {
        return FileSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<EnumeratorState> getEnumeratorCheckpointSerializer() {
        return new EnumeratorStateSerializer();
    }

    @Override
    public TypeInformation<LineChunk> getProducedType() {
        return TYPE;
    }
}
