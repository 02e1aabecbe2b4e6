package dev.parq.source.enumerate;

import java.io.IOException;

/** An input path or glob that names no file. */
public class InputNotFoundException extends IOException {
    private static final long serialVersionUID = 1L;

    public InputNotFoundException(String message) {
        super(message);
    }
}
