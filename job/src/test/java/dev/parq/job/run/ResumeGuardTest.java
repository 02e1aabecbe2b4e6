package dev.parq.job.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.flink.core.fs.Path;
import org.apache.flink.runtime.checkpoint.Checkpoints;
import org.apache.flink.runtime.checkpoint.OperatorState;
import org.apache.flink.runtime.checkpoint.metadata.CheckpointMetadata;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.state.memory.ByteStreamStateHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.parq.job.pipeline.ConversionException;
import dev.parq.sink.commit.CommitRecord;

/**
 * The snapshot an ingest resumes from, on real {@code _metadata} files in a folder laid out as
 * Flink lays out an ingest's state: which one is taken, which starts are refused and how they are
 * told, and what {@code --force} does.
 */
class ResumeGuardTest {

    @TempDir
    java.nio.file.Path dir;

    private final List<String> warnings = new ArrayList<>();

    @Test
    void theNewestCheckpointIsResumedFrom() throws Exception {
        checkpoint(3);
        checkpoint(4);
        commit(4);
        assertEquals(4, choose(false).checkpointId());
        assertEquals(List.of(), warnings);
    }

    @Test
    void aCheckpointCutShortThatCommittedNothingIsPassedOverWithAWarning() throws Exception {
        checkpoint(3);
        checkpoint(4);
        java.nio.file.Path cut = checkpoint(5);
        byte[] whole = Files.readAllBytes(cut);
        Files.write(cut, Arrays.copyOf(whole, whole.length / 2));
        commit(4);
        assertEquals(4, choose(false).checkpointId());
        assertEquals(List.of(cut + " cannot be read (it ends too early: cut short): passed over; a checkpoint cut"
                + " short, nothing was committed from it (" + output() + " holds checkpoint 4); resuming from"
                + " checkpoint 4 (" + cut.getParent().resolveSibling("chk-4") + ")"), warnings);
    }

