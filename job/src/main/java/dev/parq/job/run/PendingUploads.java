package dev.parq.job.run;

import java.io.Closeable;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.util.WrappingProxy;

import dev.parq.job.pipeline.Storage;

/**
 * The multipart uploads a run left open on S3 beneath a folder of its own. Flink's S3 recoverable
 * writer begins a multipart upload for each part file and completes it when the file is committed;
 * a job that fails or is cancelled before that leaves the upload open, invisible to readers but
 * billed for its parts until a bucket's lifecycle rule ends it. A conversion that does not finish
 * aborts them here.
 *
 * <p>The S3 file system is Flink's plugin, loaded in a class loader of its own, so it is reached
 * through the public Hadoop API it is built on ({@code S3AFileSystem.listMultipartUploads} and a
 * {@code MultipartUploader}), by reflection. Any other file system has no such uploads.
 */
final class PendingUploads {

    private static final String S3A = "org.apache.hadoop.fs.s3a.S3AFileSystem";
    private static final long ABORT_WAIT_SECONDS = 30;

    private PendingUploads() {}

    /**
     * Aborts the multipart uploads open beneath {@code folder} (not those of a sibling whose name
     * begins with the folder's). Returns how many were aborted: 0 on a file system without them.
     */
    static int abortBeneath(Path folder) throws IOException {
        if (Storage.isLocal(folder)) {
            return 0;
        }
        Object hadoop = hadoopFileSystem(folder.getFileSystem());
        if (hadoop == null || !isS3a(hadoop.getClass())) {
            return 0;
        }
        ClassLoader loader = hadoop.getClass().getClassLoader();
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            String prefix = folder.toUri().getPath().replaceFirst("^/+", "").replaceFirst("/*$", "/");
            List<?> uploads = (List<?>) hadoop.getClass().getMethod("listMultipartUploads", String.class)
                    .invoke(hadoop, prefix);
            if (uploads.isEmpty()) {
                return 0;
            }
            Class<?> hadoopPath = loader.loadClass("org.apache.hadoop.fs.Path");
            Class<?> handle = loader.loadClass("org.apache.hadoop.fs.UploadHandle");
            Method from = loader.loadClass("org.apache.hadoop.fs.BBUploadHandle").getMethod("from", ByteBuffer.class);
            Object base = hadoopPath.getConstructor(String.class).newInstance(folder.toString());
            Object builder = hadoop.getClass().getMethod("createMultipartUploader", hadoopPath).invoke(hadoop, base);
            Object uploader = loader.loadClass("org.apache.hadoop.fs.MultipartUploaderBuilder").getMethod("build")
                    .invoke(builder);
            Class<?> uploaderType = loader.loadClass("org.apache.hadoop.fs.MultipartUploader");
            Method abort = uploaderType.getMethod("abort", handle, hadoopPath);
            String root = folder.toUri().getScheme() + "://" + folder.toUri().getAuthority() + "/";
            int aborted = 0;
            try {
                for (Object upload : uploads) {
                    String key = (String) upload.getClass().getMethod("getKey").invoke(upload);
                    String id = (String) upload.getClass().getMethod("getUploadId").invoke(upload);
                    Object target = hadoopPath.getConstructor(String.class).newInstance(root + key);
                    Object uploadHandle = from.invoke(null, ByteBuffer.wrap(id.getBytes(StandardCharsets.UTF_8)));
                    ((Future<?>) abort.invoke(uploader, uploadHandle, target))
                            .get(ABORT_WAIT_SECONDS, TimeUnit.SECONDS);
                    aborted++;
                }
            } finally {
                ((Closeable) uploader).close();
            }
            return aborted;
        } catch (InvocationTargetException e) {
            throw failure(folder, e.getCause());
        } catch (ExecutionException e) {
            throw failure(folder, e.getCause());
        } catch (ReflectiveOperationException | TimeoutException e) {
            throw failure(folder, e);
        } catch (InterruptedException e) {
            thread.interrupt();
            throw failure(folder, e);
        } finally {
            thread.setContextClassLoader(before);
        }
    }

    private static IOException failure(Path folder, Throwable cause) {
        return cause instanceof IOException io ? io
                : new IOException("cannot abort the uploads pending beneath " + folder + ": " + Storage.describe(cause),
                        cause);
    }

    /** The Hadoop file system behind a Flink one of Hadoop's, through the wrappers Flink puts around plugins. */
    private static Object hadoopFileSystem(FileSystem fs) {
        FileSystem inner = fs;
        while (inner instanceof WrappingProxy<?> proxy && proxy.getWrappedDelegate() instanceof FileSystem wrapped
                && wrapped != inner) {
            inner = wrapped;
        }
        try {
            return inner.getClass().getMethod("getHadoopFileSystem").invoke(inner);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    private static boolean isS3a(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getSuperclass()) {
            if (t.getName().equals(S3A)) {
                return true;
            }
        }
        return false;
    }
}
