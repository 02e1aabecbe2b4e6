package dev.parq.sink.partition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

import dev.parq.batch.ArrowBatch;

/**
 * Splits each batch into batches of one partition each, with the columns the files store: the
 * batch itself, its vectors unchanged, when all its rows are of one partition (time-ordered logs,
 * nearly always); a slice of the vectors per partition when each partition's rows are one run; a
 * copy of each partition's rows when they interleave. Partitions come out in the order of their
 * first row, and each batch's rows in input order.
 *
 * <p>The vectors of a slice or copy are released once the consumer returns: like the parser's
 * batches, what is handed on is only valid during the call.
 */
public final class BatchPartitioner {

    private final PartitionSpec spec;
    private final int[] fileColumns;
    private final TimeLevel[] timeLevels;
    private final ValueLevel[] valueLevels;

    private final Map<String, Integer> partitionIndex = new HashMap<>();
    /** The partition numbers of the level codes seen in the batch, so that a row's folders are built once per partition. */
    private final Map<Codes, Integer> partitionOfCodes = new HashMap<>();
    private final Codes probe = new Codes();
    private final List<String> partitions = new ArrayList<>();
    private int[] partitionOfRow = new int[0];
    /** The batch's rows grouped by partition, in input order within each: those of partition p from {@code firstOf[p]}. */
    private int[] rowsByPartition = new int[0];
    private int[] firstOf = new int[1];
    private long[] codes;
    private long[] previousCodes;
    /** The level whose times are event time, or -1; and the latest of them in the last batch. */
    private final int eventLevel;
    private long latestEvent = Long.MIN_VALUE;

    /** The root over the source batch's vectors that the files store, kept while the parser's vectors stay the same. */
    private VectorSchemaRoot wholeBatch;
    private List<FieldVector> wholeBatchSource;

    public BatchPartitioner(PartitionSpec spec) {
        this.spec = spec;
        List<PartitionSpec.Level> levels = spec.levels();
        this.timeLevels = new TimeLevel[levels.size()];
        this.valueLevels = new ValueLevel[levels.size()];
        this.codes = new long[levels.size()];
        this.previousCodes = new long[levels.size()];
        this.eventLevel = spec.timeLevel().map(levels::indexOf).orElse(-1);
        boolean[] folderOnly = new boolean[spec.rowType().getFieldCount()];
        for (PartitionSpec.Level level : levels) {
            if (level.transform() == PartitionSpec.Transform.VALUE) {
                folderOnly[level.columnIndex()] = true;
            }
        }
        this.fileColumns = new int[spec.fileType().getFieldCount()];
        for (int column = 0, kept = 0; column < folderOnly.length; column++) {
            if (!folderOnly[column]) {
                fileColumns[kept++] = column;
            }
        }
    }

    /** Hands {@code consumer} the rows of {@code batch}, a batch per partition. */
    public void partition(ArrowBatch batch, Consumer<ArrowBatch> consumer) {
        VectorSchemaRoot root = batch.root();
        int rows = root.getRowCount();
        if (rows == 0) {
            return;
        }
        int runs = assign(root, rows);
        if (partitions.size() == 1) {
            consumer.accept(batch.inPartition(partitions.get(0), wholeBatch(root)));
        } else if (runs == partitions.size()) {
            for (int start = 0, end; start < rows; start = end) {
                end = start + 1;
                while (end < rows && partitionOfRow[end] == partitionOfRow[start]) {
                    end++;
                }
                emit(batch, partitionOfRow[start], slice(root, start, end - start), start, end, consumer);
            }
        } else {
            groupRows(rows);
            for (int partition = 0; partition < partitions.size(); partition++) {
                int from = firstOf[partition];
                int to = firstOf[partition + 1];
                VectorSchemaRoot part = gather(root, from, to);
                try {
                    consumer.accept(batch.inPartition(partitions.get(partition), part, rowsByPartition, from, to));
                } finally {
                    part.close();
                }
            }
        }
    }

