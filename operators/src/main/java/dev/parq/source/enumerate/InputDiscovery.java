package dev.parq.source.enumerate;

import java.io.IOException;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;

/**
 * Which files the source reads: the seam between naming inputs and reading them. It travels with
 * the source to the split enumerator. {@link StaticInputs} is the files a client resolved, read
 * once; a discovery that watches its inputs for new and grown files (continuous ingest) is another.
 */
public interface InputDiscovery extends Serializable {

    /** The files to read when the enumerator starts, in input order. */
    List<InputFile> initialFiles() throws IOException;

    /** Whether the inputs are watched: looked at again every {@link #discoverInterval()}, never finished. */
    default boolean watching() {
        return false;
    }

    /**
     * Whether the inputs are objects of an object store, which do not change once written: each
     * is read once, whole, and a key written again is a new object.
     */
    default boolean objects() {
        return false;
    }

    /** How often watched inputs are looked at again. */
    default Duration discoverInterval() {
        return Duration.ZERO;
    }

    /** The files there are now, for watched inputs; a name that matches nothing yet is no error. */
    default List<InputFile> currentFiles() throws IOException {
        return initialFiles();
    }

    /**
     * The objects there are now, for watched objects, the folders {@code floor} passes over left
     * out, and how many folders were listed (0 where the discovery does not count them).
     */
    default Listing currentObjects(KeyFloor floor) throws IOException {
        return new Listing(currentFiles(), 0);
    }
}
