package dev.parq.source.enumerator;

import java.io.Serializable;

/**
 * How the tailing enumerator starts on files: from their end instead of their beginning, for the
 * files there are at a first start; not at all for files not modified for
 * {@code ignoreOlderMillis} (0: every file is read); and when it takes a rotated file's last line
 * without a line feed as complete: once the file has not grown for {@code rotateWaitMillis}.
 */
public record Following(boolean startAtEnd, long ignoreOlderMillis, long rotateWaitMillis) implements Serializable {}
