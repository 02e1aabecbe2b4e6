package dev.parq.sink.commit;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.parquet.format.Util;

import dev.parq.io.PositionedReads;

/** What the footer of a Parquet file says, read through Flink's file systems, without parquet-mr's Hadoop-bound reader. */
public final class ParquetFooters {

    /** "PAR1" read as a little-endian int. */
    private static final int PARQUET_MAGIC = 0x31524150;

    private ParquetFooters() {}

    /**
     * The row count recorded in the footer of {@code file}, {@code length} bytes long (the file
     * ends with the footer, its 4-byte little-endian length and the magic "PAR1").
     */
    public static long rowCount(Path file, long length) throws IOException {
        FileSystem fs = file.getFileSystem();
        try (PositionedReads in = new PositionedReads(fs, file)) {
            byte[] tail = new byte[8];
            if (length < 12) {
                throw new IOException(file + " is not a complete Parquet file (no footer)");
            }
            in.readFully(length - 8, tail, 0, tail.length);
            ByteBuffer ends = ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN);
            if (ends.getInt(4) != PARQUET_MAGIC) {
                throw new IOException(file + " is not a complete Parquet file (no footer)");
            }
            int footerLength = ends.getInt(0);
            if (footerLength <= 0 || footerLength > length - 12) {
                throw new IOException(file + " has a corrupt Parquet footer length " + footerLength);
            }
            byte[] footer = new byte[footerLength];
            in.readFully(length - 8 - footerLength, footer, 0, footerLength);
            return Util.readFileMetaData(new ByteArrayInputStream(footer)).getNum_rows();
        }
    }
}
