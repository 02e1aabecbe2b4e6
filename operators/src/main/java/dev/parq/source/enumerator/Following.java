package dev.parq.source.enumerator;

import java.io.Serializable;

/**
 * How the enumerators start on files: from their end instead of their beginning, for the files
 * there are at a first start; not at all for files not modified for {@code ignoreOlderMillis} (0:
 * every file is read); when the tailing enumerator takes a rotated file's last line without a line
 * feed as complete: once the file has not grown for {@code rotateWaitMillis}; and, of objects, how
 * far below the newest one's modification time the object enumerator still looks for new ones
 * ({@code lookBackMillis}) and whether their keys sort in the order they land ({@code keysInTimeOrder}),
 * so that folders below the look-back need not be listed; and whom they ask for a checkpoint once
 * they have read a backlog ({@code afterBacklog}).
 */
public record Following(boolean startAtEnd, long ignoreOlderMillis, long rotateWaitMillis, long lookBackMillis,
        boolean keysInTimeOrder, CheckpointRequest afterBacklog) implements Serializable {

    /** Asking for no checkpoint after a backlog. */
    public Following(boolean startAtEnd, long ignoreOlderMillis, long rotateWaitMillis, long lookBackMillis,
            boolean keysInTimeOrder) {
        this(startAtEnd, ignoreOlderMillis, rotateWaitMillis, lookBackMillis, keysInTimeOrder, CheckpointRequest.NONE);
    }

    /** Of files, where the look-back and key order have no say. */
    public Following(boolean startAtEnd, long ignoreOlderMillis, long rotateWaitMillis) {
        this(startAtEnd, ignoreOlderMillis, rotateWaitMillis, 0, false);
    }

    /** These settings, asking {@code request} for a checkpoint after a backlog. */
    public Following askingAfterBacklog(CheckpointRequest request) {
        return new Following(startAtEnd, ignoreOlderMillis, rotateWaitMillis, lookBackMillis, keysInTimeOrder, request);
    }
}
