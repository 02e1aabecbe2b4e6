package dev.parq.io;

import java.lang.reflect.Method;

import org.apache.flink.core.fs.FileStatus;

/**
 * What tells one version of an object from another under the same key: its ETag where the file
 * system reports one (S3A does, from the listing and from a HEAD), else its length and modification
 * time. An object is immutable, so a split that names the version it was cut from can tell, when
 * its reader opens the object, whether the bytes there are still the ones it was cut from.
 */
public final class ObjectVersion {

    private ObjectVersion() {}

    public static String of(FileStatus status) {
        String etag = etag(status);
        return etag == null || etag.isEmpty() ? "len:" + status.getLen() + "@" + status.getModificationTime()
                : "etag:" + etag;
    }

    /**
     * The ETag of an S3A status. The S3 file system is a Flink plugin, loaded by a class loader of its
     * own: its Hadoop types are reached by name, through the status Flink wraps them in.
     */
    private static String etag(FileStatus status) {
        try {
            Object hadoop = status.getClass().getMethod("getInternalFileStatus").invoke(status);
            Method etag = hadoop.getClass().getMethod("getEtag");
            etag.setAccessible(true);
            return (String) etag.invoke(hadoop);
        } catch (ReflectiveOperationException | RuntimeException none) {
            return null;
        }
    }
}
