package dev.parq.job.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.util.TimeUtils;
import org.junit.jupiter.api.Test;

/**
 * The {@code ConfigOption}s are the one declaration of every key and its default: the shipped
 * {@code flink-conf/config.yaml} and the README's option table must say the same.
 */
class OptionsDocumentedTest {

    private static final Pattern YAML_KEY = Pattern.compile("^(?:# )?(parq\\.[a-z.-]+):\\s*(\\S.*?)\\s*$");
    private static final Pattern README_ROW = Pattern.compile("^\\|[^|]*\\|\\s*`(parq\\.[a-z.-]+)`\\s*\\|.*\\|\\s*([^|]*?)\\s*\\|$");

    @Test
    void configYamlListsEveryDefaultAsDeclared() throws IOException {
        Map<String, ConfigOption<?>> options = ParqOptions.all();
        Map<String, String> yaml = new LinkedHashMap<>();
        for (String line : Files.readAllLines(Path.of("..", "flink-conf", "config.yaml"), StandardCharsets.UTF_8)) {
            Matcher key = YAML_KEY.matcher(line);
            if (key.matches()) {
                yaml.put(key.group(1), key.group(2));
            }
        }
        for (String key : yaml.keySet()) {
            assertTrue(options.containsKey(key), "config.yaml sets " + key + ", which no options class declares");
        }
        options.forEach((key, option) -> {
            if (option.hasDefaultValue()) {
                assertTrue(yaml.containsKey(key), "config.yaml does not list " + key);
                assertSameValue(option, yaml.get(key), "config.yaml");
            }
        });
    }

    @Test
    void theReadmeTableShowsEachKeysDefault() throws IOException {
        Map<String, ConfigOption<?>> options = ParqOptions.all();
        int rows = 0;
        for (String line : Files.readAllLines(Path.of("..", "README.md"), StandardCharsets.UTF_8)) {
            Matcher row = README_ROW.matcher(line);
            if (!row.matches()) {
                continue;
            }
            rows++;
            ConfigOption<?> option = options.get(row.group(1));
            assertTrue(option != null, "the README names " + row.group(1) + ", which no options class declares");
            if (option.hasDefaultValue()) {
                assertSameValue(option, row.group(2).replace("`", ""), "the README");
            }
        }
        assertTrue(rows >= 8, "the README's option table lost its key column: " + rows + " rows found");
    }

    @Test
    void noTestHookIsAnOption() {
        ParqOptions.all().keySet().forEach(key -> assertFalse(key.startsWith("parq.test."), key));
    }

    private static void assertSameValue(ConfigOption<?> option, String written, String where) {
        Object declared = option.defaultValue();
        if (declared instanceof MemorySize size) {
            assertEquals(size, MemorySize.parse(written), where + " on " + option.key());
        } else if (declared instanceof Duration duration) {
            assertEquals(duration, TimeUtils.parseDuration(written), where + " on " + option.key());
        } else {
            assertEquals(declared.toString().toLowerCase(), written.toLowerCase(), where + " on " + option.key());
        }
    }
}
