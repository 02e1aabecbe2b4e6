package dev.parq.sink.rowgroup;

import java.io.IOException;
import java.util.List;

import dev.parq.batch.VectorBytes;
import dev.parq.sink.ParquetWriterOptions;
import dev.parq.sink.dictionary.DictionaryPageWriter;
import dev.parq.sink.file.ParquetFile;
import dev.parq.sink.page.ColumnChunkWriter;
import dev.parq.sink.page.LeafPath;
import dev.parq.sink.page.PlainPageWriter;
import dev.parq.sink.plan.ColumnPlan;
import dev.parq.sink.plan.WriterKind;
import dev.parq.sink.record.ColumnStriper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.schema.MessageType;

/**
 * Writes a file's rows as row groups, column by column: each Parquet leaf column by the writer its
 * {@link ColumnPlan} gives it, straight from its Arrow vectors. Rows are written in slices so that
 * page and row-group sizes are checked as often as parquet-mr would; a row group ends at the
 * configured size or at this writer's share of its {@link RowGroupBudget}, whichever is smaller,
 * and goes to the {@link ParquetFile}.
 */
public final class RowGroupWriter {

    /**
     * Rows written column by column before sizes are checked: at most this many, and no more
     * bytes than a page holds or an eighth of the row group (one row at least), so that a row
     * group overshoots its size by little.
     */
    private static final int SLICE_ROWS = 1024;
    private static final int MIN_SLICE_BYTES = 4 << 10;

    private final ParquetFile file;
    private final RowGroupBudget budget;
    private final long rowGroupSize;
    private final int pageSize;
    private final long targetFileSize;
    private final long fileSizeSlack;

    /** How each leaf column is written; its encodings are chosen at the first batch. */
    private ColumnPlan plan;

    private List<FieldVector> vectors;
    private ColumnStriper[] stripers;
    /** Per leaf column the page writers reach, the vectors on its path, else null. */
    private LeafPath[] paths;
    /** Per leaf column, whether its pages are built by a {@link ColumnChunkWriter}; set at the first batch. */
    private boolean[] direct;
    private boolean started;
    private ColumnChunkPageWriteStore pageStore;
    private ColumnWriteStore columnStore;
    private ColumnWriter[] columnWriters;
    private ColumnChunkWriter[] pageWriters;
    private int rowGroupOrdinal;
    private long rowGroupRows;
    /** The first row of the slice being written, or -1 between calls of {@link #write}. */
    private int sliceStart = -1;

    /** A writer of row groups into {@code file}, which takes its share of {@code budget} until it is closed. */
    public RowGroupWriter(ParquetFile file, ColumnPlan plan, ParquetWriterOptions options, RowGroupBudget budget) {
        this.file = file;
        this.plan = plan;
        this.budget = budget;
        this.rowGroupSize = options.rowGroupSize();
        this.pageSize = options.pageSize();
        this.targetFileSize = options.targetFileSize();
        this.fileSizeSlack = options.fileSizeSlack();
        budget.join();
    }

    /** Points the column writers at {@code root}'s vectors, whose schema has been checked. */
    public void bind(VectorSchemaRoot root) {
        vectors = root.getFieldVectors();
        stripers = plan.stripers(vectors);
        paths = plan.leafPaths(vectors);
    }

    /** Writes the first {@code rows} rows of the bound vectors. */
    public void write(int rows) throws IOException {
        if (rows == 0) {
            return;
        }
        if (!started) {
            plan = plan.withDictionariesChosen(stripers, rows, rowGroupLimit());
            direct = new boolean[plan.columnCount()];
            for (int c = 0; c < direct.length; c++) {
                direct[c] = plan.writer(c) != WriterKind.PARQUET_MR;
            }
            started = true;
            startRowGroup();
        }
        long rowGroupLimit = rowGroupLimit();
        long sliceBytes = Math.max(MIN_SLICE_BYTES, Math.min(pageSize, rowGroupLimit / 8));
        for (int start = 0, end; start < rows; start = end) {
            sliceStart = start;
            end = VectorBytes.endWithin(this::rowBytes, start, rows, SLICE_ROWS, sliceBytes);
            // A row larger than a slice that would take the row group past its size starts the
            // next one instead, so that the size holds in bytes with rows of large values too.
            long slice = rowBytes(start, end);
            if (rowGroupRows > 0 && slice > sliceBytes && bufferedSize() + slice > rowGroupLimit) {
                flushRowGroup();
                startRowGroup();
                rowGroupLimit = rowGroupLimit();
            }
            for (int c = 0; c < stripers.length; c++) {
                if (direct[c]) {
                    pageWriters[c].write(paths[c], start, end);
                } else {
                    writeSlice(stripers[c], columnWriters[c], start, end);
                }
            }
            if (columnStore != null) {
                for (int row = start; row < end; row++) {
                    columnStore.endRecord();
                }
            }
            rowGroupRows += end - start;
            if (bufferedSize() >= rowGroupLimit) {
                flushRowGroup();
                startRowGroup();
                rowGroupLimit = rowGroupLimit();
            }
        }
        sliceStart = -1;
    }

