package dev.parq.parse.decode;

import dev.parq.parse.tape.Tape;

/** Where a decoder sits in the schema, for messages: "user.id", "tags[]", "attrs{}". */
final class FieldPath {

    private FieldPath() {}

    static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    static DecodeException mismatch(String path, String type, Tape tape, int t) {
        return new DecodeException(
                "field '" + path + "': expected " + type + ", found " + tape.describe(t));
    }

    static DecodeException invalid(String path, Tape tape, int t, String problem) {
        return new DecodeException("field '" + path + "': " + tape.text(t, 64) + " " + problem);
    }
}
