package dev.parq.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.junit.jupiter.api.Test;

class NoSpaceLeftExceptionTest {

    @Test
    void aFullDiskIsNamedByThePlaceWritten() {
        IOException full = new IOException("No space left on device");
        IOException named = NoSpaceLeftException.naming("a Parquet file in /data/out", full);
        assertEquals("no space left on device writing a Parquet file in /data/out: No space left on device",
                named.getMessage());
        assertSame(full, named.getCause());
        assertSame(named, NoSpaceLeftException.naming("elsewhere", named), "named twice");
    }

    @Test
    void otherErrorsStayAsTheyAre() {
        IOException denied = new IOException("Permission denied");
        assertSame(denied, NoSpaceLeftException.naming("a Parquet file in /data/out", denied));
        assertFalse(NoSpaceLeftException.isNoSpace(denied));
    }

    @Test
    void aFullDiskIsFoundAmongTheCauses() {
        Exception wrapped = new RuntimeException("checkpoint failed",
                new UncheckedIOException(new IOException("No space left on device")));
        assertTrue(NoSpaceLeftException.isNoSpace(wrapped));
    }
}
