package dev.parq.sink.compact;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.Deque;

import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.DictionaryPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;

/**
 * The pages of one column chunk, as the sink writes them: a dictionary page or none, then version 1
 * data pages. The chunk's bytes are read whole; a data page is decompressed when the column reader
 * asks for it.
 */
final class ChunkPages implements PageReader {

    private final byte[] chunk;
    private final PageDecompressor decompressor;
    private final long valueCount;
    private final DictionaryPage dictionary;
    private final Deque<Located> dataPages = new ArrayDeque<>();

    /** A page's header and where its compressed bytes start in the chunk. */
    private record Located(PageHeader header, int offset) {}

    ChunkPages(byte[] chunk, PageDecompressor decompressor, long valueCount) throws IOException {
        this.chunk = chunk;
        this.decompressor = decompressor;
        this.valueCount = valueCount;
        Position in = new Position(chunk);
        DictionaryPage dictionaryPage = null;
        long values = 0;
        while (values < valueCount) {
            PageHeader header = Util.readPageHeader(in);
            Located page = new Located(header, in.position());
            in.skip(header.getCompressed_page_size());
            switch (header.getType()) {
                case DICTIONARY_PAGE:
                    DictionaryPageHeader dictionaryHeader = header.getDictionary_page_header();
                    dictionaryPage = new DictionaryPage(bytes(page), header.getUncompressed_page_size(),
                            dictionaryHeader.getNum_values(), encoding(dictionaryHeader.getEncoding()));
                    break;
                case DATA_PAGE:
                    values += header.getData_page_header().getNum_values();
                    dataPages.add(page);
                    break;
                default:
                    throw new PartFileException("a " + header.getType() + " page, which the sink never writes");
            }
        }
        this.dictionary = dictionaryPage;
    }

    @Override
    public DictionaryPage readDictionaryPage() {
        return dictionary;
    }

    @Override
    public long getTotalValueCount() {
        return valueCount;
    }

    @Override
    public DataPage readPage() {
        Located page = dataPages.poll();
        if (page == null) {
            return null;
        }
        DataPageHeader header = page.header().getData_page_header();
        try {
            return new DataPageV1(bytes(page), header.getNum_values(), page.header().getUncompressed_page_size(), null,
                    encoding(header.getRepetition_level_encoding()), encoding(header.getDefinition_level_encoding()),
                    encoding(header.getEncoding()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot decompress a page: " + e.getMessage(), e);
        }
    }

    private org.apache.parquet.bytes.BytesInput bytes(Located page) throws IOException {
        return decompressor.decompress(chunk, page.offset(), page.header().getCompressed_page_size(),
                page.header().getUncompressed_page_size());
    }

    private static Encoding encoding(org.apache.parquet.format.Encoding encoding) {
        return Encoding.valueOf(encoding.name());
    }

    /** A stream over the chunk that tells where it is. */
    private static final class Position extends ByteArrayInputStream {
        Position(byte[] bytes) {
            super(bytes);
        }

        int position() {
            return pos;
        }
    }
}
