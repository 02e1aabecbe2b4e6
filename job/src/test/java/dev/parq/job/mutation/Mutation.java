package dev.parq.job.mutation;

import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import java.util.function.Function;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.asm.MemberSubstitution;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Deliberate defects that the fault tests' twins put into a parq process of their own, to show that
 * the tests catch them: a test that still passes with one of these in cannot fail. Each changes one
 * method of one class, as that class is loaded, through {@link MutationAgent}; parq's own jars hold
 * none of them.
 */
public enum Mutation {
    /** The parser does not emit the rows it holds before a checkpoint barrier. */
    NO_BARRIER_FLUSH("dev.parq.parse.operator.ParseOperator", "prepareSnapshotPreBarrier", 1,
            method -> MemberSubstitution.relaxed().method(named("emitBatch")).stub().on(method)),
    /** Followed files are known by their path instead of their device and inode. */
    PATH_IDENTITY("dev.parq.source.enumerator.TailingEnumerator", "identity", 1,
            advice(DefectAdvice.IdentityByPath.class)),
    /**
     * Compaction deletes each part file as soon as it has read it, instead of leaving that to the
     * commit of the compacted file: a kill before that commit loses the file's rows.
     */
    EARLY_PART_CLEANUP("dev.parq.sink.compact.PartFileReader", "close", 0, advice(DefectAdvice.DeleteOnceRead.class)),
    /**
     * A conversion writes its manifest ({@code _SUCCESS}) once it has built its job, before that job
     * has run, let alone committed.
     */
    EARLY_MANIFEST("dev.parq.job.pipeline.Pipeline", "convert", 3, advice(DefectAdvice.ManifestOnceBuilt.class)),
    /** The object enumerator checkpoints no record of the objects it took: a restart reads them again. */
    NO_OBJECT_STATE("dev.parq.source.enumerator.ObjectEnumerator", "snapshotState", 1,
            advice(DefectAdvice.ForgetObjects.class)),
    /** A conversion that fails or is stopped leaves its multipart uploads on S3 open. */
    NO_UPLOAD_ABORT("dev.parq.job.run.PendingUploads", "abortBeneath", 1, advice(DefectAdvice.Skip.class)),
    /**
     * A conversion that fails leaves what it wrote in the output: its unfinished (hidden, in-progress)
     * part files, or its part files if it failed after their commit.
     */
    NO_UNFINISHED_CLEANUP("dev.parq.job.run.UnfinishedOutput", "removeFrom", 1, advice(DefectAdvice.Skip.class)),
    /** A part file that cannot be written for a full disk fails with the system's bare message, naming no file. */
    UNNAMED_FULL_DISK("dev.parq.io.NoSpaceLeftException", "naming", 2, advice(DefectAdvice.FailureAsItIs.class)),
    /** A job that failed on a full disk is told as Flink words its failure, not as a full disk. */
    UNTOLD_FULL_DISK("dev.parq.job.run.FullDisk", "named", 3, advice(DefectAdvice.ClassifiedAsItIs.class)),
    /**
     * The compaction does not notice the savepoint that announces a stop, so the stop's barrier
     * compacts nothing more than any other: the rows not compacted yet stay hidden after the stop.
     */
    NO_STOP_COMPACTION("dev.parq.sink.compact.CompactEverything", "snapshotting", 1, advice(DefectAdvice.Skip.class)),
    /**
     * The compaction does not notice that the source has read a backlog: its last part files wait,
     * hidden, for the compaction interval like steady ones.
     */
    NO_BACKLOG_COMPACTION("dev.parq.sink.compact.CompactEverything", "backlog", 1, advice(DefectAdvice.Skip.class)),
    /** No checkpoint is asked for once a backlog is read: it waits for the periodic one. */
    NO_BACKLOG_CHECKPOINT("dev.parq.source.enumerator.Backlog", "askForCheckpoint", 0, advice(DefectAdvice.Skip.class)),
    /** A followed file that cannot be read is warned of at every scan, not once. */
    UNREADABLE_TOLD_AT_EACH_SCAN("dev.parq.source.enumerator.TailingEnumerator", "becameUnreadable", 1,
            advice(DefectAdvice.AlwaysTrue.class)),
    /**
     * An ingest resumes from whatever state it finds, unchecked: from a snapshot older than what
     * the output has committed (the newer ones deleted or damaged), from nothing though the output
     * has commits, or from the snapshots of another output.
     */
    NO_RESUME_GUARD("dev.parq.job.run.ResumeGuard", "overridden", 4, advice(DefectAdvice.Skip.class)),
    /** S3A gives a store that fails no second try: no retries of the SDK's, none of its own, none when throttled. */
    NO_STORE_RETRIES("dev.parq.job.embedded.EmbeddedFileSystems$Patience", "retries", 0,
            advice(DefectAdvice.NoRetries.class)),
    /** A damaged compressed object under an ingest is only logged: no record of it goes to {@code _rejected/}. */
    NO_DAMAGE_RECORD("dev.parq.parse.operator.ParseOperator", "rejectDamaged", 1, advice(DefectAdvice.Skip.class)),
    /**
     * A read of an object that fails is not made again on a new stream: with the SDK's tries off
     * too ({@code -D fs.s3a.attempts.maximum=0}), an object opened again after a seek, which S3A
     * opens once, fails on its first {@code 503 Slow Down}.
     */
    NO_READ_AGAIN("dev.parq.io.PositionedReads", "readAgain", 5, advice(DefectAdvice.FailedAsItIs.class)),
    /** A local file read by a split is never closed: each split leaves a descriptor open. */
    FILES_LEFT_OPEN("dev.parq.io.MappedRangeReader", "close", 0, advice(DefectAdvice.KeepOpen.class));