    /**
     * The size at which the row group ends: the configured one or the budget's share, and no more
     * than what is left of the file's target size, down to the slack at which the file is full.
     */
    private long rowGroupLimit() throws IOException {
        long room = Math.max(fileSizeSlack, targetFileSize - file.position());
        return Math.min(budget.rowGroupSize(rowGroupSize), room);
    }

    /** The first row of the slice {@link #write} was writing when it failed, or -1. */
    public int sliceStart() {
        return sliceStart;
    }

    private long rowBytes(int from, int to) {
        return VectorBytes.ofRows(vectors, from, to);
    }

    private static void writeSlice(ColumnStriper striper, ColumnWriter column, int start, int end) {
        for (int row = start; row < end; row++) {
            striper.write(column, row, 0, 0);
        }
    }

    /**
     * The heap this writer holds for its row group between calls, as allocated: the pages handed
     * over (compressed), the pages being filled, their levels, and dictionaries. What a call needs
     * only while it runs (a range's levels, the compressor's arrays) is the thread's, shared by all
     * the files it writes (see {@link dev.parq.sink.page.PageScratch}).
     */
    private long bufferedSize() {
        long size = columnStore == null ? 0 : columnStore.getAllocatedSize();
        for (ColumnChunkWriter writer : pageWriters) {
            if (writer != null) {
                size += writer.bufferedSize();
            }
        }
        return size;
    }

    private void startRowGroup() {
        ParquetProperties properties = plan.properties();
        pageStore = file.pageStore(properties, rowGroupOrdinal);
        MessageType parquetMrSchema = plan.parquetMrSchema();
        columnStore = parquetMrSchema == null
                ? null : properties.newColumnWriteStore(parquetMrSchema, pageStore, pageStore);
        columnWriters = new ColumnWriter[plan.columnCount()];
        pageWriters = new ColumnChunkWriter[plan.columnCount()];
        for (int c = 0; c < plan.columnCount(); c++) {
            ColumnDescriptor column = plan.column(c);
            switch (plan.writer(c)) {
                case PLAIN_PAGES:
                    pageWriters[c] = new PlainPageWriter(column, pageStore.getPageWriter(column),
                            properties.getPageSizeThreshold(), properties.getPageRowCountLimit());
                    break;
                case DICTIONARY_PAGES:
                    pageWriters[c] = new DictionaryPageWriter(column, pageStore.getPageWriter(column),
                            properties.getPageSizeThreshold(), properties.getPageRowCountLimit(),
                            properties.getDictionaryPageSizeThreshold());
                    break;
                default:
                    columnWriters[c] = columnStore.getColumnWriter(column);
            }
        }
        rowGroupRows = 0;
    }

    private void flushRowGroup() throws IOException {
        if (!started) {
            return;
        }
        if (rowGroupRows > 0) {
            file.startRowGroup(rowGroupRows);
            if (columnStore != null) {
                columnStore.flush();
            }
            for (ColumnChunkWriter writer : pageWriters) {
                if (writer != null) {
                    writer.flush();
                }
            }
            file.endRowGroup(pageStore);
            rowGroupOrdinal++;
        }
        if (columnStore != null) {
            columnStore.close();
        }
        pageStore.close();
    }

    /** Writes the last row group, and gives up this writer's share of the budget. */
    public void close() throws IOException {
        try {
            flushRowGroup();
        } finally {
            budget.leave();
        }
    }

    /** Gives the row group's share of the heap back without writing what it holds. */
    public void discard() {
        budget.leave();
    }
}
