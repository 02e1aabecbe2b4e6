package dev.parq.sink.commit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.core.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file sink's committer, except that a file already in its place stays: Flink's commit renames
 * a pending file over whatever is there. Only a compacted file can find its place taken, since its
 * name is that of the first part file compacted into it: a snapshot older than the compaction's
 * commit, resumed with {@code --force}, compacts the same part files again, and finds them gone.
 * The file already there holds their rows; the one compacted again does not.
 */
final class KeepingCommitter implements Committer<FileSinkCommittable> {

    private static final Logger LOG = LoggerFactory.getLogger(KeepingCommitter.class);

    private final Committer<FileSinkCommittable> files;

    KeepingCommitter(Committer<FileSinkCommittable> files) {
        this.files = files;
    }

    @Override
    public void commit(Collection<CommitRequest<FileSinkCommittable>> requests) throws IOException, InterruptedException {
        List<CommitRequest<FileSinkCommittable>> toCommit = new ArrayList<>(requests.size());
        for (CommitRequest<FileSinkCommittable> request : requests) {
            FileSinkCommittable committable = request.getCommittable();
            Path target = committable.hasPendingFile() ? committable.getPendingFile().getPath() : null;
            if (target != null && target.getFileSystem().exists(target)) {
                LOG.info("{} is committed already; it stays as it is", target);
                request.signalAlreadyCommitted();
            } else {
                toCommit.add(request);
            }
        }
        files.commit(toCommit);
    }

    @Override
    public void close() throws Exception {
        files.close();
    }
}
