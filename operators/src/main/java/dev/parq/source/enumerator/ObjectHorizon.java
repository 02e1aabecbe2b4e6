package dev.parq.source.enumerator;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerate.KeyFloor;

/**
 * Which listed objects are new, in bounded memory: an object is known by its key and version
 * ({@code ObjectVersion}), and only the objects modified within {@code lookBackMillis} of the newest
 * modification time seen are remembered. Below that horizon every object is taken as read: the
 * store's clock stamps an object when its upload completes, which is about when a listing can
 * first show it, so an object still unlisted when the newest object is a look-back newer than it
 * is late. The objects listed below the horizon are kept as a count and a digest, which tell when
 * such a late one turns up; it is reported, not read.
 *
 * <p>Where keys sort in the order objects land ({@code keysInTimeOrder}), the lowest key of the
 * recent objects is the key floor: the next listing passes over the folders wholly below it. The
 * count and digest then cover the keys from the higher of the floors of the last listing and the
 * next one, which both list.
 *
 * <p>All times are the store's (from the listing), so the clocks of the machines parq runs on do
 * not matter.
 */
final class ObjectHorizon {

    private final long lookBackMillis;
    private final boolean keysInTimeOrder;
    private long newest;
    private final Map<String, SeenObject> recent = new HashMap<>();
    private long olderCount;
    private long olderDigest;
    /** The lowest key the count and digest cover. */
    private String olderFrom;
    /** Where the next listing starts ("": the whole prefix). */
    private String keyFloor;

    ObjectHorizon(ObjectsSeen restored, long lookBackMillis, boolean keysInTimeOrder) {
        if (lookBackMillis < 0) {
            throw new IllegalArgumentException("the look-back must not be negative, got " + lookBackMillis);
        }
        this.lookBackMillis = lookBackMillis;
        this.keysInTimeOrder = keysInTimeOrder;
        this.newest = restored.newestMillis();
        for (SeenObject object : restored.recent()) {
            recent.put(object.key(), object);
        }
        this.olderCount = restored.olderCount();
        this.olderDigest = restored.olderDigest();
        this.olderFrom = restored.olderFrom();
        this.keyFloor = keysInTimeOrder ? lowestRecentKey() : "";
    }

    /** What a listing is judged against, as the worker thread that lists takes it, and where it may start. */
    record Basis(long horizon, Map<String, String> versions, KeyFloor floor) {

        /** Whether {@code object} is neither below the horizon nor recent in the same version. */
        boolean isNew(InputFile object) {
            return object.modifiedMillis() >= horizon && !object.fileKey().equals(versions.get(object.path()));
        }
    }

    Basis basis() {
        Map<String, String> versions = new HashMap<>(recent.size() * 2);
        for (SeenObject object : recent.values()) {
            versions.put(object.key(), object.version());
        }
        return new Basis(horizon(), versions, new KeyFloor(keyFloor));
    }

    /** Modification times below this are taken as read. */
    long horizon() {
        return newest == Long.MIN_VALUE ? Long.MIN_VALUE : newest - lookBackMillis;
    }

    /** The object under {@code key} taken in another version, or null. */
    SeenObject recent(String key) {
        return recent.get(key);
    }

    int recentCount() {
        return recent.size();
    }

    /**
     * Records {@code taken} (the new objects of {@code listed} that are read, or skipped for good)
     * and moves the horizon up to the newest listed object; {@code listed} is a listing from
     * {@code listedFrom}, the floor of {@link #basis()}.
     *
     * @return how many more objects are listed below the old horizon than were listed there before
     *     (late uploads), or 0
     */
    long taken(List<InputFile> listed, List<InputFile> taken, KeyFloor listedFrom) {
        long before = horizon();
        long late = 0;
        if (before != Long.MIN_VALUE) {
            KeyFloor counted = new KeyFloor(olderFrom);
            long count = 0;
            long digest = 0;
            for (InputFile object : listed) {
                if (object.modifiedMillis() < before && counted.holds(object.path())) {
                    count++;
                    digest += digest(object);
                }
            }
            if (digest != olderDigest || count != olderCount) {
                late = Math.max(0, count - olderCount);
            }
        }
        for (InputFile object : taken) {
            recent.put(object.path(), new SeenObject(object.path(), object.fileKey(), object.modifiedMillis()));
        }
        for (InputFile object : listed) {
            newest = Math.max(newest, object.modifiedMillis());
        }
        long after = horizon();
        recent.values().removeIf(object -> object.modifiedMillis() < after);
        keyFloor = keysInTimeOrder ? lowestRecentKey() : "";
        olderFrom = KeyFloor.higher(listedFrom.key(), keyFloor);
        KeyFloor counted = new KeyFloor(olderFrom);
        olderCount = 0;
        olderDigest = 0;
        for (InputFile object : listed) {
            if (object.modifiedMillis() < after && counted.holds(object.path())) {
                olderCount++;
                olderDigest += digest(object);
            }
        }
        return late;
    }

    private String lowestRecentKey() {
        String lowest = null;
        for (String key : recent.keySet()) {
            if (lowest == null || KeyFloor.compare(key, lowest) < 0) {
                lowest = key;
            }
        }
        return lowest == null ? "" : lowest;
    }

    ObjectsSeen snapshot() {
        return new ObjectsSeen(newest, List.copyOf(recent.values()), olderCount, olderDigest, olderFrom);
    }

    /** A 64-bit hash of an object's key and version; summed, the digest of a set of objects. */
    private static long digest(InputFile object) {
        long h = 0x9E3779B97F4A7C15L;
        for (String part : new String[] {object.path(), object.fileKey()}) {
            for (int i = 0; i < part.length(); i++) {
                h = (h ^ part.charAt(i)) * 0x100000001B3L;
            }
            h = (h ^ 0xFF) * 0x100000001B3L;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return h;
    }
}
