package dev.parq.job.cli;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;

import dev.parq.job.embedded.EmbeddedFileSystems.Patience;
import dev.parq.job.pipeline.ConversionException;
import dev.parq.job.pipeline.ParqOptions;
import dev.parq.job.run.IngestRun;
import dev.parq.sink.partition.PartitionOptions;
import dev.parq.source.NdjsonSourceOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code parq ingest PATH_OR_GLOB... -o OUTPUT}: follows NDJSON logs into Parquet until stopped. */
@Command(
        name = "ingest",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Follows growing NDJSON logs, or the objects that land under a prefix of an object store"
                    + " (s3a://bucket/app/), into Parquet in OUTPUT until stopped.",
            "Every complete line is committed exactly once.",
            "Quote globs: 'logs/app.log*'. Files that appear and lines appended to them are picked up within the"
                    + " discover interval; a partial last line waits for its end; a file is followed by its"
                    + " identity through rename rotation, read again from its start once truncated, and the copy"
                    + " of a copy-truncate rotation is read from where the original was.",
            "Objects (plain, .gz, .zst) are read once each, whole, as they appear; one written again under its key"
                    + " is read again, with a warning. A damaged .gz or .zst object: its lines before the damage are"
                    + " committed, and it is named in OUTPUT/_rejected/ with the offset of the damage, with either"
                    + " --on-error. Local files and objects are not mixed in one ingest.",
            "Files are committed on each checkpoint, exactly once, hidden, and compacted into visible files of about"
                    + " --target-file-size within --compaction-interval (in whole checkpoints); a start resumes from the newest"
                    + " savepoint or checkpoint in the state directory, and refuses one older than the newest"
                    + " checkpoint committed to OUTPUT unless --force; Ctrl-C or SIGTERM stops with a savepoint, once every"
                    + " row read is compacted and visible (within --stop-timeout).",
            "Options not given are read from $FLINK_CONF_DIR/config.yaml (parq.* keys), then defaulted."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped with a savepoint", "1:the ingest failed (bad line with --on-error fail, I/O error)",
            "2:usage error (bad option, no schema and no file to infer one from; a snapshot older than what"
                    + " OUTPUT has committed, none though it has commits, or one of another output)"})
