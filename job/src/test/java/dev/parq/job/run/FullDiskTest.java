package dev.parq.job.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ConversionException.Kind;

/** The full disks that need no full disk to be told: the one that fills up is in {@code FullDiskIT}. */
class FullDiskTest {

    @TempDir
    Path dir;

    private Map<String, org.apache.flink.core.fs.Path> places() {
        return Map.of("checkpoints", new org.apache.flink.core.fs.Path(dir.toUri()),
                "Parquet files", new org.apache.flink.core.fs.Path("s3://bucket/out"));
    }

    @Test
    void aFullDiskNamedByTheJobIsToldWithWhatToDo() {
        ConversionException named = new ConversionException(Kind.NO_SPACE,
                "no space left on device writing a Parquet file in /data/out: No space left on device", null);
        ConversionException told = FullDisk.named(named, places(), "run it again once there is room");
        assertEquals(Kind.NO_SPACE, told.kind());
        assertEquals("no space left on device writing a Parquet file in /data/out: No space left on device;"
                + " run it again once there is room", told.getMessage());
    }

    @Test
    void aFailureOfAnotherKindStaysAsItIs() {
        ConversionException badLine = new ConversionException(Kind.BAD_LINE, "in.ndjson: bad line at byte 7", null);
        assertSame(badLine, FullDisk.named(badLine, places(), "then"));
    }

    @Test
    void aFailureWithRoomInEveryPlaceStaysAsItIs() {
        ConversionException failed = ConversionException.failed("IOException: Permission denied",
                new IOException("Permission denied"));
        assertSame(failed, FullDisk.named(failed, places(), "then"));
    }

    @Test
    void aFullDiskInTheCausesIsToldThoughNoPlaceIsFullNow() {
        ConversionException failed = ConversionException.failed("IOException: No space left on device",
                new IOException("No space left on device"));
        ConversionException told = FullDisk.named(failed, places(), "then");
        assertEquals(Kind.NO_SPACE, told.kind());
        assertEquals("no space left on device where the job wrote (IOException: No space left on device); then",
                told.getMessage());
    }
}
