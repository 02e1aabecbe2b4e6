package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.parse.UnknownFieldsMode;
import dev.parq.parse.operator.ParseOptions;
import dev.parq.source.enumerate.InputFile;

/** The schema of a conversion and the column of the unknown keys. */
class ConvertSettingsTest {

    @TempDir
    Path dir;

    private List<InputFile> input() throws Exception {
        Path file = dir.resolve("in.ndjson");
        Files.writeString(file, "{\"id\": 1, \"_unknown\": {\"a\": 1}}\n");
        return Reading.expand(List.of(file.toString()));
    }

    private static Configuration config(UnknownFieldsMode mode) {
        Configuration config = new Configuration();
        config.set(ParseOptions.UNKNOWN_FIELDS, mode);
        return config;
    }

    @Test
    void inferenceWithKeepLeavesAnInputKeyNamedLikeTheColumnToTheUnknownKeys() throws Exception {
        assertEquals(List.of("id"), ConvertSettings.schema(config(UnknownFieldsMode.KEEP), input()).columnNames());
        assertEquals(List.of("id", "_unknown"),
                ConvertSettings.schema(config(UnknownFieldsMode.DROP), input()).columnNames());
    }

    @Test
    void aGivenSchemaWithTheColumnIsAUsageErrorWithKeepOnly() throws Exception {
        Configuration keep = config(UnknownFieldsMode.KEEP);
        keep.set(ParqOptions.SCHEMA, "id BIGINT, _unknown STRING");
        ConversionException e = assertThrows(ConversionException.class, () -> ConvertSettings.schema(keep, input()));
        assertEquals(2, e.exitCode());
        assertTrue(e.getMessage().contains("'_unknown'"), e.getMessage());
        Configuration drop = config(UnknownFieldsMode.DROP);
        drop.set(ParqOptions.SCHEMA, "id BIGINT, _unknown STRING");
        assertEquals(List.of("id", "_unknown"), ConvertSettings.schema(drop, input()).columnNames());
    }
}
