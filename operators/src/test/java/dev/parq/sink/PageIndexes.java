package dev.parq.sink;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnIndex;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.PageLocation;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * The pages of each column chunk of a file as its column and offset indexes describe them, read
 * straight from the file with parquet-format's classes, to check each page's statistics; DuckDB
 * exposes those of column chunks only.
 */
final class PageIndexes {

    /** A page of rows {@code first} to {@code end}, counted in the file, and its statistics from the column index. */
    record Page(int first, int end, long nulls, boolean nullsOnly, ByteBuffer min, ByteBuffer max) {}

    private PageIndexes() {}

    /** The pages of leaf column {@code column} in every row group, in file order. */
    static List<Page> pages(Path path, int column) throws IOException {
        byte[] file = Files.readAllBytes(path);
        int footerLength = ByteBuffer.wrap(file, file.length - 8, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        FileMetaData footer = Util.readFileMetaData(
                new ByteArrayInputStream(file, file.length - 8 - footerLength, footerLength));
        List<Page> pages = new ArrayList<>();
        int groupFirst = 0;
        for (RowGroup group : footer.getRow_groups()) {
            ColumnChunk chunk = group.getColumns().get(column);
            ColumnIndex index = Util.readColumnIndex(new ByteArrayInputStream(
                    file, (int) chunk.getColumn_index_offset(), chunk.getColumn_index_length()));
            List<PageLocation> locations = Util.readOffsetIndex(new ByteArrayInputStream(
                    file, (int) chunk.getOffset_index_offset(), chunk.getOffset_index_length())).getPage_locations();
            for (int page = 0; page < locations.size(); page++) {
                int first = groupFirst + (int) locations.get(page).getFirst_row_index();
                int end = page + 1 < locations.size()
                        ? groupFirst + (int) locations.get(page + 1).getFirst_row_index()
                        : groupFirst + (int) group.getNum_rows();
                boolean nullsOnly = index.getNull_pages().get(page);
                pages.add(new Page(first, end, index.getNull_counts().get(page), nullsOnly,
                        nullsOnly ? null : index.getMin_values().get(page),
                        nullsOnly ? null : index.getMax_values().get(page)));
            }
            groupFirst += (int) group.getNum_rows();
        }
        return pages;
    }
}
