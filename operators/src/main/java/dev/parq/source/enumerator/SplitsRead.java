package dev.parq.source.enumerator;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * From a following reader to its enumerator: it has read every split it was given, {@code received}
 * of them since it started (not counting the splits it was restored with). The enumerator may be
 * handing it more while this travels; it compares the count with what it has handed out.
 */
public record SplitsRead(long received) implements SourceEvent {}