    private void emit(ArrowBatch batch, int partition, VectorSchemaRoot part, int start, int end,
            Consumer<ArrowBatch> consumer) {
        try {
            if (rowsByPartition.length < end) {
                rowsByPartition = new int[Math.max(end, rowsByPartition.length * 2)];
            }
            for (int row = start; row < end; row++) {
                rowsByPartition[row] = row;
            }
            consumer.accept(batch.inPartition(partitions.get(partition), part, rowsByPartition, start, end));
        } finally {
            part.close();
        }
    }

    /**
     * Groups the rows by partition in {@link #rowsByPartition} (a counting sort on their numbers,
     * input order kept within each), so that each partition's copy visits its own rows only.
     */
    private void groupRows(int rows) {
        int count = partitions.size();
        if (firstOf.length < count + 1) {
            firstOf = new int[Math.max(count + 1, firstOf.length * 2)];
        }
        Arrays.fill(firstOf, 0, count + 1, 0);
        for (int row = 0; row < rows; row++) {
            firstOf[partitionOfRow[row] + 1]++;
        }
        for (int p = 0; p < count; p++) {
            firstOf[p + 1] += firstOf[p];
        }
        if (rowsByPartition.length < rows) {
            rowsByPartition = new int[Math.max(rows, rowsByPartition.length * 2)];
        }
        // Each partition's first place moves on as its rows are placed, ending at its end (the
        // next one's first), so the firsts are shifted back by one partition afterwards.
        for (int row = 0; row < rows; row++) {
            rowsByPartition[firstOf[partitionOfRow[row]]++] = row;
        }
        for (int p = count; p > 0; p--) {
            firstOf[p] = firstOf[p - 1];
        }
        firstOf[0] = 0;
    }

    /**
     * Numbers each row's partition in {@link #partitionOfRow}, in the order of first rows, and
     * returns the number of runs of equal partitions.
     */
    private int assign(VectorSchemaRoot root, int rows) {
        partitionIndex.clear();
        partitionOfCodes.clear();
        partitions.clear();
        if (partitionOfRow.length < rows) {
            partitionOfRow = new int[Math.max(rows, partitionOfRow.length * 2)];
        }
        List<PartitionSpec.Level> levels = spec.levels();
        FieldVector[] vectors = new FieldVector[levels.size()];
        for (int l = 0; l < levels.size(); l++) {
            vectors[l] = root.getVector(levels.get(l).columnIndex());
            if (levels.get(l).transform() == PartitionSpec.Transform.VALUE) {
                if (valueLevels[l] == null) {
                    valueLevels[l] = new ValueLevel();
                }
                valueLevels[l].reset();
            } else if (timeLevels[l] == null) {
                timeLevels[l] = new TimeLevel(levels.get(l), spec.zone(), vectors[l]);
            }
        }
        int runs = 0;
        int current = -1;
        latestEvent = Long.MIN_VALUE;
        for (int row = 0; row < rows; row++) {
            if (eventLevel >= 0 && !vectors[eventLevel].isNull(row)) {
                latestEvent = Math.max(latestEvent, timeLevels[eventLevel].millis(vectors[eventLevel], row));
            }
            for (int l = 0; l < codes.length; l++) {
                codes[l] = valueLevels[l] != null
                        ? valueLevels[l].code(vectors[l], row) : timeLevels[l].code(vectors[l], row);
            }
            if (current < 0 || !Arrays.equals(codes, previousCodes)) {
                probe.codes = codes;
                Integer found = partitionOfCodes.get(probe);
                if (found == null) {
                    found = partitionNumber(folders());
                    Codes key = new Codes();
                    key.codes = codes.clone();
                    partitionOfCodes.put(key, found);
                }
                if (found != current) {
                    runs++;
                    current = found;
                }
                long[] swap = previousCodes;
                previousCodes = codes;
                codes = swap;
            }
            partitionOfRow[row] = current;
        }
        return runs;
    }

