package dev.parq.schema.infer;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether a string is an ISO-8601 instant that the TIMESTAMP_LTZ decoder reads: a date-time with
 * 'Z' or a numeric offset. Deliberately no wider than the decoder, so an inferred TIMESTAMP_LTZ
 * column never rejects a sampled value.
 */
final class Instants {

    private static final Pattern INSTANT = Pattern.compile(
            "(\\d{4})-(\\d{2})-(\\d{2})[Tt ](\\d{2}):(\\d{2})(?::(\\d{2})(?:\\.\\d{1,9})?)?"
                    + "(?:[Zz]|[+-](\\d{2})(?::?(\\d{2}))?)");

    private Instants() {}

    static boolean isInstant(String text) {
        if (text.length() > 64) {
            return false;
        }
        Matcher m = INSTANT.matcher(text);
        if (!m.matches()) {
            return false;
        }
        try {
            LocalDate.of(number(m, 1), number(m, 2), number(m, 3));
            LocalTime.of(number(m, 4), number(m, 5), m.group(6) == null ? 0 : number(m, 6));
        } catch (DateTimeException e) {
            return false;
        }
        int offsetHours = m.group(7) == null ? 0 : number(m, 7);
        int offsetMinutes = m.group(8) == null ? 0 : number(m, 8);
        return offsetHours <= 18 && offsetMinutes <= 59;
    }

    private static int number(Matcher m, int group) {
        return Integer.parseInt(m.group(group));
    }
}
