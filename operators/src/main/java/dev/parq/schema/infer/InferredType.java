package dev.parq.schema.infer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.parq.parse.decode.TimestampDecoder;

/**
 * What the sampled values of one field have in common, widened as values arrive: integers and
 * floats meet in DOUBLE; objects merge field by field; anything else that disagrees is STRING.
 */
public final class InferredType {

    enum Kind { NULL, BOOLEAN, INTEGER, DOUBLE, STRING, OBJECT, ARRAY, MIXED }

    private Kind kind = Kind.NULL;
    private boolean allInstants = true;
    private Map<String, InferredType> fields;
    private InferredType element;

    /** Observes the value whose first token is {@code token}, leaving the parser after it. */
    public void observe(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case VALUE_NULL:
                return;
            case VALUE_TRUE:
            case VALUE_FALSE:
                become(Kind.BOOLEAN);
                return;
            case VALUE_NUMBER_INT:
                // An integer beyond BIGINT is kept as a DOUBLE rather than rejected.
                become(parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? Kind.DOUBLE : Kind.INTEGER);
                return;
            case VALUE_NUMBER_FLOAT:
                become(Kind.DOUBLE);
                return;
            case VALUE_STRING:
                if (become(Kind.STRING) && allInstants && !TimestampDecoder.readsInstant(parser.getText())) {
                    allInstants = false;
                }
                return;
            case START_OBJECT:
                if (!become(Kind.OBJECT)) {
                    parser.skipChildren();
                    return;
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    fields.computeIfAbsent(name, n -> new InferredType()).observe(parser, parser.nextToken());
                }
                return;
            case START_ARRAY:
                if (!become(Kind.ARRAY)) {
                    parser.skipChildren();
                    return;
                }
                for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
                    if (element == null) {
                        element = new InferredType();
                    }
                    element.observe(parser, t);
                }
                return;
            default:
                throw new IOException("unexpected token " + token);
        }
    }

    /** Widens this type to also hold everything {@code other} holds. */
    public void merge(InferredType other) {
        if (other.kind == Kind.NULL || !become(other.kind)) {
            return;
        }
        switch (kind) {
            case STRING:
                allInstants &= other.allInstants;
                return;
            case OBJECT:
                other.fields.forEach((name, type) -> fields.computeIfAbsent(name, n -> new InferredType()).merge(type));
                return;
            case ARRAY:
                if (other.element != null) {
                    if (element == null) {
                        element = new InferredType();
                    }
                    element.merge(other.element);
                }
                return;
            default:
        }
    }

    /** Moves to the kind that holds both; false if that is MIXED (nothing more to learn). */
    private boolean become(Kind next) {
        if (kind == next) {
            return kind != Kind.MIXED;
        }
        if (kind == Kind.NULL) {
            kind = next;
            if (next == Kind.OBJECT) {
                fields = new LinkedHashMap<>();
            }
            return next != Kind.MIXED;
        }
        if ((kind == Kind.INTEGER && next == Kind.DOUBLE) || (kind == Kind.DOUBLE && next == Kind.INTEGER)) {
            kind = Kind.DOUBLE;
            return true;
        }
        kind = Kind.MIXED;
        fields = null;
        element = null;
        return false;
    }

    public boolean isObjectWithFields() {
        return kind == Kind.OBJECT && !fields.isEmpty();
    }

    /** The fields of an object type, as a ROW; null if it has none that can be columns. */
    public RowType toRowType() {
        List<RowType.RowField> rowFields = new ArrayList<>();
        fields.forEach((name, type) -> {
            if (!name.isBlank()) {
                rowFields.add(new RowType.RowField(name, type.toLogicalType()));
            }
        });
        return rowFields.isEmpty() ? null : new RowType(rowFields);
    }

    LogicalType toLogicalType() {
        switch (kind) {
            case BOOLEAN:
                return new BooleanType();
            case INTEGER:
                return new BigIntType();
            case DOUBLE:
                return new DoubleType();
            case STRING:
                return allInstants ? new LocalZonedTimestampType(3) : string();
            case OBJECT: {
                RowType row = toRowType();
                return row == null ? string() : row;
            }
            case ARRAY:
                return new ArrayType(element == null ? string() : element.toLogicalType());
            default:
                return string();
        }
    }

    private static LogicalType string() {
        return new VarCharType(VarCharType.MAX_LENGTH);
    }
}
