package dev.parq.sink.tensor;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;

import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

import dev.parq.schema.SchemaException;
import dev.parq.schema.TableSchema;

/**
 * The numeric fields that become the columns of a tensor, as dotted paths ({@code user.id}), in
 * the order given. The parse schema is the ROW structure those paths need with DOUBLE leaves, so
 * that integer and fractional numbers are accepted and any other JSON value is a bad line.
 */
public final class TensorColumns implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<List<String>> paths;

    private TensorColumns(List<List<String>> paths) {
        this.paths = paths;
    }

    /** Parses a comma-separated list of dotted paths, refusing empty names and paths given twice. */
    public static TensorColumns parse(String columns) throws SchemaException {
        List<List<String>> paths = new ArrayList<>();
        for (String column : columns.split(",", -1)) {
            String trimmed = column.trim();
            List<String> path = List.of(trimmed.split("\\.", -1));
            if (trimmed.isEmpty() || path.stream().anyMatch(String::isEmpty)) {
                throw new SchemaException("column '" + trimmed + "' in '" + columns
                        + "': expected field names separated by dots, such as user.id");
            }
            for (List<String> other : paths) {
                if (isPrefix(other, path) || isPrefix(path, other)) {
                    throw new SchemaException(other.equals(path)
                            ? "column '" + trimmed + "' is given twice"
                            : "columns '" + String.join(".", other) + "' and '" + trimmed
                                    + "' overlap: a column must be a number, not an object holding another column");
                }
            }
            paths.add(path);
        }
        return new TensorColumns(List.copyOf(paths));
    }

    private static boolean isPrefix(List<String> prefix, List<String> path) {
        return prefix.size() <= path.size() && path.subList(0, prefix.size()).equals(prefix);
    }

    public int count() {
        return paths.size();
    }

    /** The dotted names, in column order. */
    public List<String> names() {
        return paths.stream().map(path -> String.join(".", path)).toList();
    }

    /** The parse schema: the ROW structure of the paths, DOUBLE at every leaf. */
    public TableSchema schema() {
        Map<String, Object> root = new LinkedHashMap<>();
        for (List<String> path : paths) {
            Map<String, Object> node = root;
            for (String name : path.subList(0, path.size() - 1)) {
                node = castTree(node.computeIfAbsent(name, n -> new LinkedHashMap<String, Object>()));
            }
            node.put(path.get(path.size() - 1), new DoubleType());
        }
        return TableSchema.of(rowType(root));
    }

    private static RowType rowType(Map<String, Object> node) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (Map.Entry<String, Object> field : node.entrySet()) {
            LogicalType type = field.getValue() instanceof LogicalType leaf ? leaf : rowType(castTree(field.getValue()));
            fields.add(new RowType.RowField(field.getKey(), type));
        }
        return new RowType(fields);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castTree(Object node) {
        return (Map<String, Object>) node;
    }

    /** The leaf vectors of {@code root}, in column order, each with the structs above it. */
    Leaf[] leaves(VectorSchemaRoot root) {
        Leaf[] leaves = new Leaf[paths.size()];
        for (int column = 0; column < leaves.length; column++) {
            List<String> path = paths.get(column);
            ValueVector[] chain = new ValueVector[path.size()];
            chain[0] = root.getVector(path.get(0));
            for (int depth = 1; depth < path.size(); depth++) {
                chain[depth] = ((StructVector) chain[depth - 1]).getChild(path.get(depth));
            }
            leaves[column] = new Leaf(chain, (Float8Vector) chain[chain.length - 1]);
        }
        return leaves;
    }

    /** One column's DOUBLE vector; null when it or any struct above it is null in a row. */
    record Leaf(ValueVector[] chain, Float8Vector values) {
        double get(int row) {
            for (ValueVector vector : chain) {
                if (vector.isNull(row)) {
                    return Double.NaN;
                }
            }
            return values.get(row);
        }
    }
}
