package dev.parq.schema;

/** A schema that cannot be read or that parq cannot convert to. */
public class SchemaException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public SchemaException(String message) {
        super(message);
    }

    public SchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
