package dev.parq.job.run;

/** Told how far a running conversion has got. */
@FunctionalInterface
public interface ProgressListener {
    void update(long bytesDone, long bytesTotal);
}
