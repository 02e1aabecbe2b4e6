package dev.parq.job.cli;

import java.io.PrintStream;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;

import dev.parq.job.ConvertJob;
import dev.parq.job.Manifest;
import dev.parq.parse.UnknownField;

/** The one-screen summary printed when a conversion ends. */
final class Summary {

    private static final int UNKNOWN_KEYS_SHOWN = 10;

    private Summary() {}

    static void print(Manifest manifest, PrintStream out) {
        double seconds = Math.max(1e-3, manifest.elapsedMs() / 1000.0);
        long outputBytes = manifest.files().stream().mapToLong(Manifest.OutputFile::bytes).sum();
        out.printf(Locale.ROOT, "parq: converted %s of NDJSON in %s (%s/s)%n",
                Units.bytes(manifest.bytesIn()), Units.duration(manifest.elapsedMs()),
                Units.bytes((long) (manifest.bytesIn() / seconds)));
        out.printf("  records read   %s%n", Units.count(manifest.recordsIn()));
        out.printf("  rows written   %s in %d Parquet file(s), %s%n",
                Units.count(manifest.rowsWritten()), manifest.files().size(), Units.bytes(outputBytes));
        out.printf("  rejected       %s%s%n", Units.count(manifest.rejected()),
                manifest.rejected() > 0 ? "  -> " + manifest.output().resolve(ConvertJob.REJECTED_DIR) : "");
        Map<String, UnknownField> unknown = manifest.unknownFields();
        if (!unknown.isEmpty()) {
            out.printf("  keys not in the schema (%d):%n", unknown.size());
            unknown.entrySet().stream()
                    .sorted(Comparator.comparing((Map.Entry<String, UnknownField> e) -> -e.getValue().count())
                            .thenComparing(Map.Entry::getKey))
                    .limit(UNKNOWN_KEYS_SHOWN)
                    .forEach(e -> out.printf("    %-24s %s times, first in %s at byte %d%n", e.getKey(),
                            Units.count(e.getValue().count()), e.getValue().firstFile(), e.getValue().firstOffset()));
            if (unknown.size() > UNKNOWN_KEYS_SHOWN) {
                out.printf("    ... and %d more in the manifest%n", unknown.size() - UNKNOWN_KEYS_SHOWN);
            }
        }
        out.printf("  schema         %s%n", manifest.schemaDdl());
        out.printf("  manifest       %s%n", manifest.output().resolve(ConvertJob.MANIFEST));
    }
}
