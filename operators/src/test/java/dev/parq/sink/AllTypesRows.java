package dev.parq.sink;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

import dev.parq.schema.TableSchema;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.RowType;

/**
 * A schema with every column type, and rows that are a pure function of their row number so that
 * a test can fill vectors with them and later say what a reader must see. Each column is null on
 * its own rhythm; nested columns also cycle through null, empty and null-element values.
 */
public final class AllTypesRows {

    public static final RowType ROW_TYPE = TableSchema.parse("flag BOOLEAN, ti TINYINT, si SMALLINT, i INT, bi BIGINT,"
                    + " f FLOAT, d DOUBLE, dec10 DECIMAL(10, 2), dec30 DECIMAL(30, 5), s STRING, dt DATE,"
                    + " ts3 TIMESTAMP(3), ts6 TIMESTAMP(6), tz3 TIMESTAMP_LTZ(3),"
                    + " r ROW<a BIGINT, b ROW<c STRING>>, al ARRAY<BIGINT>, ar ARRAY<ROW<k STRING>>,"
                    + " m MAP<STRING, DOUBLE>")
            .rowType();

    static final String LONG_STRING = "x".repeat(700) + "é";
    private static final BigDecimal DEC30_MAX = new BigDecimal(BigInteger.TEN.pow(30).subtract(BigInteger.ONE), 5);

    private AllTypesRows() {}

    static boolean isNull(int column, int g) {
        return (g + column) % 7 == 0;
    }

    static boolean bool(int g) {
        return g % 3 == 1;
    }

    static byte tinyint(int g) {
        return (byte) (g * 37);
    }

    static short smallint(int g) {
        return (short) (g * 1000 - 30000);
    }

    static int integer(int g) {
        return g == 1 ? Integer.MAX_VALUE : g == 2 ? Integer.MIN_VALUE : g * 100_003 - 5_000_000;
    }

    static long bigint(int g) {
        return g == 3 ? Long.MIN_VALUE : g == 4 ? Long.MAX_VALUE : (g % 2 == 0 ? 1 : -1) * g * 1_000_000_007L;
    }

    static float real(int g) {
        return g * 1.5f - 10.25f;
    }

    static double dbl(int g) {
        return g / 3.0 - 7;
    }

    static BigDecimal dec10(int g) {
        return g == 5 ? new BigDecimal("99999999.99") : g == 6 ? new BigDecimal("-99999999.99")
                : BigDecimal.valueOf(g * 12_345L - 600_000, 2);
    }

    static BigDecimal dec30(int g) {
        return g == 8 ? DEC30_MAX : g == 9 ? DEC30_MAX.negate()
                : new BigDecimal(BigInteger.valueOf(g % 1000).pow(9).multiply(BigInteger.valueOf(g % 2 == 0 ? 1 : -1)), 5);
    }

    static String string(int g) {
        switch (g % 5) {
            case 0:
                return "";
            case 1:
                return "héllo wörld ✓ 日本語 😀 " + g;
            case 2:
                return LONG_STRING;
            default:
                return "row-" + g;
        }
    }

    static int date(int g) {
        return g * 97 - 3000;
    }

    static long ts3(int g) {
        return 1_700_000_000_123L + g * 1_001L;
    }

    static long ts6(int g) {
        return 1_700_000_000_123_456L + g * 1_000_001L;
    }

    static long tz3(int g) {
        return -86_400_000L * 400 + g * 3_600_123L;
    }

    /** Column r as DuckDB's to_json renders it, or null. */
    static String rowJson(int g) {
        switch (g % 6) {
            case 0:
                return null;
            case 1:
                return "{\"a\":null,\"b\":null}";
            case 2:
                return "{\"a\":" + g + ",\"b\":{\"c\":null}}";
            default:
                return "{\"a\":" + -g + ",\"b\":{\"c\":\"c" + g + "\"}}";
        }
    }

    static String arrayJson(int g) {
        switch (g % 5) {
            case 0:
                return null;
            case 1:
                return "[]";
            case 2:
                return "[1,null,3]";
            default:
                return "[" + g + "," + (g * 2) + "]";
        }
    }

    static String arrayOfRowsJson(int g) {
        switch (g % 4) {
            case 0:
                return "[null,{\"k\":null},{\"k\":\"k" + g + "\"}]";
            case 1:
                return null;
            case 2:
                return "[]";
            default:
                return "[{\"k\":\"only\"}]";
        }
    }

    static String mapJson(int g) {
        switch (g % 4) {
            case 0:
                return "{}";
            case 1:
                return "{\"a\":1.5,\"b\":null}";
            case 2:
                return null;
            default:
                return "{\"k" + g + "\":-0.25}";
        }
    }

