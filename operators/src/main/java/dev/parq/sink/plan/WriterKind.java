package dev.parq.sink.plan;

/** Which writer builds the pages of a leaf column. */
public enum WriterKind {

    /** A {@code PlainPageWriter}: PLAIN values copied from the Arrow buffers. */
    PLAIN_PAGES,

    /** A {@code DictionaryPageWriter}: ids into parq's own dictionary of the column chunk. */
    DICTIONARY_PAGES,

    /**
     * parquet-mr's column writer, fed value by value through the leaf's {@code ColumnStriper},
     * dictionary encoded or not as the plan's properties say.
     */
    PARQUET_MR
}
