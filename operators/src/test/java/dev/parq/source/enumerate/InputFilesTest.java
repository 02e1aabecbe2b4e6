package dev.parq.source.enumerate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputFilesTest {

    @TempDir
    Path dir;

    private Path file(String relative, String content) throws IOException {
        Path path = dir.resolve(relative);
        Files.createDirectories(path.getParent());
        return Files.writeString(path, content, StandardCharsets.UTF_8);
    }

    private List<String> expand(String... inputs) throws IOException {
        return InputFiles.expand(List.of(inputs)).stream().map(InputFile::path).toList();
    }

    private String at(String relative) {
        return dir.resolve(relative).toString();
    }

    @Test
    void aDirectoryIsWalkedRecursivelyInPathOrder() throws IOException {
        file("logs/b.ndjson", "{}\n");
        file("logs/2024/02/x.json", "{}\n");
        file("logs/a.ndjson", "{}\n");
        file("logs/2024/01/y.json", "{}\n");
        assertEquals(List.of(at("logs/2024/01/y.json"), at("logs/2024/02/x.json"), at("logs/a.ndjson"),
                at("logs/b.ndjson")), expand(at("logs")));
    }

    /** In-progress files and markers, as Flink's file source skips them, in nested folders too. */
    @Test
    void hiddenFilesAndFoldersOfADirectoryAreSkipped() throws IOException {
        file("out/part-0.json", "{}\n");
        file("out/.part-1.json.inprogress", "{}\n");
        file("out/_SUCCESS", "");
        file("out/_rejected/part-0.json", "{}\n");
        file("out/.staging/part-2.json", "{}\n");
        file("out/day/_tmp.json", "{}\n");
        file("out/day/part-3.json", "{}\n");
        assertEquals(List.of(at("out/day/part-3.json"), at("out/part-0.json")), expand(at("out")));
    }

    /** Hiding is about what a walk finds: a file or folder the user names is read whatever its name. */
    @Test
    void aNamedHiddenFileOrFolderIsRead() throws IOException {
        file(".hidden.json", "{}\n");
        file("_staging/part.json", "{}\n");
        assertEquals(List.of(at(".hidden.json"), at("_staging/part.json")),
                expand(at(".hidden.json"), at("_staging")));
    }

    @Test
    void aGlobMatchesOneFolderLevelPerStarAndSkipsHiddenFiles() throws IOException {
        file("logs/b.ndjson", "{}\n");
        file("logs/a.ndjson", "{}\n");
        file("logs/a.json", "{}\n");
        file("logs/.c.ndjson", "{}\n");
        file("logs/_d.ndjson", "{}\n");
        file("logs/sub/e.ndjson", "{}\n");
        assertEquals(List.of(at("logs/a.ndjson"), at("logs/b.ndjson")), expand(at("logs/*.ndjson")));
        assertEquals(List.of(at("logs/a.ndjson"), at("logs/b.ndjson"), at("logs/sub/e.ndjson")),
                expand(at("logs/**.ndjson")));
        assertEquals(List.of(at("logs/a.json"), at("logs/a.ndjson")), expand(at("logs/a.{json,ndjson}")));
        assertEquals(List.of(at("logs/a.ndjson"), at("logs/b.ndjson")), expand(at("logs/[ab].nd?son")));
    }

    /**
     * Objects named by time, listed through Flink's file system as a prefix of a store is: from a key
     * floor, the folders wholly below it are not listed, at any level, for a prefix as for a glob.
     */
    @Test
    void aListingFromAKeyFloorPassesOverTheFoldersWhollyBelowIt() throws IOException {
        for (String day : List.of("2026-12-04", "2026-12-05", "2026-12-06")) {
            for (String hour : List.of("00", "01", "02")) {
                file("app/" + day + "/" + hour + "/part-0.ndjson.gz", "{}\n");
            }
        }
        String prefix = dir.toUri() + "app/";
        Listing whole = InputFiles.objects(prefix, KeyFloor.NONE);
        assertEquals(9, whole.objects().size());
        assertEquals(1 + 3 + 9, whole.folders());
        KeyFloor floor = new KeyFloor(prefix + "2026-12-05/01/part-0.ndjson.gz");
        List<String> recent = List.of(prefix + "2026-12-05/01/part-0.ndjson.gz", prefix + "2026-12-05/02/part-0.ndjson.gz",
                prefix + "2026-12-06/00/part-0.ndjson.gz", prefix + "2026-12-06/01/part-0.ndjson.gz",
                prefix + "2026-12-06/02/part-0.ndjson.gz");
        Listing fromFloor = InputFiles.objects(prefix, floor);
        assertEquals(recent, fromFloor.objects().stream().map(InputFile::path).toList());
        assertEquals(1 + 2 + 5, fromFloor.folders());
        Listing globbed = InputFiles.objects(prefix + "2026-*/*/*.ndjson.gz", floor);
        assertEquals(recent, globbed.objects().stream().map(InputFile::path).toList());
        assertTrue(floor.passesOver(prefix + "2026-12-04/") && !floor.passesOver(prefix + "2026-12-05/"));
        // A floor under another input: this one is listed whole.
        file("web/2026-12-04/00/part-0.ndjson.gz", "{}\n");
        assertEquals(1 + 1 + 1, InputFiles.objects(dir.toUri() + "web/", floor).folders());
        // Code point order, as S3 lists by UTF-8 bytes: U+FF5E sorts below U+1F600, unlike in UTF-16.
        assertTrue(KeyFloor.compare("\uFF5E", "\uD83D\uDE00") < 0);
    }

    @Test
    void aMissingPathOrAGlobMatchingNothingIsAnError() throws IOException {
        file("logs/a.ndjson", "{}\n");
        Files.createDirectories(dir.resolve("empty"));
        InputNotFoundException missing =
                assertThrows(InputNotFoundException.class, () -> expand(at("logs/a.ndjson"), at("nope.ndjson")));
        assertEquals("input not found: " + at("nope.ndjson"), missing.getMessage());
        assertEquals("no file matches " + at("logs/*.json"),
                assertThrows(InputNotFoundException.class, () -> expand(at("logs/*.json"))).getMessage());
        assertEquals("no file matches " + at("nowhere/*.ndjson"),
                assertThrows(InputNotFoundException.class, () -> expand(at("nowhere/*.ndjson"))).getMessage());
        assertEquals("input not found: " + at("empty"),
                assertThrows(InputNotFoundException.class, () -> expand(at("empty"))).getMessage());
    }

    /** Inputs keep the order they are given in; a file named twice is converted once, where it first came. */
    @Test
    void duplicatesAreDroppedAndInputsKeepTheirOrder() throws IOException {
        file("b/2.json", "{}\n");
        file("b/1.json", "{}\n");
        file("a/3.json", "{}\n");
        assertEquals(List.of(at("b/2.json"), at("b/1.json"), at("a/3.json")),
                expand(at("b/2.json"), at("b"), at("a"), at("*/1.json"), at("a/3.json")));
    }

    @Test
    void eachFileKeepsItsLengthAndIdentity() throws IOException {
        Path one = file("one.json", "{\"a\":1}\n");
        file("two.json", "{\"a\":22}\n");
        List<InputFile> files = InputFiles.expand(List.of(at("*.json")));
        assertEquals(List.of(8L, 9L), files.stream().map(InputFile::length).toList());
        assertEquals(17L, InputFiles.totalBytes(files));
        assertEquals(InputFile.keyOf(Files.readAttributes(one, BasicFileAttributes.class)),
                files.get(0).fileKey());
    }

    /**
     * Files created and deleted beside the ones named while they are listed: a file deleted as the
     * listing reaches it is left out, and never fails the listing or hides the files that stay.
     */
    @Test
    void filesDeletedWhileListedLeaveTheOthersListed() throws Exception {
        file("logs/app.log", "{}\n");
        file("logs/sub/app.log", "{}\n");
        AtomicBoolean churning = new AtomicBoolean(true);
        CompletableFuture<Void> churn = CompletableFuture.runAsync(() -> {
            try {
                for (int round = 0; churning.get(); round++) {
                    List<Path> made = new ArrayList<>();
                    for (int i = 0; i < 200; i++) {
                        made.add(file("logs/app.log." + round + "-" + i, "{}\n"));
                    }
                    for (Path path : made) {
                        Files.delete(path);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try {
            for (int i = 0; i < 300; i++) {
                assertTrue(expand(at("logs/app.log*")).contains(at("logs/app.log")), "listing " + i);
                List<String> walked = expand(at("logs"));
                assertTrue(walked.contains(at("logs/app.log")) && walked.contains(at("logs/sub/app.log")),
                        "walk " + i);
            }
        } finally {
            churning.set(false);
            churn.get();
        }
    }
}
