package dev.parq.sink.compact.convert;

/**
 * The slot of a vector that the value being read goes into: the row of the batch for top-level
 * columns and the fields of their rows, the element of its list for the vectors under a list.
 */
final class Cursor {
    int index;
}
