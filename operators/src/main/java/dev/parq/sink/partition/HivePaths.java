package dev.parq.sink.partition;

/**
 * Folder names as Hive writes them, which DuckDB, pyarrow and Spark read back: {@code key=value},
 * where key and value have the characters a path or Hive's own parser would take for syntax
 * written as {@code %XX} (upper-case hex), and a null or empty value is
 * {@value #DEFAULT_PARTITION}.
 */
public final class HivePaths {

    public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

    private static final boolean[] ESCAPED = new boolean[128];

    static {
        for (int c = 1; c < 0x20; c++) {
            ESCAPED[c] = true;
        }
        for (char c : "\"#%'*/:=?\\\u007f{[]^".toCharArray()) {
            ESCAPED[c] = true;
        }
    }

    private HivePaths() {}

    /** The folder {@code key=value} of one partition level. */
    public static String folder(String key, String value) {
        return escape(key) + "=" + (value == null || value.isEmpty() ? DEFAULT_PARTITION : escape(value));
    }

    public static String escape(String text) {
        StringBuilder escaped = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean escape = c < ESCAPED.length && ESCAPED[c];
            if (escape && escaped == null) {
                escaped = new StringBuilder(text.length() + 8).append(text, 0, i);
            }
            if (escape) {
                escaped.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            } else if (escaped != null) {
                escaped.append(c);
            }
        }
        return escaped == null ? text : escaped.toString();
    }
}
