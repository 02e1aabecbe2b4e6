package dev.parq.source.enumerate;

/**
 * Where a listing of objects whose keys sort in the order they land may start: a folder every key
 * of which sorts below {@code key} holds only objects that landed before the newest ones already
 * seen, so it is not listed. Every object at or above the key is listed. Keys compare as the store
 * lists them, by their UTF-8 bytes.
 *
 * @param key the location of the lowest object still wanted; "", below every key, lists every folder
 */
public record KeyFloor(String key) {

    /** Every folder is listed. */
    public static final KeyFloor NONE = new KeyFloor("");

    /** Whether the folder at {@code folder} (a location ending with '/') is passed over. */
    public boolean passesOver(String folder) {
        return compare(folder, key) < 0 && !key.startsWith(folder);
    }

    /** Whether the object at {@code location} is at or above the floor. */
    public boolean holds(String location) {
        return compare(location, key) >= 0;
    }

    /** The higher of two floors. */
    public static String higher(String a, String b) {
        return compare(a, b) >= 0 ? a : b;
    }

    /** Code point order, which is the order of the UTF-8 bytes: the order S3 lists keys in. */
    public static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int x = a.codePointAt(i);
            int y = b.codePointAt(j);
            if (x != y) {
                return Integer.compare(x, y);
            }
            i += Character.charCount(x);
            j += Character.charCount(y);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
