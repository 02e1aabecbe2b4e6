package dev.parq.schema;

import java.util.List;

import org.apache.flink.table.types.logical.RowType;

import dev.parq.json.Tokenizer;
import dev.parq.schema.infer.InferredType;
import dev.parq.schema.infer.Sampler;

/**
 * Infers the columns of NDJSON input from a sample spread over all of it, not only its head.
 *
 * <p>Integers are BIGINT, integers mixed with fractions DOUBLE, booleans BOOLEAN; objects become
 * ROWs merged field by field and arrays ARRAYs of their merged elements (ARRAY&lt;STRING&gt; if only
 * empty ones were seen). Strings that are all date-times with 'Z' or an offset become
 * TIMESTAMP_LTZ(p), all date-times without a zone TIMESTAMP(p), p the most fractional digits seen
 * (3, 6 or 9: 0-3 digits are 3). Anything mixed, and fields that were only ever null, are STRING. Columns and
 * fields are in order of first appearance. Lines that are not JSON objects are skipped.
 */
public final class SchemaInference {

    public static final long DEFAULT_SAMPLE_BYTES = 16L << 20;

    private SchemaInference() {}

    public static TableSchema infer(List<String> files, long sampleBytes) {
        InferredType columns = new InferredType();
        for (WindowTypes window : Sampler.sampleInParallel(files, sampleBytes, WindowTypes::new)) {
            columns.merge(window.types);
        }
        RowType row = columns.isObjectWithFields() ? columns.toRowType() : null;
        if (row == null) {
            throw new SchemaException("no JSON objects found in the sample of " + describe(files)
                    + " (" + sampleBytes + " bytes); give the schema explicitly");
        }
        return TableSchema.of(row);
    }

    /** The merged types of the lines of one sample window. */
    private static final class WindowTypes implements Sampler.LineConsumer {
        private final InferredType types = new InferredType();
        private final Tokenizer tokenizer = new Tokenizer();

        @Override
        public void line(byte[] bytes, int from, int to) {
            InferredType line = objectLine(tokenizer, bytes, from, to);
            if (line != null) {
                types.merge(line);
            }
        }
    }

    /**
     * The types of one line's object, or null if the line is not exactly one JSON object: the
     * parser's own tokenizer judges it, so a line the job would reject teaches inference nothing.
     */
    private static InferredType objectLine(Tokenizer tokenizer, byte[] bytes, int from, int to) {
        if (tokenizer.scan(bytes, from, to) != Tokenizer.OBJECT || tokenizer.lineEnd() != to) {
            return null;
        }
        InferredType line = new InferredType();
        line.observe(tokenizer.tape(), 0);
        return line;
    }

    private static String describe(List<String> files) {
        if (files.isEmpty()) {
            return "no input files";
        }
        return files.size() == 1 ? files.get(0).toString() : files.size() + " files (" + files.get(0) + ", ...)";
    }
}