public final class IngestCommand implements Callable<Integer> {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH_OR_GLOB", description = "NDJSON files, directories or globs to follow; or prefixes or globs of objects.")
    List<String> inputs;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "OUTPUT",
            description = "Output directory, local or a URI such as s3a://bucket/prefix (created if missing); its _state/ holds checkpoints unless --state.")
    String output;

    @Option(names = "--schema", paramLabel = "DDL|@FILE",
            description = "Columns in Flink SQL type syntax, or @FILE. Default: inferred from the files there at start.")
    String schema;

    @Option(names = "--checkpoint-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How often written files are committed. Default: " + ParqOptions.CHECKPOINT_INTERVAL_DEFAULT + ".")
    Duration checkpointInterval;

    @Option(names = "--compaction-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long the files of checkpoints wait, hidden, at most before they are compacted; the"
                    + " compacted files are visible a checkpoint later. After a backlog (a split's worth of lines"
                    + " found at once, as at a start) all are compacted at a checkpoint asked for once it is read. Default: "
                    + ParqOptions.COMPACTION_INTERVAL_DEFAULT + ".")
    Duration compactionInterval;

    @Option(names = "--discover-interval", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How often the inputs are looked at. Default: " + ParqOptions.DISCOVER_INTERVAL_DEFAULT + ".")
    Duration discoverInterval;

    @Option(names = "--state", paramLabel = "DIR", description = "Where checkpoints and savepoints are kept, local or a URI such as s3a://bucket/state. Default: OUTPUT/_state.")
    String state;

    @Option(names = "--stop-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "How long Ctrl-C or SIGTERM waits for the savepoint that makes every row read so far visible"
                    + " at the stop; past it, the stop goes on and those rows become visible at the next start."
                    + " Default: " + ParqOptions.STOP_TIMEOUT_DEFAULT + ".")
    Duration stopTimeout;

    @Option(names = "--force", description = "Resume even from a snapshot older than the newest checkpoint"
            + " committed to OUTPUT (the newer ones deleted or unreadable), or from none (the state removed): the"
            + " lines committed since are written again. Never from another output's snapshots.")
    boolean force;

    @Mixin
    ReadingFlags reading;

    @Mixin
    FlinkFlags flink;

    @Mixin
    UnknownFieldsFlag unknownFields;

    @Mixin
    OutputFlags layout;

    @Option(names = "--partition-commit-delay", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "With a time partition, its folder gets a _SUCCESS file (its rows and files) once the"
                    + " event time (the latest time seen, from every reader with rows) has passed the partition's"
                    + " end by this much; later rows still land and rewrite it. Default: "
                    + PartitionOptions.COMMIT_DELAY_DEFAULT + ".")
    Duration partitionCommitDelay;

    @Option(names = "--no-progress", description = "No status line, even on a terminal.")
    boolean noProgress;

    @Option(names = "--start-at", paramLabel = "WHERE",
            description = "beginning: a first start reads the files already there from their beginning; end: only"
                    + " what is appended from now on (files found later are read whole). Default: "
                    + NdjsonSourceOptions.START_AT_DEFAULT + ".")
    String startAt;

    @Option(names = "--rotate-wait", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "A file renamed away (rotated) that has not grown for this long has its last line taken"
                    + " as complete, without a line feed. Default: " + NdjsonSourceOptions.ROTATE_WAIT_DEFAULT + ".")
    Duration rotateWait;

    @Option(names = "--ignore-older", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Files not modified for this long are not started on, and files read to their end are"
                    + " forgotten once that old (one written again after that is read from its start)."
                    + " Default: every file is read and followed.")
    Duration ignoreOlder;


    @Option(names = "--look-back", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Objects: how far below the newest object's modification time new objects are still looked"
                    + " for; one that turns up older (an upload that completed that late) is reported, not read."
                    + " Default: " + NdjsonSourceOptions.LOOK_BACK_DEFAULT + ".")
    Duration lookBack;

    @Option(names = "--key-order", paramLabel = "ORDER",
            description = "Objects: none: every discovery lists the whole prefix, and every object that lands within"
                    + " --look-back is read. time: keys sort in the order objects land (date-named folders such as"
                    + " 2026-12-06/ or app/2026/12/06/, or timestamped names); a folder whose keys all sort below"
                    + " the lowest key within the look-back is not listed again, so a discovery lists only the"
                    + " recent folders, and an object that lands later under such a folder is not read."
                    + " Default: " + NdjsonSourceOptions.KEY_ORDER_DEFAULT + ".")
    String keyOrder;

    @Override
    public Integer call() {
        Configuration config;
        try {
            config = configuration();
        } catch (ConversionException | IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        IngestProgress progress = new IngestProgress(System.err, !noProgress && System.console() != null,
                String.join(" ", inputs) + " into " + output);
        try {
            IngestRun.Result result = IngestRun.run(config, progress);
            progress.clear();
            System.err.println(result.detached()
                    ? "parq: submitted; the job runs on the cluster until flink stop or flink cancel"
                    : "parq: stopped" + (result.savepoint() == null ? "" : " with savepoint " + result.savepoint()));
            return 0;
        } catch (ConversionException e) {
            progress.clear();
            System.err.println("parq: " + FailureWording.of(e));
            return e.exitCode();
        }
    }

    private Configuration configuration() throws ConversionException {
        List<String> locations = new ArrayList<>(inputs);
        locations.add(output);
        locations.add(state);
        Configuration config = flink.load(locations, Patience.INGEST);
        config.set(ParqOptions.INPUTS, inputs);
        config.set(ParqOptions.OUTPUT, output);
        if (schema != null) {
            config.set(ParqOptions.SCHEMA, SchemaArgument.read(schema, spec.commandLine()));
        }
        if (checkpointInterval != null) {
            config.set(ParqOptions.CHECKPOINT_INTERVAL, checkpointInterval);
        }
        if (stopTimeout != null) {
            config.set(ParqOptions.STOP_TIMEOUT, stopTimeout);
        }
        if (compactionInterval != null) {
            config.set(ParqOptions.COMPACTION_INTERVAL, compactionInterval);
        }
        if (discoverInterval != null) {
            config.set(ParqOptions.DISCOVER_INTERVAL, discoverInterval);
        }
        if (state != null) {
            config.set(ParqOptions.STATE_DIR, state);
        }
        layout.applyTo(config);
        if (partitionCommitDelay != null) {
            config.set(PartitionOptions.COMMIT_DELAY, partitionCommitDelay);
        }
        if (force) {
            config.set(ParqOptions.FORCE, true);
        }
        reading.applyTo(config);
        unknownFields.applyTo(config);
        if (startAt != null) {
            config.setString(NdjsonSourceOptions.START_AT.key(), startAt);
        }
        if (rotateWait != null) {
            config.set(NdjsonSourceOptions.ROTATE_WAIT, rotateWait);
        }
        if (ignoreOlder != null) {
            config.set(NdjsonSourceOptions.IGNORE_OLDER, ignoreOlder);
        }
        if (lookBack != null) {
            config.set(NdjsonSourceOptions.LOOK_BACK, lookBack);
        }
        if (keyOrder != null) {
            config.setString(NdjsonSourceOptions.KEY_ORDER.key(), keyOrder);
        }
        return config;
    }
}
