package dev.parq.config;

import java.util.Locale;

/**
 * Deliberate defects that the fault tests switch on, in a process of their own, to show that they
 * catch them: a test that still passes with one of these on cannot fail. Set by the JVM property
 * {@code parq.test.mutation} (the constants' names in lower case, {@code _} as {@code -}); never set
 * it outside a test. It is not an option: no configuration file or flag reaches it.
 */
public enum Mutation {
    /** The parser does not emit the rows it holds before a checkpoint barrier. */
    NO_BARRIER_FLUSH,
    /** Followed files are known by their path instead of their device and inode. */
    PATH_IDENTITY,
    /**
     * Compaction deletes each part file as soon as it has read it, instead of leaving that to the
     * commit of the compacted file: a kill before that commit loses the file's rows.
     */
    EARLY_PART_CLEANUP,
    /** A conversion writes its manifest ({@code _SUCCESS}) when it starts its job, not once that has committed. */
    EARLY_MANIFEST,
    /** A conversion that fails or is stopped leaves its multipart uploads on S3 open. */
    NO_UPLOAD_ABORT;

    private static final String PROPERTY = "parq.test.mutation";

    public boolean active() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-').equals(System.getProperty(PROPERTY));
    }
}
