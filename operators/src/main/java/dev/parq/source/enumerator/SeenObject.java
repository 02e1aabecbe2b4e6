package dev.parq.source.enumerator;

/**
 * An object taken for reading by the object enumerator: its key (the full location), the version
 * it was read in ({@code ObjectVersion}) and when it was last modified, by the store's clock.
 */
public record SeenObject(String key, String version, long modifiedMillis) {}
