package dev.parq.sink;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.parq.batch.VectorBytes;
import dev.parq.sink.column.DistinctValueSample;
import dev.parq.sink.dictionary.DictionaryPageWriter;
import dev.parq.sink.page.ColumnChunkWriter;
import dev.parq.sink.page.LeafPath;
import dev.parq.sink.page.PlainPageWriter;
import dev.parq.sink.record.ColumnStriper;
import dev.parq.sink.record.ColumnStripers;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * The column-wise path: each Parquet leaf column is filled straight from its Arrow vectors, with
 * levels worked out by its {@link ColumnStriper} chain instead of parquet-mr's record assembly.
 * Primitive columns under ROWs only, and the elements of ARRAYs of primitives, skip parquet-mr's
 * column writers too: their pages are built by a {@link PlainPageWriter}, or a
 * {@link DictionaryPageWriter} for dictionary-encoded strings and integers. Rows are written in slices so that
 * page and row-group sizes are checked as often as parquet-mr would.
 */
final class ColumnarFileWriter {

    /**
     * Rows written column by column before sizes are checked: at most this many, and no more
     * bytes than a page holds or an eighth of the row group (one row at least), so that a row
     * group overshoots its size by little.
     */
    private static final int SLICE_ROWS = 1024;
    private static final int MIN_SLICE_BYTES = 4 << 10;

    /** Values of each column looked at, in the file's first batch, to choose its encoding. */
    private static final int DICTIONARY_SAMPLE_VALUES = 8192;

    private final RowType rowType;
    private final MessageType schema;
    private final ColumnDescriptor[] columns;
    private final Map<String, String> metadata;
    private final long rowGroupSize;
    private final ParquetWriterOptions options;
    private final PageCompressor compressor;
    private final ParquetFileWriter file;

    /** Parquet's settings; the per-column dictionary choices join them at the first batch. */
    private ParquetProperties properties;

    private List<FieldVector> vectors;
    private ColumnStriper[] stripers;
    /** Per leaf column under ROWs only or in an ARRAY of primitives, the vectors on its path, else null. */
    private LeafPath[] paths;
    /** Per leaf column, its type where {@link #paths} has its vectors. */
    private LogicalType[] leafTypes;
    /** Per leaf column, whether its pages are built by a {@link ColumnChunkWriter}; set at the first batch. */
    private boolean[] direct;
    /** The columns written through parquet-mr's column writers, or null if there are none. */
    private MessageType columnStoreSchema;
    private boolean started;
    private ColumnChunkPageWriteStore pageStore;
    private ColumnWriteStore columnStore;
    private ColumnWriter[] columnWriters;
    private ColumnChunkWriter[] pageWriters;
    private int rowGroupOrdinal;
    private long rowGroupRows;
    /** The first row of the slice being written, or -1 between calls of {@link #write}. */
    private int sliceStart = -1;

    ColumnarFileWriter(
            OutputFile out, RowType rowType, MessageType schema, Map<String, String> metadata,
            ParquetWriterOptions options) throws IOException {
        this.rowType = rowType;
        this.schema = schema;
        this.columns = schema.getColumns().toArray(new ColumnDescriptor[0]);
        this.metadata = metadata;
        this.rowGroupSize = options.rowGroupSize();
        this.options = options;
        this.properties = properties(options).build();
        this.compressor = new PageCompressor(options.compression());
        this.file = new ParquetFileWriter(
                out, schema, ParquetFileWriter.Mode.CREATE, rowGroupSize, 0, null, properties);
        file.start();
        RowGroupBudget.jvm().join();
    }