    private final String type;
    private final String method;
    private final int parameters;
    /** What puts the defect into the method a matcher matches. */
    private final Function<ElementMatcher<MethodDescription>, AsmVisitorWrapper> defect;

    Mutation(String type, String method, int parameters,
            Function<ElementMatcher<MethodDescription>, AsmVisitorWrapper> defect) {
        this.type = type;
        this.method = method;
        this.parameters = parameters;
        this.defect = defect;
    }

    /** A defect that inlines {@code advice}'s code into the method. */
    private static Function<ElementMatcher<MethodDescription>, AsmVisitorWrapper> advice(Class<?> advice) {
        return method -> Advice.to(advice).on(method);
    }

    /** The JVM option that starts a parq process with this defect in it. */
    public String javaAgent() {
        return "-javaagent:" + AgentJar.path() + "=" + name();
    }

    /** Changes the target method of the class once it is loaded; errors go to standard error. */
    void installOn(Instrumentation instrumentation) {
        new AgentBuilder.Default()
                .with(AgentBuilder.Listener.StreamWriting.toSystemError().withErrorsOnly())
                .type(named(type))
                .transform((builder, loaded, loader, module, domain) -> applyTo(builder, loaded))
                .installOn(instrumentation);
    }

    /**
     * Puts the defect into {@code builder}'s class, {@code loaded}: fails unless that has the one
     * method the defect changes, so that a method renamed in parq is an error, not a process left
     * as it is.
     */
    DynamicType.Builder<?> applyTo(DynamicType.Builder<?> builder, TypeDescription loaded) {
        // Not the bridge a generic interface's method gets: it only calls the method itself.
        ElementMatcher<MethodDescription> target = named(method).and(takesArguments(parameters)).and(not(isBridge()));
        int matching = loaded.getDeclaredMethods().filter(target).size();
        if (matching != 1) {
            throw new IllegalStateException(name() + ": " + type + " has " + matching + " methods " + method + " of "
                    + parameters + " parameters, not one");
        }
        return builder.visit(defect.apply(target));
    }

    /** The name of the class this defect changes. */
    String type() {
        return type;
    }
}
