package dev.parq.sink.page;

/**
 * The arrays a page writer needs only while one of its calls runs: the levels of a range of
 * rows, a range's string bytes copied out of Arrow memory, and a page's encoded levels and
 * dictionary ids on their way to the compressor. They are one set per thread, shared by every
 * column of every file the thread writes, so that a part file kept open costs only what it
 * holds between calls (its pages, the page being filled, its dictionaries), however many files
 * a task has open: with dozens of partitions open, per-file copies of these arrays were most of
 * the heap.
 *
 * <p>No call that uses them calls another writer's, so one thread's writers never see each
 * other's contents.
 */
public final class PageScratch {

    private static final ThreadLocal<PageScratch> OF_THREAD = ThreadLocal.withInitial(PageScratch::new);

    private final RowLevels range = new RowLevels();
    private final StringSlice strings = new StringSlice();
    private final ByteSink levels = new ByteSink(256);
    private final ByteSink ids = new ByteSink(4096);

    private PageScratch() {
    }

    /** The arrays of the calling thread. */
    public static PageScratch current() {
        return OF_THREAD.get();
    }

    /** The levels of the range being written. */
    RowLevels range() {
        return range;
    }

    /** The string bytes of the range being written. */
    public StringSlice strings() {
        return strings;
    }

    /** The encoded levels of the page being written. */
    ByteSink levels() {
        return levels;
    }

    /** The encoded dictionary ids of the page being written. */
    public ByteSink ids() {
        return ids;
    }
}
