package dev.parq.source.enumerator;

import java.util.List;

/**
 * What the object enumerator checkpoints of the objects it took, bounded whatever the number read:
 * the newest modification time seen, the objects within the look-back window below it, and the
 * count and digest of the objects listed below that window at the last listing, of the keys from
 * {@code olderFrom} up ("": every key). Objects below the window are taken as read; the count and
 * digest tell when one turns up there that was not listed before (an upload that completed later
 * than the window allows). Where keys sort in the order objects land, the folders wholly below the
 * lowest key within the window are not listed, so the count covers only keys that both the last
 * listing and the next one list.
 */
public record ObjectsSeen(long newestMillis, List<SeenObject> recent, long olderCount, long olderDigest,
        String olderFrom) {

    /** Before the first listing. */
    public static final ObjectsSeen NONE = new ObjectsSeen(Long.MIN_VALUE, List.of(), 0, 0, "");

    public ObjectsSeen {
        recent = List.copyOf(recent);
    }
}