    /** Refills {@code root}'s vectors, as the parser does, with rows {@code first ..< first + count}. */
    public static void fill(VectorSchemaRoot root, int first, int count) {
        root.getFieldVectors().forEach(FieldVector::reset);
        for (int r = 0; r < count; r++) {
            int row = r;
            int g = first + r;
            set(root, 0, g, v -> ((BitVector) v).setSafe(row, bool(g) ? 1 : 0));
            set(root, 1, g, v -> ((TinyIntVector) v).setSafe(row, tinyint(g)));
            set(root, 2, g, v -> ((SmallIntVector) v).setSafe(row, smallint(g)));
            set(root, 3, g, v -> ((IntVector) v).setSafe(row, integer(g)));
            set(root, 4, g, v -> ((BigIntVector) v).setSafe(row, bigint(g)));
            set(root, 5, g, v -> ((Float4Vector) v).setSafe(row, real(g)));
            set(root, 6, g, v -> ((Float8Vector) v).setSafe(row, dbl(g)));
            set(root, 7, g, v -> ((DecimalVector) v).setSafe(row, dec10(g)));
            set(root, 8, g, v -> ((DecimalVector) v).setSafe(row, dec30(g)));
            set(root, 9, g, v -> ((VarCharVector) v).setSafe(row, string(g).getBytes(StandardCharsets.UTF_8)));
            set(root, 10, g, v -> ((DateDayVector) v).setSafe(row, date(g)));
            set(root, 11, g, v -> ((TimeStampVector) v).setSafe(row, ts3(g)));
            set(root, 12, g, v -> ((TimeStampVector) v).setSafe(row, ts6(g)));
            set(root, 13, g, v -> ((TimeStampVector) v).setSafe(row, tz3(g)));
            fillRow((StructVector) root.getVector(14), row, g);
            fillArray((ListVector) root.getVector(15), row, g);
            fillArrayOfRows((ListVector) root.getVector(16), row, g);
            fillMap((MapVector) root.getVector(17), row, g);
        }
        root.setRowCount(count);
    }

    private static void set(VectorSchemaRoot root, int column, int g, java.util.function.Consumer<FieldVector> setter) {
        FieldVector vector = root.getVector(column);
        if (!isNull(column, g)) {
            setter.accept(vector);
        }
    }

    private static void fillRow(StructVector r, int row, int g) {
        BigIntVector a = (BigIntVector) r.getChild("a");
        StructVector b = (StructVector) r.getChild("b");
        VarCharVector c = (VarCharVector) b.getChild("c");
        switch (g % 6) {
            case 0:
                r.setNull(row);
                return;
            case 1:
                a.setNull(row);
                b.setNull(row);
                break;
            case 2:
                a.setSafe(row, g);
                b.setIndexDefined(row);
                c.setNull(row);
                break;
            default:
                a.setSafe(row, -g);
                b.setIndexDefined(row);
                c.setSafe(row, ("c" + g).getBytes(StandardCharsets.UTF_8));
        }
        r.setIndexDefined(row);
    }

    private static void fillArray(ListVector list, int row, int g) {
        BigIntVector elements = (BigIntVector) list.getDataVector();
        if (g % 5 == 0) {
            list.setNull(row);
            return;
        }
        int start = list.startNewValue(row);
        long[] values = g % 5 == 1 ? new long[0] : g % 5 == 2 ? new long[] {1, 0, 3} : new long[] {g, g * 2L};
        for (int i = 0; i < values.length; i++) {
            if (g % 5 == 2 && i == 1) {
                elements.setNull(start + i);
            } else {
                elements.setSafe(start + i, values[i]);
            }
        }
        list.endValue(row, values.length);
    }

    private static void fillArrayOfRows(ListVector list, int row, int g) {
        StructVector element = (StructVector) list.getDataVector();
        VarCharVector k = (VarCharVector) element.getChild("k");
        if (g % 4 == 1) {
            list.setNull(row);
            return;
        }
        int start = list.startNewValue(row);
        int size = 0;
        if (g % 4 == 0) {
            element.setNull(start);
            element.setIndexDefined(start + 1);
            k.setNull(start + 1);
            element.setIndexDefined(start + 2);
            k.setSafe(start + 2, ("k" + g).getBytes(StandardCharsets.UTF_8));
            size = 3;
        } else if (g % 4 == 3) {
            element.setIndexDefined(start);
            k.setSafe(start, "only".getBytes(StandardCharsets.UTF_8));
            size = 1;
        }
        list.endValue(row, size);
    }

    private static void fillMap(MapVector map, int row, int g) {
        StructVector entries = (StructVector) map.getDataVector();
        VarCharVector key = (VarCharVector) entries.getChild(MapVector.KEY_NAME);
        Float8Vector value = (Float8Vector) entries.getChild(MapVector.VALUE_NAME);
        if (g % 4 == 2) {
            map.setNull(row);
            return;
        }
        int start = map.startNewValue(row);
        int size = 0;
        if (g % 4 == 1) {
            entries.setIndexDefined(start);
            key.setSafe(start, "a".getBytes(StandardCharsets.UTF_8));
            value.setSafe(start, 1.5);
            entries.setIndexDefined(start + 1);
            key.setSafe(start + 1, "b".getBytes(StandardCharsets.UTF_8));
            value.setNull(start + 1);
            size = 2;
        } else if (g % 4 == 3) {
            entries.setIndexDefined(start);
            key.setSafe(start, ("k" + g).getBytes(StandardCharsets.UTF_8));
            value.setSafe(start, -0.25);
            size = 1;
        }
        map.endValue(row, size);
    }
}
