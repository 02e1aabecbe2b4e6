package dev.parq.source.enumerator;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * From a following reader to its enumerator, as it starts: it was restored from a checkpoint with
 * splits of {@code bytes} still to read. A job restarted in the middle of a backlog holds most of
 * it there (a tailing enumerator hands a file's splits out at once), out of its enumerator's sight.
 */
public record SplitsRestored(long bytes) implements SourceEvent {}
