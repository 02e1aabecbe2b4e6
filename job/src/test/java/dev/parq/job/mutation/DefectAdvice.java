package dev.parq.job.mutation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

import net.bytebuddy.asm.Advice;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ConvertSettings;
import dev.parq.job.run.ConvertRun;
import dev.parq.source.enumerate.InputFile;
import dev.parq.source.enumerator.EnumeratorState;
import dev.parq.source.enumerator.ObjectsSeen;

/** The code {@link Mutation}'s defects add to parq's methods, inlined there by Byte Buddy. */
final class DefectAdvice {

    private DefectAdvice() {}

    /** {@code TailingEnumerator.identity(InputFile)}: the path, even where there are device and inode. */
    static final class IdentityByPath {
        @Advice.OnMethodExit
        static void byPath(@Advice.Argument(0) InputFile file,
                @Advice.Return(readOnly = false) String identity) {
            identity = file.path();
        }
    }

    /** {@code PartFileReader.close()}: deletes the part file just read. */
    static final class DeleteOnceRead {
        @Advice.OnMethodExit
        static void delete(@Advice.FieldValue("file") Path file) throws IOException {
            file.getFileSystem().delete(file, false);
        }
    }

    /** {@code Pipeline.convert(env, settings, writers)}: writes the empty manifest into the output. */
    static final class ManifestOnceBuilt {
        @Advice.OnMethodExit
        static void write(@Advice.Argument(1) ConvertSettings settings) {
            Path manifest = new Path(settings.output(), ConvertRun.MANIFEST);
            try {
                manifest.getFileSystem().create(manifest, FileSystem.WriteMode.OVERWRITE).close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + manifest, e);
            }
        }
    }

    /** {@code MappedRangeReader.close()}: closes nothing, and the reader is kept from the collector. */
    static final class KeepOpen {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean keep(@Advice.This Object reader) {
            Leaked.KEPT.add(reader);
            return true;
        }
    }

    /** A predicate that always holds ({@code TailingEnumerator.becameUnreadable}: at every scan). */
    static final class AlwaysTrue {
        @Advice.OnMethodExit
        static void holds(@Advice.Return(readOnly = false) boolean holds) {
            holds = true;
        }
    }

    /** {@code ObjectEnumerator.snapshotState(checkpointId)}: the objects taken are not in the state. */
    static final class ForgetObjects {
        @Advice.OnMethodExit
        static void forget(@Advice.Return(readOnly = false) EnumeratorState state) {
            state = new EnumeratorState(state.pendingSplits(), state.trackedFiles(), state.releasedFiles(),
                    ObjectsSeen.NONE);
        }
    }

    /**
     * Skips the method: it does nothing and returns its type's default ({@code PendingUploads.abortBeneath}
     * aborts nothing and says 0; {@code UnfinishedOutput.removeFrom} removes nothing;
     * {@code CompactEverything.snapshotting} leaves a savepoint unnoticed; {@code ResumeGuard.overridden}
     * lets every resume go on, unforced and untold).
     */
    static final class Skip {
        @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class)
        static boolean skip() {
            return true;
        }
    }

    /** {@code NoSpaceLeftException.naming(place, failure)}: the failure as it is. */
    static final class FailureAsItIs {
        @Advice.OnMethodExit
        static void asItIs(@Advice.Argument(1) IOException failure,
                @Advice.Return(readOnly = false) IOException named) {
            named = failure;
        }
    }

    /** {@code FullDisk.named(classified, places, then)}: the failure as classified. */
    static final class ClassifiedAsItIs {
        @Advice.OnMethodExit
        static void asItIs(@Advice.Argument(0) ConversionException classified,
                @Advice.Return(readOnly = false) ConversionException named) {
            named = classified;
        }
    }

    /** {@code EmbeddedFileSystems.Patience.retries()}: none of S3A's retries, of either layer or throttled. */
    static final class NoRetries {
        @Advice.OnMethodExit
        static void none(@Advice.Return(readOnly = false) Map<String, String> retries) {
            retries = Map.of("fs.s3a.attempts.maximum", "0", "fs.s3a.retry.limit", "0", "fs.s3a.retry.throttle.limit", "0");
        }
    }

    /** {@code PositionedReads.readAgain(..., failed)}: the failed read's error, no read on a new stream. */
    static final class FailedAsItIs {
        @Advice.OnMethodEnter
        static void rethrow(@Advice.Argument(4) IOException failed) throws IOException {
            throw failed;
        }
    }
}