    /** The codes of a row's levels, as a key. */
    private static final class Codes {
        long[] codes;

        @Override
        public boolean equals(Object other) {
            return other instanceof Codes && Arrays.equals(codes, ((Codes) other).codes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(codes);
        }
    }

    /**
     * The latest time of the spec's first time level in the last batch, in epoch milliseconds (see
     * {@link PartitionSpec#endMillis}), or {@code Long.MIN_VALUE} if it had none.
     */
    public long latestEventMillis() {
        return latestEvent;
    }

    private String folders() {
        StringBuilder path = new StringBuilder();
        List<PartitionSpec.Level> levels = spec.levels();
        for (int l = 0; l < levels.size(); l++) {
            if (l > 0) {
                path.append('/');
            }
            String value = valueLevels[l] != null ? valueLevels[l].value(codes[l]) : timeLevels[l].value(codes[l]);
            path.append(HivePaths.folder(levels.get(l).key(), value));
        }
        return path.toString();
    }

    private int partitionNumber(String folders) {
        Integer known = partitionIndex.get(folders);
        if (known == null) {
            known = partitions.size();
            partitionIndex.put(folders, known);
            partitions.add(folders);
        }
        return known;
    }

    private VectorSchemaRoot wholeBatch(VectorSchemaRoot root) {
        List<FieldVector> source = root.getFieldVectors();
        if (wholeBatch == null || !sameVectors(source)) {
            List<FieldVector> kept = new ArrayList<>(fileColumns.length);
            for (int column : fileColumns) {
                kept.add(source.get(column));
            }
            wholeBatch = new VectorSchemaRoot(fileFields(root), kept, 0);
            wholeBatchSource = List.copyOf(source);
        }
        wholeBatch.setRowCount(root.getRowCount());
        return wholeBatch;
    }

    private boolean sameVectors(List<FieldVector> source) {
        if (source.size() != wholeBatchSource.size()) {
            return false;
        }
        for (int i = 0; i < source.size(); i++) {
            if (source.get(i) != wholeBatchSource.get(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The fields of the file columns as the batch's schema has them: a vector's own field is made
     * from its children as they are, and the parser's may name a list's element otherwise than
     * the schema, which the writer checks.
     */
    private List<Field> fileFields(VectorSchemaRoot root) {
        List<Field> fields = new ArrayList<>(fileColumns.length);
        for (int column : fileColumns) {
            fields.add(root.getSchema().getFields().get(column));
        }
        return fields;
    }

    private VectorSchemaRoot slice(VectorSchemaRoot root, int start, int length) {
        List<Field> fields = fileFields(root);
        List<FieldVector> parts = new ArrayList<>(fileColumns.length);
        for (int i = 0; i < fileColumns.length; i++) {
            FieldVector vector = root.getVector(fileColumns[i]);
            FieldVector part = fields.get(i).createVector(vector.getAllocator());
            vector.makeTransferPair(part).splitAndTransfer(start, length);
            parts.add(part);
        }
        return new VectorSchemaRoot(fields, parts, length);
    }

    /** A copy of the rows {@code rowsByPartition[from]} to {@code rowsByPartition[to - 1]} of the file columns. */
    private VectorSchemaRoot gather(VectorSchemaRoot root, int from, int to) {
        List<Field> fields = fileFields(root);
        List<FieldVector> parts = new ArrayList<>(fileColumns.length);
        for (int i = 0; i < fileColumns.length; i++) {
            FieldVector vector = root.getVector(fileColumns[i]);
            FieldVector part = fields.get(i).createVector(vector.getAllocator());
            RowCopy.copy(vector, part, rowsByPartition, from, to);
            parts.add(part);
        }
        return new VectorSchemaRoot(fields, parts, parts.get(0).getValueCount());
    }
}
