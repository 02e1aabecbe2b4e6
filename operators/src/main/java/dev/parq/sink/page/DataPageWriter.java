package dev.parq.sink.page;

import java.io.IOException;
import java.util.List;

import org.apache.arrow.vector.ValueVector;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.PrimitiveType;

import dev.parq.batch.VectorBytes;

/**
 * What the page writers of one encoding each share: rows are taken in ranges that end where a
 * page reaches its row limit or its size in bytes (a row larger than a page goes into a page of
 * its own, so that one large value never drags a page's worth of others into its copies); the
 * {@link LeafPath} works out a range's levels, the encoding
 * appends its values, then the levels join the page; a page is written when it reaches its row
 * limit or its size, as a version 1 data page (repetition levels, definition levels, values).
 *
 * <p>An encoding that runs out of room (a full dictionary) takes the values of fewer rows than it
 * was given; the rest of the column chunk then goes to the writer it hands over to.
 */
public abstract class DataPageWriter implements ColumnChunkWriter {

    protected final ColumnDescriptor column;
    protected final PrimitiveType type;
    protected final PageWriter pages;
    protected final int pageSize;
    protected final int pageRowLimit;
    private final PageLevels definitions;
    /** Null for a column repeated nowhere, whose pages have no repetition levels. */
    private final PageLevels repetitions;
    private int pageRows;
    /** Bytes of the page's string values without their lengths, for the size statistics; kept by the encoding. */
    protected long unencodedBytes;
    /** Writes the rest of the column chunk once this writer's encoding has run out of room, else null. */
    private ColumnChunkWriter successor;

    protected DataPageWriter(ColumnDescriptor column, PageWriter pages, int pageSize, int pageRowLimit) {
        this.column = column;
        this.type = column.getPrimitiveType();
        this.pages = pages;
        this.pageSize = pageSize;
        this.pageRowLimit = pageRowLimit;
        this.definitions = PageLevels.upTo(column.getMaxDefinitionLevel());
        this.repetitions = column.getMaxRepetitionLevel() == 0 ? null : PageLevels.upTo(column.getMaxRepetitionLevel());
    }

    @Override
    public final void write(LeafPath path, int start, int end) throws IOException {
        RowLevels range = PageScratch.current().range();
        while (start < end && successor == null) {
            int to = Math.min(end, start + pageRowLimit - pageRows);
            long room = pageSize - pageValueBytes();
            if (path.leafBytes(start, to) > room) {
                to = VectorBytes.endWithin(path::leafBytes, start, to, to - start, room);
                if (pageRows > 0 && path.leafBytes(start, to) > room) {
                    // A row larger than the room left starts a page of its own.
                    writePage();
                    continue;
                }
            }
            path.levels(start, to, range);
            int kept = appendValues(path.leaf(), range);
            if (kept < range.valueCount()) {
                int slots = range.rowStartOf(kept);
                int rows = range.rowsBefore(slots);
                appendLevels(range, slots, rows);
                if (pageRows > 0) {
                    writePage();
                }
                successor = handOver();
                start += rows;
                break;
            }
            appendLevels(range, range.slots, to - start);
            start = to;
            if (pageRows >= pageRowLimit || pageValueBytes() >= pageSize) {
                writePage();
            }
        }
        if (successor != null && start < end) {
            successor.write(path, start, end);
        }
    }

    private void appendLevels(RowLevels range, int slots, int rows) {
        definitions.append(range.definition, slots);
        if (repetitions != null) {
            repetitions.append(range.repetition, slots);
        }
        pageRows += rows;
    }

    @Override
    public final void flush() throws IOException {
        if (successor != null) {
            successor.flush();
            return;
        }
        if (pageRows > 0) {
            writePage();
        }
        finish();
    }

    @Override
    public final long bufferedSize() {
        if (successor != null) {
            return heldBytes() + successor.bufferedSize();
        }
        return pages.getMemSize() + heldBytes() + definitions.heapBytes()
                + (repetitions == null ? 0 : repetitions.heapBytes());
    }

    /** Writes the page being filled, which has rows. */
    private void writePage() throws IOException {
        Statistics<?> statistics = Statistics.createStats(type);
        ByteSink levelBytes = PageScratch.current().levels();
        levelBytes.clear();
        if (repetitions != null) {
            repetitions.writeTo(levelBytes);
        }
        definitions.writeTo(levelBytes);
        int slots = definitions.count();
        SizeStatistics sizes = new SizeStatistics(type, unencodedBytes,
                repetitions == null ? List.of((long) slots) : repetitions.histogram(), definitions.histogram());
        BytesInput values = takeValues(statistics);
        statistics.incrementNumNulls(definitions.belowMax());
        pages.writePage(withLevels(levelBytes, values), slots, pageRows, statistics, sizes,
                repetitions == null ? Encoding.BIT_PACKED : Encoding.RLE, Encoding.RLE, valuesEncoding());
        definitions.clear();
        if (repetitions != null) {
            repetitions.clear();
        }
        pageRows = 0;
        unencodedBytes = 0;
        clearValues();
    }

    /**
     * Appends the values {@code range} lists, at the indexes of {@code leaf} it gives; returns how
     * many it took: all of them, or, if the encoding ran out of room, those of the rows before the
     * one whose value did not fit.
     */
    protected abstract int appendValues(ValueVector leaf, RowLevels range);

    /** Bytes the page's values take so far, the measure of a page's size. */
    protected abstract long pageValueBytes();

    /** The page's values, encoded, valid until they are cleared; puts their minimum and maximum into {@code statistics}. */
    protected abstract BytesInput takeValues(Statistics<?> statistics);

    /**
     * The page's bytes: {@code levels}, then the {@code values} {@link #takeValues} returned. An
     * encoding that keeps room in front of its values may put the levels there, so that the page
     * lies in one array and reaches the compressor without being gathered first.
     */
    BytesInput withLevels(ByteSink levels, BytesInput values) {
        return BytesInput.concat(levels.bytes(), values);
    }

    /** The encoding of the values {@link #takeValues} returned. */
    protected abstract Encoding valuesEncoding();

    protected abstract void clearValues();

    /**
     * Heap bytes held for the column chunk beside its data pages and levels, as allocated: the
     * page's values being filled, a dictionary.
     */
    protected abstract long heldBytes();

    /** Writes what the column chunk needs beside its data pages; the row group is complete. */
    protected void finish() throws IOException {
    }

    /**
     * Ends this encoding for the column chunk once it has run out of room, after its last page is
     * written; returns the writer of the rest of the chunk.
     */
    protected ColumnChunkWriter handOver() throws IOException {
        throw new IllegalStateException("the " + valuesEncoding() + " values of " + column + " cannot run out of room");
    }
}
