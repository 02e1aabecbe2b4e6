package dev.parq.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.parq.schema.TableSchema;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

class ParquetSchemasTest {

    @Test
    void mapsNestedTypesToTheStandardLayouts() {
        MessageType actual = ParquetSchemas.toParquet(TableSchema.parse(
                        "id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, INT>, u ROW<n SMALLINT, t TIMESTAMP(9)>")
                .rowType());
        MessageType expected = MessageTypeParser.parseMessageType("message parq {\n"
                + "  optional int64 id;\n"
                + "  optional group tags (LIST) {\n"
                + "    repeated group list { optional binary element (STRING); }\n"
                + "  }\n"
                + "  optional group attrs (MAP) {\n"
                + "    repeated group key_value { required binary key (STRING); optional int32 value (INTEGER(32,true)); }\n"
                + "  }\n"
                + "  optional group u {\n"
                + "    optional int32 n (INTEGER(16,true));\n"
                + "    optional int64 t (TIMESTAMP(NANOS,false));\n"
                + "  }\n"
                + "}");
        assertEquals(expected, actual);
    }

    @Test
    void decimalsTakeTheNarrowestPhysicalType() {
        MessageType schema = ParquetSchemas.toParquet(TableSchema.parse(
                        "a DECIMAL(9, 2), b DECIMAL(18, 0), c DECIMAL(19, 4), d DECIMAL(38, 10), ts TIMESTAMP_LTZ(6)")
                .rowType());
        assertEquals(MessageTypeParser.parseMessageType("message parq {\n"
                        + "  optional int32 a (DECIMAL(9,2));\n"
                        + "  optional int64 b (DECIMAL(18,0));\n"
                        + "  optional fixed_len_byte_array(9) c (DECIMAL(19,4));\n"
                        + "  optional fixed_len_byte_array(16) d (DECIMAL(38,10));\n"
                        + "  optional int64 ts (TIMESTAMP(MICROS,true));\n"
                        + "}"),
                schema);
    }

    @Test
    void minimalDecimalBytes() {
        assertEquals(4, ParquetSchemas.decimalBytes(9));
        assertEquals(8, ParquetSchemas.decimalBytes(18));
        assertEquals(9, ParquetSchemas.decimalBytes(19));
        assertEquals(13, ParquetSchemas.decimalBytes(30));
        assertEquals(16, ParquetSchemas.decimalBytes(38));
    }

    @Test
    void optionsReadFromFlinkConfiguration() {
        Configuration config = new Configuration();
        config.set(ParquetSinkOptions.COMPRESSION, "ZSTD");
        config.set(ParquetSinkOptions.ROW_GROUP_SIZE, MemorySize.parse("64kb"));
        config.set(ParquetSinkOptions.DICTIONARY, false);
        ParquetWriterOptions options = ParquetWriterOptions.fromConfig(config);
        assertEquals(ParquetWriterOptions.defaults()
                        .withCompression(Compression.ZSTD)
                        .withRowGroupSize(64 * 1024)
                        .withDictionary(false),
                options);
        assertEquals(1024 * 1024, options.pageSize());
    }
}
