package dev.parq.sink.dictionary;

import java.io.IOException;
import java.util.Arrays;

import dev.parq.sink.page.ByteSink;
import dev.parq.sink.page.ColumnChunkWriter;
import dev.parq.sink.page.DataPageWriter;
import dev.parq.sink.page.PageScratch;
import dev.parq.sink.page.PlainPageWriter;
import dev.parq.sink.page.RleHybridEncoder;
import dev.parq.sink.page.RowLevels;
import dev.parq.sink.page.StringBounds;
import dev.parq.sink.page.StringSlice;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;

/**
 * Writes one row group's pages of a dictionary-encoded string or integer column straight to its
 * {@link PageWriter}, bypassing parquet-mr's column writer and its per-value {@code Binary}, hash
 * map, statistics and encoder calls: each value is looked up in a {@link ColumnDictionary} where
 * it lies (a string in a copy of the Arrow data buffer), the page's ids are run-length/bit-packed in
 * one pass when the page is written, and its minimum and maximum are compared only among the
 * distinct ids it uses.
 *
 * <p>Like parquet-mr, it falls back to PLAIN pages for the rest of the column chunk once the
 * dictionary would outgrow the dictionary page size; the pages written until then keep their
 * dictionary, which is written as it stands.
 */
public final class DictionaryPageWriter extends DataPageWriter {

    /** Null once the dictionary is full and the chunk has gone on in plain pages. */
    private ColumnDictionary dictionary;
    /** The dictionary as one of strings or of integers, the other null. */
    private StringDictionary strings;
    private LongDictionary integers;
    /** Bytes of the dictionary page handed to the page store when the dictionary was let go. */
    private long writtenDictionaryBytes;

    /** The page's dictionary ids, one per present value. */
    private int[] ids = new int[1024];
    private int idCount;
    /** Bytes the page's values would take as PLAIN, the measure parquet-mr sizes dictionary pages by. */
    private long plainBytes;
    /** Per id, the last page that used it, so that each page compares only its distinct ids. */
    private int[] lastPageOf = new int[256];
    private int pageNumber = 1;
    private int minId = -1;
    private int maxId = -1;
    private int highestId;

    public DictionaryPageWriter(
            ColumnDescriptor column, PageWriter pages, int pageSize, int pageRowLimit, int dictionaryPageSize) {
        super(column, pages, pageSize, pageRowLimit);
        switch (type.getPrimitiveTypeName()) {
            case INT32:
                this.integers = new LongDictionary(Integer.BYTES, dictionaryPageSize);
                this.strings = null;
                this.dictionary = integers;
                break;
            case INT64:
                this.integers = new LongDictionary(Long.BYTES, dictionaryPageSize);
                this.strings = null;
                this.dictionary = integers;
                break;
            default:
                this.strings = new StringDictionary(dictionaryPageSize, new StringBounds(type));
                this.integers = null;
                this.dictionary = strings;
        }
    }

