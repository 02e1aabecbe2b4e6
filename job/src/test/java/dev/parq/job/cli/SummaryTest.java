package dev.parq.job.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class SummaryTest {

    @Test
    void aShortSchemaIsShownWhole() {
        String ddl = "id BIGINT, level STRING, ts TIMESTAMP_LTZ(3)";
        assertEquals(ddl, Summary.schemaLine(ddl));
    }

    /** A wide schema fits a line: its column count and first names, and where the rest is. */
    @Test
    void aWideSchemaIsShownAsItsColumnCountAndFirstNames() {
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            columns.add("column_number_" + i + " ROW<a BIGINT, b ARRAY<STRING>, c MAP<STRING, DOUBLE>>");
        }
        String line = Summary.schemaLine(String.join(", ", columns));
        assertTrue(line.length() <= 300, line.length() + ": " + line);
        assertTrue(line.startsWith("400 columns: column_number_0, column_number_1, "), line);
        assertTrue(line.matches(".*, \\.\\.\\. \\([0-9]+ more\\); the whole schema is in _SUCCESS and \\./parq schema"), line);
        String oneLongName = "`" + "x".repeat(500) + "` STRING, " + String.join(", ", columns.subList(0, 20));
        assertTrue(Summary.schemaLine(oneLongName).length() <= 300, Summary.schemaLine(oneLongName));
    }
}
