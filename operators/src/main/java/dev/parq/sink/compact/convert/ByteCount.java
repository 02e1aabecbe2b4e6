package dev.parq.sink.compact.convert;

/** The bytes of the values read into a batch so far, which ends the batch once it grows past its share. */
final class ByteCount {
    long bytes;

    void add(long count) {
        bytes += count;
    }
}