    /** Whether a dictionary-encoded column of {@code type} can be written by this class. */
    public static boolean supports(LogicalType type) {
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
            case INTEGER:
            case DATE:
            case BIGINT:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return true;
            default:
                return false;
        }
    }

    /**
     * Takes the values as it looks them up while the dictionary has room for all of them; else
     * looks them all up first, so that no value of a row that does not fit is taken.
     */
    @Override
    protected int appendValues(ValueVector leaf, RowLevels range) {
        int count = range.valueCount();
        if (count == 0) {
            return 0;
        }
        int[] indexes = range.valueIndexes();
        StringSlice slice = strings == null ? null : PageScratch.current().strings();
        long mostPlainBytes;
        if (strings != null) {
            VarCharVector vector = (VarCharVector) leaf;
            int span = StringSlice.span(vector, indexes[0], indexes[count - 1] + 1);
            if (count == 1 && !dictionary.couldHold((long) Integer.BYTES + span)) {
                // A value larger than a whole dictionary page is no entry of it, nor will be (not
                // even as the first: a dictionary of one huge value saves nothing and costs copies
                // of it): the rest of the chunk goes to plain pages, without copying the value out.
                return 0;
            }
            mostPlainBytes = (long) count * Integer.BYTES + slice.load(vector, indexes[0], indexes[count - 1] + 1);
        } else {
            mostPlainBytes = (long) count * integers.width();
        }
        if (idCount + count > ids.length) {
            ids = Arrays.copyOf(ids, Math.max(idCount + count, ids.length * 2));
        }
        ArrowBuf data = leaf.getDataBuffer();
        if (dictionary.hasRoomFor(mostPlainBytes)) {
            for (int k = 0; k < count; k++) {
                take(idOf(slice, data, indexes[k]));
            }
            return count;
        }
        for (int k = 0; k < count; k++) {
            int id = idOf(slice, data, indexes[k]);
            if (id < 0) {
                count = range.valuesBefore(range.rowStartOf(k));
                break;
            }
            ids[idCount + k] = id;
        }
        for (int k = 0; k < count; k++) {
            take(ids[idCount]);
        }
        return count;
    }

    /**
     * The dictionary id of the value at {@code index} of the leaf: a string among those loaded
     * into {@code slice}, else a fixed-width value in {@code data}.
     */
    private int idOf(StringSlice slice, ArrowBuf data, int index) {
        if (strings != null) {
            return strings.idOf(slice.bytes(), slice.start(index), slice.length(index));
        }
        int width = integers.width();
        return integers.idOf(width == Long.BYTES
                ? data.getLong((long) index * Long.BYTES) : data.getInt((long) index * Integer.BYTES));
    }

    /** Takes the value of {@code id} as the page's next. */
    private void take(int id) {
        ids[idCount++] = id;
        int length = dictionary.plainLength(id);
        plainBytes += length;
        if (strings != null) {
            unencodedBytes += length - Integer.BYTES;
        }
        if (id >= lastPageOf.length || lastPageOf[id] != pageNumber) {
            firstUseInPage(id);
        }
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

    @Override
    protected long pageValueBytes() {
        return plainBytes;
    }

    /**
     * The page's values as dictionary ids after a byte with their bit width; a page of nulls only
     * has no values, and is written PLAIN so that it is valid without a dictionary page.
     */
    @Override
    protected BytesInput takeValues(Statistics<?> statistics) {
        if (idCount == 0) {
            return BytesInput.empty();
        }
        dictionary.updateStatistics(statistics, minId, false);
        dictionary.updateStatistics(statistics, maxId, true);
        int bitWidth = RleHybridEncoder.bitWidth(highestId);
        ByteSink encodedIds = PageScratch.current().ids();
        encodedIds.clear();
        encodedIds.reserve(1);
        encodedIds.put(bitWidth);
        RleHybridEncoder.encode(ids, idCount, bitWidth, encodedIds);
        return encodedIds.bytes();
    }

    @Override
    protected Encoding valuesEncoding() {
        return idCount == 0 ? Encoding.PLAIN : Encoding.PLAIN_DICTIONARY;
    }

    @Override
    protected void clearValues() {
        idCount = 0;
        plainBytes = 0;
        minId = -1;
        maxId = -1;
        highestId = 0;
        pageNumber++;
    }

    @Override
    protected long heldBytes() {
        if (dictionary == null) {
            return writtenDictionaryBytes;
        }
        return dictionary.heapBytes() + (long) Integer.BYTES * (ids.length + lastPageOf.length);
    }

    @Override
    protected void finish() throws IOException {
        if (dictionary.size() > 0) {
            pages.writeDictionaryPage(
                    new DictionaryPage(dictionary.page(), dictionary.size(), Encoding.PLAIN_DICTIONARY));
        }
    }

    /** Ends the column chunk's dictionary-encoded part: its dictionary is written as it stands. */
    @Override
    protected ColumnChunkWriter handOver() throws IOException {
        finish();
        // The page store holds the dictionary page now; the lookup table and ids are of no more
        // use for the rest of the row group, which may be long.
        writtenDictionaryBytes = dictionary.pageBytes();
        dictionary = null;
        strings = null;
        integers = null;
        ids = new int[0];
        lastPageOf = new int[0];
        return new PlainPageWriter(column, pages, pageSize, pageRowLimit);
    }
}
