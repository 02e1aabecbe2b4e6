package dev.parq.parse.decode;

import dev.parq.json.Tape;

/** Where a decoder sits in the schema, for messages: "user.id", "tags[]", "attrs{}". */
final class FieldPath {

    private FieldPath() {}

    /**
     * The path of field {@code name} under {@code parent}. A name's own '.', '[' and backslash
     * are escaped with a backslash, so that paths never collide: a top-level key "r.zz" is
     * {@code r\.zz}, the key "zz" inside ROW "r" is {@code r.zz}.
     */
    static String child(String parent, String name) {
        String segment = escape(name);
        return parent.isEmpty() ? segment : parent + "." + segment;
    }

    private static String escape(String name) {
        if (name.indexOf('.') < 0 && name.indexOf('[') < 0 && name.indexOf('\\') < 0) {
            return name;
        }
        StringBuilder escaped = new StringBuilder(name.length() + 4);
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.' || c == '[' || c == '\\') {
                escaped.append('\\');
            }
            escaped.append(c);
        }
        return escaped.toString();
    }

    static DecodeException mismatch(String path, String type, Tape tape, int t) {
        return new DecodeException(
                "field '" + path + "': expected " + type + ", found " + tape.describe(t));
    }

    static DecodeException invalid(String path, Tape tape, int t, String problem) {
        return new DecodeException("field '" + path + "': " + tape.text(t, 64) + " " + problem);
    }
}
