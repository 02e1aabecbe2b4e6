package dev.parq.sink.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.parq.sink.ParquetWriterOptions;
import dev.parq.sink.dictionary.DictionaryPageWriter;
import dev.parq.sink.page.LeafPath;
import dev.parq.sink.page.PlainPageWriter;
import dev.parq.sink.record.ColumnStriper;
import dev.parq.sink.record.ColumnStripers;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * How each leaf column of a file is written: where its values lie among a batch's vectors,
 * whether they are dictionary encoded, and which {@link WriterKind} builds its pages. A primitive
 * under ROWs only, or the element of an ARRAY of primitives, is reached straight from its Arrow
 * vectors by a {@link LeafPath}, and has its pages built from them where the page writer of its
 * encoding takes its type; every other leaf goes through parquet-mr's column writers, whose store
 * then covers only {@link #parquetMrSchema its part of the schema}.
 *
 * <p>A plan is made from the schema and the options, then {@link #withDictionariesChosen} looks at
 * the file's first rows once to turn dictionary encoding off where it would not pay; that plan
 * holds for the whole file.
 */
public final class ColumnPlan {

    /** Values of each column looked at, in the file's first batch, to choose its encoding. */
    private static final int DICTIONARY_SAMPLE_VALUES = 8192;

    private final RowType rowType;
    private final MessageType schema;
    private final ParquetWriterOptions options;
    private final ColumnDescriptor[] columns;
    /** Per leaf column, where the page writers find its vectors, or null where they do not reach it. */
    private final Route[] routes;
    private final ParquetProperties properties;
    private final WriterKind[] writers;
    private final MessageType parquetMrSchema;

    private ColumnPlan(RowType rowType, MessageType schema, ParquetWriterOptions options, Route[] routes,
            ParquetProperties properties) {
        this.rowType = rowType;
        this.schema = schema;
        this.options = options;
        this.columns = schema.getColumns().toArray(new ColumnDescriptor[0]);
        this.routes = routes;
        this.properties = properties;
        this.writers = new WriterKind[columns.length];
        for (int c = 0; c < columns.length; c++) {
            writers[c] = writerOf(c);
        }
        this.parquetMrSchema = parquetMrPart();
    }

    /**
     * The plan of a file of {@code rowType}, whose Parquet schema is {@code schema}, before its
     * first rows are seen: every column dictionary encoded if the options say so.
     */
    public static ColumnPlan of(RowType rowType, MessageType schema, ParquetWriterOptions options) {
        Route[] routes = new Route[schema.getColumns().size()];
        int column = 0;
        for (int field = 0; field < schema.getFieldCount(); field++) {
            column = collectRoutes(schema.getType(field), rowType.getTypeAt(field), new int[] {field}, routes,
                    column);
        }
        return new ColumnPlan(rowType, schema, options, routes, properties(options).build());
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

    /**
     * Sets the routes of the leaf columns under {@code type}, from leaf column {@code column} on,
     * that are repeated at most once, as the elements of an ARRAY of primitives; {@code fields}
     * leads from the top-level column to {@code type}. Returns the leaf column after them.
     */
    private static int collectRoutes(Type type, LogicalType logicalType, int[] fields, Route[] routes, int column) {
        if (type.isPrimitive()) {
            routes[column] = new Route(fields, false, logicalType);
            return column + 1;
        }
        if (logicalType.getTypeRoot() == LogicalTypeRoot.ARRAY) {
            LogicalType element = ((ArrayType) logicalType).getElementType();
            if (!leafCountIsOne(element)) {
                return column + leafCount(type);
            }
            routes[column] = new Route(fields, true, element);
            return column + 1;
        }
        if (logicalType.getTypeRoot() != LogicalTypeRoot.ROW) {
            return column + leafCount(type);
        }
        RowType row = (RowType) logicalType;
        for (int i = 0; i < row.getFieldCount(); i++) {
            int[] child = Arrays.copyOf(fields, fields.length + 1);
            child[fields.length] = i;
            column = collectRoutes(type.asGroupType().getType(i), row.getTypeAt(i), child, routes, column);
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

    /**
     * This plan with dictionary encoding turned off for the columns whose values in the first
     * {@code rows} rows, as {@code stripers} walk them, suggest too many distinct values per row
     * group for a dictionary to pay, or a dictionary that would overflow its page, after which
     * parquet-mr falls back to plain encoding anyway, in every row group anew. A row group's rows
     * are estimated from {@code rowGroupBytes} and the plain size of the sampled rows, which
     * overstates the buffered (compressed) size, so the estimate errs low.
     */
    public ColumnPlan withDictionariesChosen(ColumnStriper[] stripers, int rows, long rowGroupBytes) {
        if (!options.dictionary()) {
            return this;
        }
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
        long rowGroupRows = (long) (rowGroupBytes / Math.max(1.0, bytesPerRow));
        ParquetProperties.Builder chosen = properties(options);
        for (int c = 0; c < columns.length; c++) {
            if (!samples[c].dictionaryPays(options.pageSize(), sampledRows[c], rowGroupRows)) {
                chosen.withDictionaryEncoding(String.join(".", columns[c].getPath()), false);
            }
        }
        return new ColumnPlan(rowType, schema, options, routes, chosen.build());
    }

    /**
     * The page writers take a leaf they reach if the writer of its encoding takes its type; the
     * others keep parquet-mr's column writers.
     */
    private WriterKind writerOf(int c) {
        if (routes[c] == null) {
            return WriterKind.PARQUET_MR;
        }
        LogicalType type = routes[c].type();
        if (dictionary(c)) {
            return DictionaryPageWriter.supports(type) ? WriterKind.DICTIONARY_PAGES : WriterKind.PARQUET_MR;
        }
        return PlainPageWriter.supports(type) ? WriterKind.PLAIN_PAGES : WriterKind.PARQUET_MR;
    }

    /** The schema with only the leaf columns that parquet-mr writes, or null if there are none. */
    private MessageType parquetMrPart() {
        List<Type> kept = new ArrayList<>();
        int[] column = {0};
        for (Type field : schema.getFields()) {
            Type keptField = withoutDirectColumns(field, column);
            if (keptField != null) {
                kept.add(keptField);
            }
        }
        return kept.isEmpty() ? null : new MessageType(schema.getName(), kept);
    }

    /**
     * {@code type} with only the leaf columns that are not written directly, or null if there are
     * none; {@code column} holds the number of its first leaf column and is advanced past them.
     */
    private Type withoutDirectColumns(Type type, int[] column) {
        if (type.isPrimitive()) {
            return writers[column[0]++] != WriterKind.PARQUET_MR ? null : type;
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

    /** Per leaf column, the chain that walks its values among {@code vectors}, a batch's in field order. */
    public ColumnStriper[] stripers(List<FieldVector> vectors) {
        return ColumnStripers.of(rowType, vectors).toArray(new ColumnStriper[0]);
    }

    /**
     * Per leaf column, the path to its values among {@code vectors}, a batch's in field order, or
     * null where the page writers do not reach it.
     */
    public LeafPath[] leafPaths(List<FieldVector> vectors) {
        LeafPath[] paths = new LeafPath[routes.length];
        for (int c = 0; c < routes.length; c++) {
            if (routes[c] != null) {
                paths[c] = routes[c].bind(vectors);
            }
        }
        return paths;
    }

    public int columnCount() {
        return columns.length;
    }

    public ColumnDescriptor column(int c) {
        return columns[c];
    }

    public WriterKind writer(int c) {
        return writers[c];
    }

    /** Whether leaf column {@code c} is dictionary encoded; booleans never are, as with parquet-mr. */
    public boolean dictionary(int c) {
        return properties.isDictionaryEnabled(columns[c])
                && columns[c].getPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BOOLEAN;
    }

    /** Parquet's settings, with the dictionary choice of each column. */
    public ParquetProperties properties() {
        return properties;
    }

    /** The part of the schema that parquet-mr's column writers write, or null if there is none. */
    public MessageType parquetMrSchema() {
        return parquetMrSchema;
    }

    /**
     * Where a leaf column's vectors lie: {@code fields} are the index of its top-level column,
     * then that of the field in each ROW on the way down; the vector they lead to is the leaf's,
     * or, where {@code elements}, the ARRAY whose elements it holds, of {@code type}.
     */
    private record Route(int[] fields, boolean elements, LogicalType type) {

        LeafPath bind(List<FieldVector> vectors) {
            ValueVector vector = vectors.get(fields[0]);
            ValueVector[] rows = new ValueVector[fields.length - 1];
            for (int i = 1; i < fields.length; i++) {
                rows[i - 1] = vector;
                vector = ((StructVector) vector).getChildrenFromFields().get(fields[i]);
            }
            return elements ? LeafPath.ofElements(rows, (ListVector) vector) : LeafPath.of(rows, vector);
        }
    }
}
