package dev.parq.sink.compact;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ColumnPath;

import dev.parq.io.PositionedReads;

/** The pages of one row group, each column chunk's read from the file, for parquet-mr's column readers. */
final class RowGroupPages implements PageReadStore {

    private final long rowCount;
    private final Map<ColumnPath, ChunkPages> chunks = new HashMap<>();

    RowGroupPages(PositionedReads in, BlockMetaData rowGroup) throws IOException {
        this.rowCount = rowGroup.getRowCount();
        for (ColumnChunkMetaData column : rowGroup.getColumns()) {
            if (column.getTotalSize() > Integer.MAX_VALUE) {
                throw new PartFileException("the column chunk of " + column.getPath() + " takes "
                        + column.getTotalSize() + " bytes, more than one array holds");
            }
            byte[] chunk = new byte[(int) column.getTotalSize()];
            in.readFully(column.getStartingPos(), chunk, 0, chunk.length);
            chunks.put(column.getPath(),
                    new ChunkPages(chunk, new PageDecompressor(column.getCodec()), column.getValueCount()));
        }
    }

    @Override
    public PageReader getPageReader(ColumnDescriptor column) {
        ChunkPages pages = chunks.get(ColumnPath.get(column.getPath()));
        if (pages == null) {
            throw new IllegalStateException("the row group has no column chunk " + String.join(".", column.getPath()));
        }
        return pages;
    }

    @Override
    public long getRowCount() {
        return rowCount;
    }
}
