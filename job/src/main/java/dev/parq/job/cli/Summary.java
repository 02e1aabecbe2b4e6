package dev.parq.job.cli;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.parq.job.pipeline.Pipeline;
import dev.parq.job.run.ConvertRun;
import dev.parq.job.run.Manifest;
import dev.parq.parse.UnknownField;
import dev.parq.parse.UnknownFieldsMode;
import dev.parq.schema.TableSchema;

/** The one-screen summary printed when a conversion ends. */
final class Summary {

    private static final int UNKNOWN_KEYS_SHOWN = 10;
    /** A schema up to this long is shown whole; a longer one as its column count and first names. */
    static final int SCHEMA_SHOWN = 160;
    /** Key paths longer than this are cut in the list of keys not in the schema. */
    private static final int KEY_SHOWN = 60;

    private Summary() {}

    static void print(Manifest manifest, PrintStream out) {
        double seconds = Math.max(1e-3, manifest.elapsedMs() / 1000.0);
        long outputBytes = manifest.files().stream().mapToLong(Manifest.OutputFile::bytes).sum();
        out.printf(Locale.ROOT, "parq: converted %s of NDJSON in %s (%s/s)%n",
                Units.bytes(manifest.bytesIn()), Units.duration(manifest.elapsedMs()),
                Units.bytes((long) (manifest.bytesIn() / seconds)));
        out.printf("  records read   %s%n", Units.count(manifest.recordsIn()));
        long partitions = manifest.files().stream().map(Manifest.OutputFile::partition).distinct().count();
        out.printf("  rows written   %s in %d Parquet file(s)%s, %s%n",
                Units.count(manifest.rowsWritten()), manifest.files().size(),
                manifest.partitioned() ? " in " + partitions + " partition(s)" : "", Units.bytes(outputBytes));
        out.printf("  rejected       %s%s%n", Units.count(manifest.rejected()),
                manifest.rejected() > 0 ? "  -> " + manifest.output().resolve(Pipeline.REJECTED_DIR) : "");
        Map<String, UnknownField> unknown = manifest.unknownFields();
        if (!unknown.isEmpty()) {
            out.printf("  keys not in the schema (%d)%s:%n", unknown.size(),
                    manifest.unknownFieldsMode() == UnknownFieldsMode.KEEP
                            ? ", those outside arrays kept in " + UnknownFieldsMode.COLUMN : "");
            unknown.entrySet().stream()
                    .sorted(Comparator.comparing((Map.Entry<String, UnknownField> e) -> -e.getValue().count())
                            .thenComparing(Map.Entry::getKey))
                    .limit(UNKNOWN_KEYS_SHOWN)
                    .forEach(e -> out.printf("    %-24s %s times, first in %s at byte %d%n", shortened(e.getKey()),
                            Units.count(e.getValue().count()), e.getValue().firstFile(), e.getValue().firstOffset()));
            if (unknown.size() > UNKNOWN_KEYS_SHOWN) {
                out.printf("    ... and %d more in the manifest%n", unknown.size() - UNKNOWN_KEYS_SHOWN);
            }
        }
        out.printf("  schema         %s%n", schemaLine(manifest.schemaDdl()));
        out.printf("  manifest       %s%n", manifest.output().resolve(ConvertRun.MANIFEST));
    }

    /**
     * The schema as the summary shows it: whole when it is short, else its column count and the
     * names of as many first columns as fit, pointing to where the whole of it is.
     */
    static String schemaLine(String ddl) {
        if (ddl.length() <= SCHEMA_SHOWN) {
            return ddl;
        }
        List<String> names = TableSchema.parse(ddl).columnNames();
        StringBuilder line = new StringBuilder().append(names.size()).append(" columns: ");
        int shown = 0;
        for (String name : names) {
            if (line.length() + name.length() > SCHEMA_SHOWN - 20 && shown > 0) {
                break;
            }
            line.append(shown == 0 ? "" : ", ").append(shortened(name));
            shown++;
        }
        if (shown < names.size()) {
            line.append(", ... (").append(names.size() - shown).append(" more)");
        }
        return line.append("; the whole schema is in ").append(ConvertRun.MANIFEST).append(" and ./parq schema").toString();
    }

    private static String shortened(String text) {
        return text.length() <= KEY_SHOWN ? text : text.substring(0, KEY_SHOWN - 3) + "...";
    }
}
