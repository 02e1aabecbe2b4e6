package dev.parq.sink.compact;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

import com.github.luben.zstd.Zstd;
import io.airlift.compress.lz4.Lz4Decompressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Decompresses a Parquet page compressed by one of the sink's codecs, with the library that
 * compressed it ({@code dev.parq.sink.file.PageCompressor}), into an array of its uncompressed size.
 */
final class PageDecompressor {

    private final CompressionCodecName codec;
    /** LZ4 keeps its state between pages. Null for the other codecs. */
    private final Lz4Decompressor lz4;

    PageDecompressor(CompressionCodecName codec) throws PartFileException {
        switch (codec) {
            case UNCOMPRESSED:
            case SNAPPY:
            case ZSTD:
            case GZIP:
            case LZ4_RAW:
                break;
            default:
                throw new PartFileException("pages compressed with " + codec + ", which the sink never writes");
        }
        this.codec = codec;
        this.lz4 = codec == CompressionCodecName.LZ4_RAW ? new Lz4Decompressor() : null;
    }

    /** The page of {@code length} bytes at {@code offset}, which is {@code size} bytes uncompressed. */
    BytesInput decompress(byte[] page, int offset, int length, int size) throws IOException {
        if (codec == CompressionCodecName.UNCOMPRESSED) {
            return BytesInput.from(page, offset, length);
        }
        byte[] out = new byte[size];
        long written;
        switch (codec) {
            case SNAPPY:
                written = Snappy.uncompress(page, offset, length, out, 0);
                break;
            case ZSTD:
                written = Zstd.decompressByteArray(out, 0, size, page, offset, length);
                if (Zstd.isError(written)) {
                    throw new IOException("ZSTD: " + Zstd.getErrorName(written));
                }
                break;
            case GZIP:
                try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(page, offset, length))) {
                    written = in.readNBytes(out, 0, size);
                }
                break;
            default:
                written = lz4.decompress(page, offset, length, out, 0, size);
        }
        if (written != size) {
            throw new IOException(codec + " gave " + written + " bytes of a page of " + size);
        }
        return BytesInput.from(out);
    }
}
