package dev.parq.job.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.parq.io.NoSpaceLeftException;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ConvertSettings;
import dev.parq.job.pipeline.Pipeline;
import dev.parq.job.pipeline.Storage;
import dev.parq.parse.UnknownField;
import dev.parq.parse.UnknownFieldsMode;
import dev.parq.sink.commit.ParquetFooters;
import dev.parq.source.enumerate.InputFile;

/**
 * What a conversion did, as written to {@code OUTPUT/_SUCCESS}: inputs, counts, unknown keys,
 * output files and schema. The row counts come from the Parquet footers and the rejected count
 * from the lines in {@code _rejected/}, so the check that they add up is made on what is on disk.
 */
public final class Manifest {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final ConvertSettings settings;
    private final JobRunner.Counters counters;
    private final List<OutputFile> files;
    private final long rowsWritten;
    private final long rejectedOnDisk;
    private final long elapsedMs;

    /**
     * One Parquet file of the output: its path relative to the output, and its partition's
     * folders ("" without partitions).
     */
    public record OutputFile(String path, String partition, long rows, long bytes) {}

    private Manifest(ConvertSettings settings, JobRunner.Counters counters, List<OutputFile> files,
            long rejectedOnDisk, long elapsedMs) {
        this.settings = settings;
        this.counters = counters;
        this.files = files;
        this.rowsWritten = files.stream().mapToLong(OutputFile::rows).sum();
        this.rejectedOnDisk = rejectedOnDisk;
        this.elapsedMs = elapsedMs;
    }

    static Manifest collect(ConvertSettings settings, JobRunner.Counters counters, long elapsedMs)
            throws ConversionException {
        try {
            return new Manifest(settings, counters, parquetFiles(settings.output()),
                    countLines(new Path(settings.output(), Pipeline.REJECTED_DIR)), elapsedMs);
        } catch (IOException e) {
            throw ConversionException.failed("cannot read back the output in " + settings.output() + ": "
                    + Storage.describe(e), e);
        }
    }

    /**
     * The visible Parquet files of the output, in its partition folders too, in path order; what
     * readers skip (names starting with '.' or '_', in-progress files and {@code _rejected/}
     * among them) is skipped.
     */
    static List<OutputFile> parquetFiles(Path output) throws IOException {
        List<OutputFile> files = new ArrayList<>();
        collectParquetFiles(output.getFileSystem(), output, "", files);
        files.sort(Comparator.comparing(OutputFile::path));
        return files;
    }

    private static void collectParquetFiles(FileSystem fs, Path directory, String partition, List<OutputFile> files)
            throws IOException {
        for (FileStatus entry : OutputDirectory.list(fs, directory)) {
            String name = entry.getPath().getName();
            if (name.startsWith(".") || name.startsWith("_")) {
                continue;
            }
            String relative = partition.isEmpty() ? name : partition + "/" + name;
            if (entry.isDir()) {
                collectParquetFiles(fs, entry.getPath(), relative, files);
            } else if (name.endsWith(".parquet")) {
                files.add(new OutputFile(relative, partition,
                        ParquetFooters.rowCount(entry.getPath(), entry.getLen()), entry.getLen()));
            }
        }
    }

    /** Lines in the files of {@code directory} (0 if there is none), skipping hidden in-progress files. */
    static long countLines(Path directory) throws IOException {
        FileSystem fs = directory.getFileSystem();
        long lines = 0;
        for (FileStatus entry : OutputDirectory.list(fs, directory)) {
            if (entry.isDir() || entry.getPath().getName().startsWith(".")) {
                continue;
            }
            try (BufferedReader reader = new BufferedReader(
                    new InputStreamReader(fs.open(entry.getPath()), StandardCharsets.UTF_8))) {
                while (reader.readLine() != null) {
                    lines++;
                }
            }
        }
        return lines;
    }