    private static ParquetProperties.Builder properties(ParquetWriterOptions options) {
        return ParquetProperties.builder()
                .withPageSize(options.pageSize())
                .withDictionaryPageSize(options.pageSize())
                .withDictionaryEncoding(options.dictionary())
                // parquet-mr's column writers (nested columns) check their page size every
                // hundred rows at first; rows of large values would fill pages far past their size.
                .withMinRowCountForPageSizeCheck(1)
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0);
    }

    /** Points the column writers at {@code root}'s vectors, whose schema has been checked. */
    void bind(VectorSchemaRoot root) {
        vectors = root.getFieldVectors();
        List<ColumnStriper> bound = ColumnStripers.of(rowType, root.getFieldVectors());
        stripers = bound.toArray(new ColumnStriper[0]);
        paths = new LeafPath[columns.length];
        leafTypes = new LogicalType[columns.length];
        int column = 0;
        for (int field = 0; field < schema.getFieldCount(); field++) {
            column = collectPaths(schema.getType(field), rowType.getTypeAt(field), root.getVector(field), List.of(),
                    column);
        }
    }

    /**
     * Sets the paths of the leaf columns under {@code type}, from leaf column {@code column} on,
     * that are repeated at most once, as the elements of an ARRAY of primitives; {@code above} are
     * the vectors of the ROWs above {@code vector}. Returns the leaf column after them.
     */
    private int collectPaths(Type type, LogicalType logicalType, ValueVector vector, List<ValueVector> above,
            int column) {
        if (type.isPrimitive()) {
            paths[column] = LeafPath.of(above.toArray(new ValueVector[0]), vector);
            leafTypes[column] = logicalType;
            return column + 1;
        }
        if (logicalType.getTypeRoot() == LogicalTypeRoot.ARRAY) {
            LogicalType element = ((ArrayType) logicalType).getElementType();
            if (!leafCountIsOne(element)) {
                return column + leafCount(type);
            }
            paths[column] = LeafPath.ofElements(above.toArray(new ValueVector[0]), (ListVector) vector);
            leafTypes[column] = element;
            return column + 1;
        }
        if (logicalType.getTypeRoot() != LogicalTypeRoot.ROW) {
            return column + leafCount(type);
        }
        RowType row = (RowType) logicalType;
        List<FieldVector> children = ((StructVector) vector).getChildrenFromFields();
        List<ValueVector> below = new ArrayList<>(above);
        below.add(vector);
        for (int i = 0; i < row.getFieldCount(); i++) {
            column = collectPaths(type.asGroupType().getType(i), row.getTypeAt(i), children.get(i), below, column);
        }
        return column;
    }

    /** Whether {@code type} is a primitive, neither nested nor repeated. */
    private static boolean leafCountIsOne(LogicalType type) {
        switch (type.getTypeRoot()) {
            case ROW:
            case ARRAY:
            case MAP:
            case MULTISET:
                return false;
            default:
                return true;
        }
    }

    private static int leafCount(Type type) {
        if (type.isPrimitive()) {
            return 1;
        }
        int leaves = 0;
        for (Type child : type.asGroupType().getFields()) {
            leaves += leafCount(child);
        }
        return leaves;
    }

    /** Writes the first {@code rows} rows of the bound vectors. */
    void write(int rows) throws IOException {
        if (rows == 0) {
            return;
        }
        if (!started) {
            if (options.dictionary()) {
                chooseDictionaries(rows);
            }
            chooseDirectColumns();
            started = true;
            startRowGroup();
        }
        long rowGroupLimit = RowGroupBudget.jvm().rowGroupSize(rowGroupSize);
        long sliceBytes = Math.max(MIN_SLICE_BYTES, Math.min(options.pageSize(), rowGroupLimit / 8));
        for (int start = 0, end; start < rows; start = end) {
            sliceStart = start;
            end = VectorBytes.endWithin(this::rowBytes, start, rows, SLICE_ROWS, sliceBytes);
            // A row larger than a slice that would take the row group past its size starts the
            // next one instead, so that the size holds in bytes with rows of large values too.
            long slice = rowBytes(start, end);
            if (rowGroupRows > 0 && slice > sliceBytes && bufferedSize() + slice > rowGroupLimit) {
                flushRowGroup();
                startRowGroup();
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
            }
        }
        sliceStart = -1;
    }

    /** The first row of the slice {@link #write} was writing when it failed, or -1. */
    int sliceStart() {
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
     * Turns dictionary encoding off for the columns whose values in the first {@code rows} rows
     * suggest too many distinct values per row group for a dictionary to pay, or a dictionary
     * that would overflow its page, after which parquet-mr falls back to plain encoding anyway,
     * in every row group anew. A row group's rows are estimated from the plain size of the
     * sampled rows, which overstates the buffered (compressed) size, so the estimate errs low.
     * The choice holds for the whole file.
     */
    private void chooseDictionaries(int rows) {
        DistinctValueSample[] samples = new DistinctValueSample[columns.length];
        int[] sampledRows = new int[columns.length];
        double bytesPerRow = 0;
        for (int c = 0; c < columns.length; c++) {
            samples[c] = new DistinctValueSample(DICTIONARY_SAMPLE_VALUES);
            int row = 0;
            for (; row < rows && !samples[c].isFull(); row++) {
                stripers[c].write(samples[c], row, 0, 0);
            }
            sampledRows[c] = row;
            bytesPerRow += (double) samples[c].valueBytes() / Math.max(1, row);
        }
        long rowGroupRows = (long) (RowGroupBudget.jvm().rowGroupSize(rowGroupSize) / Math.max(1.0, bytesPerRow));
        ParquetProperties.Builder chosen = properties(options);
        for (int c = 0; c < columns.length; c++) {
            if (!samples[c].dictionaryPays(options.pageSize(), sampledRows[c], rowGroupRows)) {
                chosen.withDictionaryEncoding(String.join(".", columns[c].getPath()), false);
            }
        }
        properties = chosen.build();
    }

    /**
     * Picks the columns whose pages a {@link ColumnChunkWriter} builds: those with a {@link LeafPath},
     * of a type that the writer for their encoding takes. The others keep parquet-mr's column
     * writers, whose store then covers only their part of the schema.
     */
    private void chooseDirectColumns() {
        direct = new boolean[columns.length];
        for (int c = 0; c < columns.length; c++) {
            direct[c] = paths[c] != null && (dictionaryEncoded(c)
                    ? DictionaryPageWriter.supports(leafTypes[c]) : PlainPageWriter.supports(leafTypes[c]));
        }
        List<Type> striped = new ArrayList<>();
        int[] column = {0};
        for (Type field : schema.getFields()) {
            Type kept = withoutDirectColumns(field, column);
            if (kept != null) {
                striped.add(kept);
            }
        }
        columnStoreSchema = striped.isEmpty() ? null : new MessageType(schema.getName(), striped);
    }

    /**
     * {@code type} with only the leaf columns that are not written directly, or null if there are
     * none; {@code column} holds the number of its first leaf column and is advanced past them.
     */
    private Type withoutDirectColumns(Type type, int[] column) {
        if (type.isPrimitive()) {
            return direct[column[0]++] ? null : type;
        }
        List<Type> kept = new ArrayList<>();
        for (Type child : type.asGroupType().getFields()) {
            Type keptChild = withoutDirectColumns(child, column);
            if (keptChild != null) {
                kept.add(keptChild);
            }
        }
        return kept.isEmpty() ? null : type.asGroupType().withNewFields(kept);
    }

    /**
     * The bytes this writer holds for its row group: the pages handed over (compressed), the
     * pages being filled, and dictionaries. Beside them it keeps a few arrays of about a page each
     * (the compressor's, the columns' page buffers), which a large value grows only for as long
     * as its page is being written.
     */
    private long bufferedSize() {
        long size = columnStore == null ? 0 : columnStore.getBufferedSize();
        for (ColumnChunkWriter writer : pageWriters) {
            if (writer != null) {
                size += writer.bufferedSize();
            }
        }
        return size;
    }

    private void startRowGroup() {
        pageStore = new ColumnChunkPageWriteStore(compressor, schema, properties.getAllocator(),
                properties.getColumnIndexTruncateLength(), properties.getPageWriteChecksumEnabled(), null,
                rowGroupOrdinal);
        columnStore = columnStoreSchema == null
                ? null : properties.newColumnWriteStore(columnStoreSchema, pageStore, pageStore);
        columnWriters = new ColumnWriter[columns.length];
        pageWriters = new ColumnChunkWriter[columns.length];
        for (int c = 0; c < columns.length; c++) {
            if (direct[c]) {
                pageWriters[c] = pageWriter(c);
            } else {
                columnWriters[c] = columnStore.getColumnWriter(columns[c]);
            }
        }
        rowGroupRows = 0;
    }

    /** Whether column {@code c} is dictionary encoded; booleans never are, as with parquet-mr. */
    private boolean dictionaryEncoded(int c) {
        return properties.isDictionaryEnabled(columns[c])
                && columns[c].getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BOOLEAN;
    }

    private ColumnChunkWriter pageWriter(int c) {
        if (dictionaryEncoded(c)) {
            return new DictionaryPageWriter(columns[c], pageStore.getPageWriter(columns[c]),
                    properties.getPageSizeThreshold(), properties.getPageRowCountLimit(),
                    properties.getDictionaryPageSizeThreshold());
        }
        return new PlainPageWriter(columns[c], pageStore.getPageWriter(columns[c]),
                properties.getPageSizeThreshold(), properties.getPageRowCountLimit());
    }

    private void flushRowGroup() throws IOException {
        if (!started) {
            return;
        }
        if (rowGroupRows > 0) {
            file.startBlock(rowGroupRows);
            if (columnStore != null) {
                columnStore.flush();
            }
            for (ColumnChunkWriter writer : pageWriters) {
                if (writer != null) {
                    writer.flush();
                }
            }
            pageStore.flushToFileWriter(file);
            file.endBlock();
            rowGroupOrdinal++;
        }
        if (columnStore != null) {
            columnStore.close();
        }
        pageStore.close();
    }

    /** Flushes the last row group and writes the footer. */
    void close() throws IOException {
        try {
            flushRowGroup();
            file.end(metadata);
        } finally {
            compressor.release();
            RowGroupBudget.jvm().leave();
        }
    }
}
