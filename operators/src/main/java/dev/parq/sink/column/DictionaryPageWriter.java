package dev.parq.sink.column;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Writes one row group's pages of a dictionary-encoded string column that is repeated nowhere,
 * straight to its {@link PageWriter}, bypassing parquet-mr's column writer and its per-value
 * {@code Binary}, hash map, statistics and encoder calls: each value's bytes are looked up in a
 * {@link StringDictionary} where they lie in a copy of the Arrow data buffer, the page's ids are
 * run-length/bit-packed in one pass when the page is written, and its minimum and maximum are
 * compared only among the distinct ids it uses.
 *
 * <p>Like parquet-mr, it falls back to PLAIN pages for the rest of the column chunk once the
 * dictionary would outgrow the dictionary page size; the pages written until then keep their
 * dictionary, which is written as it stands.
 */
public final class DictionaryPageWriter implements PageColumnWriter {

    private final ColumnDescriptor column;
    private final PrimitiveType type;
    private final PageWriter pages;
    private final int pageSize;
    private final int pageRowLimit;
    private final StringDictionary dictionary;
    private final DefinitionLevels definitions;
    private final ByteSink levels = new ByteSink(256);
    private final ByteSink encodedIds = new ByteSink(4096);

    /** The page's dictionary ids, one per present value. */
    private int[] ids = new int[4096];
    private int idCount;
    /** Bytes the page's values would take as PLAIN, the measure parquet-mr sizes dictionary pages by. */
    private long plainBytes;
    private long unencodedBytes;
    /** Per id, the last page that used it, so that each page compares only its distinct ids. */
    private int[] lastPageOf = new int[256];
    private int pageNumber = 1;
    private int minId = -1;
    private int maxId = -1;
    private int highestId;
    private final StringSlice slice = new StringSlice();
    /** Writes the rest of the column chunk once the dictionary is full, else null. */
    private PlainPageWriter fallback;

    public DictionaryPageWriter(
            ColumnDescriptor column, PageWriter pages, int pageSize, int pageRowLimit, int dictionaryPageSize) {
        this.column = column;
        this.type = column.getPrimitiveType();
        this.pages = pages;
        this.pageSize = pageSize;
        this.pageRowLimit = pageRowLimit;
        this.dictionary = new StringDictionary(dictionaryPageSize);
        this.definitions = DefinitionLevels.upTo(column.getMaxDefinitionLevel());
    }

    /** Whether a dictionary-encoded column of {@code type} can be written by this class. */
    public static boolean supports(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.CHAR || type.getTypeRoot() == LogicalTypeRoot.VARCHAR;
    }

    @Override
    public long bufferedSize() {
        long held = dictionary.pageBytes();
        if (fallback != null) {
            return held + fallback.bufferedSize();
        }
        return held + pages.getMemSize() + (long) idCount * RleHybridEncoder.bitWidth(highestId) / 8
                + definitions.rows() / 8;
    }

    @Override
    public void write(LeafPath path, int start, int end) throws IOException {
        VarCharVector vector = (VarCharVector) path.leaf();
        ArrowBuf[] validity = path.validityBuffers();
        while (start < end && fallback == null) {
            int to = Math.min(end, start + pageRowLimit - definitions.rows());
            definitions.reserve(to - start);
            int reached = append(vector, validity, start, to);
            if (reached < to) {
                fallBack();
                start = reached;
                break;
            }
            start = to;
            if (definitions.rows() >= pageRowLimit || plainBytes >= pageSize) {
                writePage();
            }
        }
        if (fallback != null && start < end) {
            fallback.write(path, start, end);
        }
    }

    @Override
    public void flush() throws IOException {
        if (fallback != null) {
            fallback.flush();
            return;
        }
        if (definitions.rows() > 0) {
            writePage();
        }
        writeDictionaryPage();
    }

    /**
     * Appends rows {@code start} to {@code end}; returns {@code end}, or the first row whose value
     * did not fit into the dictionary, which is not appended.
     */
    private int append(VarCharVector vector, ArrowBuf[] validity, int start, int end) {
        slice.load(vector, start, end);
        byte[] bytes = slice.bytes();
        if (idCount + end - start > ids.length) {
            ids = Arrays.copyOf(ids, Math.max(idCount + end - start, ids.length * 2));
        }
        int present = definitions.maxLevel;
        for (int row = start; row < end; row++) {
            int level = LeafPath.levelOf(validity, row);
            if (level == present) {
                int length = slice.length(row);
                int id = dictionary.idOf(bytes, slice.start(row), length);
                if (id < 0) {
                    return row;
                }
                ids[idCount++] = id;
                plainBytes += Integer.BYTES + length;
                unencodedBytes += length;
                if (id >= lastPageOf.length || lastPageOf[id] != pageNumber) {
                    firstUseInPage(id);
                }
            }
            definitions.append(level);
        }
        return end;
    }

    private void firstUseInPage(int id) {
        if (id >= lastPageOf.length) {
            lastPageOf = Arrays.copyOf(lastPageOf, Math.max(id + 1, lastPageOf.length * 2));
        }
        lastPageOf[id] = pageNumber;
        if (minId < 0) {
            minId = id;
            maxId = id;
        } else if (dictionary.compare(id, minId) < 0) {
            minId = id;
        } else if (dictionary.compare(id, maxId) > 0) {
            maxId = id;
        }
        highestId = Math.max(highestId, id);
    }

    /**
     * Writes the page, its values as dictionary ids after a byte with their bit width; a page of
     * nulls only is written PLAIN, with no values, so that it is valid without a dictionary page.
     */
    private void writePage() throws IOException {
        Statistics<?> statistics = Statistics.createStats(type);
        int rows = definitions.rows();
        statistics.incrementNumNulls(definitions.nulls());
        levels.clear();
        definitions.writeTo(levels);
        SizeStatistics sizes = new SizeStatistics(type, unencodedBytes, List.of((long) rows), definitions.histogram());
        if (idCount == 0) {
            pages.writePage(levels.bytes(), rows, rows, statistics, sizes, Encoding.BIT_PACKED, Encoding.RLE,
                    Encoding.PLAIN);
        } else {
            statistics.updateStats(dictionary.value(minId));
            statistics.updateStats(dictionary.value(maxId));
            int bitWidth = RleHybridEncoder.bitWidth(highestId);
            encodedIds.clear();
            encodedIds.reserve(1);
            encodedIds.put(bitWidth);
            RleHybridEncoder.encode(ids, idCount, bitWidth, encodedIds);
            pages.writePage(BytesInput.concat(levels.bytes(), encodedIds.bytes()), rows, rows, statistics, sizes,
                    Encoding.BIT_PACKED, Encoding.RLE, Encoding.PLAIN_DICTIONARY);
        }
        definitions.clear();
        idCount = 0;
        plainBytes = 0;
        unencodedBytes = 0;
        minId = -1;
        maxId = -1;
        highestId = 0;
        pageNumber++;
    }

    private void writeDictionaryPage() throws IOException {
        if (dictionary.size() > 0) {
            pages.writeDictionaryPage(
                    new DictionaryPage(dictionary.page(), dictionary.size(), Encoding.PLAIN_DICTIONARY));
        }
    }

    /** Ends the column chunk's dictionary-encoded part: its pages and dictionary are written as they are. */
    private void fallBack() throws IOException {
        if (definitions.rows() > 0) {
            writePage();
        }
        writeDictionaryPage();
        fallback = new PlainPageWriter(column, pages, pageSize, pageRowLimit);
    }
}