    /** A length field damaged within a checkpoint's state: an array larger than the heap is asked for, and refused. */
    @Test
    void aCheckpointWithADamagedLengthCannotBeRead() throws Exception {
        checkpoint(3);
        OperatorState coordinated = new OperatorState("source", "source", new OperatorID(), 1, 128);
        byte[] state = new byte[16];
        Arrays.fill(state, (byte) 0x5a);
        coordinated.setCoordinatorState(new ByteStreamStateHandle("enumerator", state));
        java.nio.file.Path damaged = checkpoint(4, List.of(coordinated));
        byte[] metadata = Files.readAllBytes(damaged);
        ByteBuffer.wrap(metadata).putInt(indexOf(metadata, state) - Integer.BYTES, Integer.MAX_VALUE - 16);
        Files.write(damaged, metadata);
        Files.setLastModifiedTime(damaged, FileTime.fromMillis(4000));
        commit(3);
        assertEquals(3, choose(false).checkpointId());
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).startsWith(damaged + " cannot be read ("), warnings.get(0));
    }

    @Test
    void aDamagedCheckpointThatCommittedIsRefused() throws Exception {
        checkpoint(2);
        checkpoint(3);
        java.nio.file.Path damaged = checkpoint(4);
        Files.write(damaged, new byte[(int) Files.size(damaged)]);
        commit(4);
        ConversionException refused = assertThrows(ConversionException.class, () -> choose(false));
        assertEquals(2, refused.exitCode());
        assertTrue(refused.getMessage().startsWith(output() + " holds what checkpoint 4 committed, but " + damaged
                + " cannot be read ("), refused.getMessage());
        assertTrue(refused.getMessage().endsWith(": resuming from checkpoint 3 (" + damaged.getParent()
                .resolveSibling("chk-3") + ") would write again every line checkpoint 4 committed. Put back the"
                + " state it was committed with, or pass --force to resume from checkpoint 3 and accept those lines"
                + " twice"), refused.getMessage());
    }

    @Test
    void deletedCheckpointsAreRefusedAndForcedSetTheRecordBack() throws Exception {
        checkpoint(2);
        commit(5);
        ConversionException refused = assertThrows(ConversionException.class, () -> choose(false));
        assertTrue(refused.getMessage().contains(" but the snapshots after checkpoint 2 are missing from " + state()
                + " (deleted?): resuming from checkpoint 2"), refused.getMessage());
        assertTrue(refused.getMessage().contains("every line checkpoints 3 to 5 committed"), refused.getMessage());
        assertEquals(2, choose(true).checkpointId());
        assertEquals(List.of("resuming from checkpoint 2 though checkpoint 5 was committed to " + output()
                + ": the lines committed since are written again (--force)"), warnings);
        assertEquals(2L, new CommitRecord(new Path(output().toString())).read());
    }

    @Test
    void aStateDirectoryGoneIsRefusedAndForcedStartsOver() throws Exception {
        commit(7);
        ConversionException refused = assertThrows(ConversionException.class, () -> choose(false));
        assertEquals(output() + " holds what checkpoint 7 committed, but its state directory " + state() + " is gone"
                + " (removed?): starting over would read the inputs again and write again every line committed up"
                + " to it. Put back the state it was committed with, or pass --force to start over and accept those"
                + " lines twice", refused.getMessage());
        assertNull(choose(true));
        assertNull(new CommitRecord(new Path(output().toString())).read());
    }

    @Test
    void theStateOfAnotherOutputIsRefusedEvenForced() throws Exception {
        checkpoint(3);
        StateOwner.claim(new Path(output().toString()), new Path(state().toString()));
        java.nio.file.Path other = dir.resolve("other");
        ConversionException refused = assertThrows(ConversionException.class,
                () -> ResumeGuard.choose(new Path(other.toString()), new Path(state().toString()), null, true,
                        warnings::add));
        assertTrue(refused.getMessage().startsWith("--state " + state() + " holds the snapshots of " + output()
                + ", not of " + other + ":"), refused.getMessage());
        ConversionException named = assertThrows(ConversionException.class,
                () -> ResumeGuard.choose(new Path(other.toString()), new Path(other.resolve("_state").toString()),
                        new Path(checkpointDirectory(3).toString()), true, warnings::add));
        assertTrue(named.getMessage().startsWith("the snapshot " + checkpointDirectory(3) + " is of " + output()
                + " (its state directory " + state() + "), not of " + other + ":"), named.getMessage());
    }

    @Test
    void anOutputMovedElsewhereKeepsItsState() throws Exception {
        checkpoint(3);
        commit(3);
        java.nio.file.Path state = dir.resolve("state");
        Files.move(state(), state);
        StateOwner.claim(new Path(output().toString()), new Path(state.toString()));
        java.nio.file.Path moved = Files.move(output(), dir.resolve("moved"));
        assertEquals(3, ResumeGuard.choose(new Path(moved.toString()), new Path(state.toString()), null, false,
                warnings::add).checkpointId());
    }

    private RestorePoints.Snapshot choose(boolean force) throws IOException, ConversionException {
        return ResumeGuard.choose(new Path(output().toString()), new Path(state().toString()), null, force,
                warnings::add);
    }

    private java.nio.file.Path output() {
        return dir.resolve("out");
    }

    private java.nio.file.Path state() {
        return output().resolve("_state");
    }

    private java.nio.file.Path checkpointDirectory(long id) {
        return state().resolve("checkpoints").resolve("0123456789abcdef0123456789abcdef").resolve("chk-" + id);
    }

    /** Writes checkpoint {@code id}'s {@code _metadata}, its time {@code id} seconds into 1970: older ones first. */
    private java.nio.file.Path checkpoint(long id) throws IOException {
        return checkpoint(id, List.of());
    }

    private java.nio.file.Path checkpoint(long id, List<OperatorState> operators) throws IOException {
        java.nio.file.Path metadata = Files.createDirectories(checkpointDirectory(id)).resolve("_metadata");
        try (OutputStream out = Files.newOutputStream(metadata)) {
            Checkpoints.storeCheckpointMetadata(new CheckpointMetadata(id, operators, List.of()), out);
        }
        Files.setLastModifiedTime(metadata, FileTime.fromMillis(id * 1000));
        return metadata;
    }

    /** Where {@code part} starts in {@code bytes}. */
    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }

    private void commit(long id) throws IOException {
        Files.createDirectories(output());
        new CommitRecord(new Path(output().toString())).write(id);
    }
}