    /** Fails the conversion unless every input record is either a Parquet row or a rejected line. */
    void checkCounts() throws ConversionException {
        if (rowsWritten + rejectedOnDisk != counters.recordsIn() || rejectedOnDisk != counters.rejected()) {
            throw ConversionException.failed(String.format(
                    "counts do not add up: %d records read, %d rows in Parquet, %d rejected lines on disk"
                            + " (%d counted by the parsers); the output in %s is incomplete",
                    counters.recordsIn(), rowsWritten, rejectedOnDisk, counters.rejected(), settings.output()), null);
        }
    }

    void write(Path path) throws ConversionException {
        try (OutputStream out = path.getFileSystem().create(path, FileSystem.WriteMode.OVERWRITE)) {
            out.write(JSON.writeValueAsBytes(toJson()));
        } catch (IOException e) {
            IOException full = NoSpaceLeftException.naming("the manifest " + Storage.display(path), e);
            if (full != e) {
                throw new ConversionException(ConversionException.Kind.NO_SPACE, full.getMessage(), full);
            }
            throw ConversionException.failed("cannot write the manifest " + path + ": " + Storage.describe(e), e);
        }
    }

    Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        List<Map<String, Object>> inputs = new ArrayList<>();
        for (InputFile input : settings.reading().inputFiles()) {
            inputs.add(ordered("path", input.path(), "bytes", input.length()));
        }
        json.put("inputs", inputs);
        json.put("bytes_in", settings.reading().totalBytes());
        json.put("records_in", counters.recordsIn());
        json.put("rows_written", rowsWritten);
        json.put("rejected", rejectedOnDisk);
        Map<String, Object> unknown = new TreeMap<>();
        counters.unknownFields().forEach((path, field) -> unknown.put(path, ordered(
                "count", field.count(), "first_file", field.firstFile(), "first_offset", field.firstOffset())));
        json.put("unknown_fields", unknown);
        List<Map<String, Object>> outputs = new ArrayList<>();
        Map<String, Map<String, Object>> partitions = new TreeMap<>();
        for (OutputFile file : files) {
            outputs.add(ordered("path", file.path(), "rows", file.rows(), "bytes", file.bytes()));
            Map<String, Object> partition = partitions.computeIfAbsent(file.partition(),
                    p -> ordered("rows", 0L, "bytes", 0L, "files", new ArrayList<String>()));
            partition.put("rows", (Long) partition.get("rows") + file.rows());
            partition.put("bytes", (Long) partition.get("bytes") + file.bytes());
            @SuppressWarnings("unchecked")
            List<String> names = (List<String>) partition.get("files");
            names.add(file.path());
        }
        json.put("files", outputs);
        settings.partitioning().spec().ifPresent(spec -> {
            json.put("partition_by", spec.toString());
            json.put("partitions", partitions);
        });
        json.put("schema", settings.reading().schema().toDdl());
        json.put("compression", settings.writerOptions().compression().name().toLowerCase(Locale.ROOT));
        json.put("on_error", settings.reading().onError().toString());
        json.put("unknown_fields_mode", settings.reading().unknownFields().toString());
        json.put("elapsed_ms", elapsedMs);
        return json;
    }

    /** A JSON object whose keys keep the order given: key, value, key, value... */
    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> object = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            object.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return object;
    }

    public long recordsIn() {
        return counters.recordsIn();
    }

    public long rowsWritten() {
        return rowsWritten;
    }

    public long rejected() {
        return rejectedOnDisk;
    }

    public long bytesIn() {
        return settings.reading().totalBytes();
    }

    public long elapsedMs() {
        return elapsedMs;
    }

    /** Whether the output has partition folders. */
    public boolean partitioned() {
        return settings.partitioning().spec().isPresent();
    }

    public List<OutputFile> files() {
        return files;
    }

    public Map<String, UnknownField> unknownFields() {
        return counters.unknownFields();
    }

    public UnknownFieldsMode unknownFieldsMode() {
        return settings.reading().unknownFields();
    }

    public String schemaDdl() {
        return settings.reading().schema().toDdl();
    }

    public Path output() {
        return settings.output();
    }
}
