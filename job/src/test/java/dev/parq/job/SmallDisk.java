package dev.parq.job;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * A size-limited disk: a tmpfs mounted in a mount namespace of its own ({@code unshare -m}), held by
 * a process that sleeps in it, so that nothing outside the test sees the mount or is left with it.
 * Commands run in the namespace through {@code nsenter}; the test reads what is on the disk through
 * the holder's view of the file system, {@code /proc/PID/root}. Where the machine does not let the
 * test make one (not root, no mount namespaces), the test is skipped with the reason.
 */
final class SmallDisk implements AutoCloseable {

    private final Path mount;
    private final Process holder;

    private SmallDisk(Path mount, Process holder) {
        this.mount = mount;
        this.holder = holder;
    }

    /**
     * A tmpfs of {@code size} ({@code 8m}, or bytes) at {@code mount}, an empty directory; skips the
     * test if it cannot be made.
     */
    static SmallDisk mount(Path mount, String size) throws Exception {
        Files.createDirectories(mount);
        Process holder = new ProcessBuilder("unshare", "-m", "--propagation", "private", "sh", "-c",
                "mount -t tmpfs -o size=" + size + " tmpfs \"$0\" && echo mounted && exec sleep 3600", mount.toString())
                .redirectErrorStream(true)
                .start();
        String said = new String(holder.getInputStream().readNBytes("mounted\n".length()), StandardCharsets.UTF_8);
        if (!said.equals("mounted\n")) {
            holder.waitFor(10, TimeUnit.SECONDS);
            String why = said + new String(holder.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            holder.destroyForcibly();
            Assumptions.abort("a full disk needs a tmpfs in a mount namespace of the test's own (unshare -m, mount;"
                    + " root or CAP_SYS_ADMIN), which this machine does not allow: " + why.strip());
        }
        return new SmallDisk(mount, holder);
    }

    /** Where the disk is mounted, as the commands run on it see it. */
    Path mount() {
        return mount;
    }

    /**
     * {@code path}, as the disk's commands see it, as this process can read it: through the holder's
     * view if it is on the disk, else as it is.
     */
    Path seen(Path path) {
        Path root = Path.of("/proc", Long.toString(holder.pid()), "root");
        return path.startsWith(mount) ? root.resolve(Path.of("/").relativize(path.toAbsolutePath())) : path;
    }

    /** {@code command} as it runs in the disk's mount namespace: the process is the command's own. */
    List<String> inside(List<String> command) {
        List<String> entered = new ArrayList<>(List.of("nsenter", "-t", Long.toString(holder.pid()), "-m", "--"));
        entered.addAll(command);
        return entered;
    }

    /** Fills what is left of the disk with a hidden file, {@code .filler}, written from inside its namespace. */
    void fill() throws Exception {
        Process filler = new ProcessBuilder(inside(List.of("sh", "-c", "cat /dev/zero > \"$0\"",
                mount.resolve(".filler").toString()))).redirectErrorStream(true).start();
        assertTrue(filler.waitFor(60, TimeUnit.SECONDS), "the filler did not end");
        String said = new String(filler.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(said.contains("No space left on device"), "the filler did not fill the disk: " + said);
        assertEquals(0, Files.getFileStore(seen(mount)).getUsableSpace() >> 20, "MiB free after the filler");
    }

    /** Deletes the filler: the disk has room again. */
    void free() throws IOException {
        Files.delete(seen(mount.resolve(".filler")));
    }

    @Override
    public void close() throws InterruptedException {
        holder.destroyForcibly();
        holder.waitFor(10, TimeUnit.SECONDS);
    }
}
