package dev.parq.deploy.local;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM options of a Flink process as Flink's scripts pass them: split at white space, with
 * {@code ${NAME}} and {@code $NAME} expanded from the variables the scripts define
 * ({@code FLINK_HOME}, {@code FLINK_CONF_DIR}, ...) and the environment, as the scripts'
 * {@code eval echo} of {@code env.java.opts.*} does. A variable that is not set expands to nothing.
 */
final class JvmOptions {

    private static final Pattern VARIABLE = Pattern.compile("\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)}|([A-Za-z_][A-Za-z0-9_]*))");

    private JvmOptions() {}

    static List<String> words(String options, Map<String, String> variables) {
        List<String> words = new ArrayList<>();
        for (String word : split(options)) {
            words.add(expand(word, variables));
        }
        return words;
    }

    /** The words of {@code text}, split at white space, nothing expanded. */
    static List<String> split(String text) {
        return Arrays.stream(text.trim().split("\\s+")).filter(w -> !w.isEmpty()).toList();
    }

    static String expand(String word, Map<String, String> variables) {
        Matcher m = VARIABLE.matcher(word);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            String value = variables.containsKey(name) ? variables.get(name) : System.getenv(name);
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : value));
        }
        m.appendTail(out);
        return out.toString();
    }
}
