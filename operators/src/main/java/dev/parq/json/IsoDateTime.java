package dev.parq.json;

import dev.parq.json.Tape;

/**
 * Reads ISO-8601 dates ("2024-01-31") and date-times ("2024-01-31T12:34[:56[.123456789]]", 'T' or
 * a space, then optionally 'Z' or an offset ±hh[:mm]) from a string token without allocating.
 */
public final class IsoDateTime {

    private static final int MAX_LENGTH = 64;

    private final byte[] text = new byte[MAX_LENGTH];
    private int length;

    public long epochDay;
    public int secondOfDay;
    public int nanos;
    /** How many fractional digits the text has (more than 9 are read as 9). */
    public int fractionDigits;
    public boolean hasZone;
    public int offsetSeconds;

    /** Loads the content of a string token; false if it is too long to be a date or time. */
    public boolean load(Tape tape, int t) {
        return load(tape.bytes(), tape.start(t), tape.end(t), tape.has(t, Tape.ESCAPED));
    }

    /** Loads string content bytes[from, to), which holds escapes if escaped; false if too long. */
    public boolean load(byte[] bytes, int from, int to, boolean escaped) {
        if (to - from > MAX_LENGTH) {
            return false;
        }
        if (escaped) {
            length = JsonStrings.unescape(bytes, from, to, text);
        } else {
            System.arraycopy(bytes, from, text, 0, to - from);
            length = to - from;
        }
        return true;
    }

    /**
     * Reads the common log shape "YYYY-MM-DDTHH:MM:SS.mmmZ" in place, without copying the text.
     * False means only that the text has another shape or is out of range: {@link #load} and
     * {@link #parseDateTime} then decide, so this shortcut accepts nothing they would reject.
     */
    public boolean parseUtcMillis(byte[] b, int from, int to) {
        if (to - from != 24 || b[from + 4] != '-' || b[from + 7] != '-' || b[from + 10] != 'T'
                || b[from + 13] != ':' || b[from + 16] != ':' || b[from + 19] != '.' || b[from + 23] != 'Z') {
            return false;
        }
        int century = twoDigits(b, from);
        int yearOfCentury = twoDigits(b, from + 2);
        int month = twoDigits(b, from + 5);
        int day = twoDigits(b, from + 8);
        int hour = twoDigits(b, from + 11);
        int minute = twoDigits(b, from + 14);
        int second = twoDigits(b, from + 17);
        int centis = twoDigits(b, from + 20);
        int lastMilli = digit(b[from + 22]);
        if ((century | yearOfCentury | month | day | hour | minute | second | centis | lastMilli) < 0) {
            return false;
        }
        int year = century * 100 + yearOfCentury;
        if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59
                || second > 59) {
            return false;
        }
        int millis = centis * 10 + lastMilli;
        epochDay = daysFromCivil(year, month, day);
        secondOfDay = hour * 3600 + minute * 60 + second;
        nanos = millis * 1_000_000;
        fractionDigits = 3;
        hasZone = true;
        offsetSeconds = 0;
        return true;
    }

    /** Two ASCII digits at i as a number, or a negative number if either is not a digit. */
    private static int twoDigits(byte[] b, int i) {
        int tens = digit(b[i]);
        int ones = digit(b[i + 1]);
        return (tens | ones) < 0 ? -1 : tens * 10 + ones;
    }

    private static int digit(byte c) {
        int d = c - '0';
        return (d | (9 - d)) < 0 ? -1 : d;
    }

    public boolean parseDate() {
        return length == 10 && date();
    }

    public boolean parseDateTime() {
        if (length < 16 || !date() || (text[10] != 'T' && text[10] != 't' && text[10] != ' ')) {
            return false;
        }
        int hour = digits(11, 2);
        int minute = text[13] == ':' ? digits(14, 2) : -1;
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59) {
            return false;
        }
        int second = 0;
        nanos = 0;
        fractionDigits = 0;
        int p = 16;
        if (p < length && text[p] == ':') {
            second = digits(p + 1, 2);
            if (second < 0 || second > 59) {
                return false;
            }
            p += 3;
            if (p < length && (text[p] == '.' || text[p] == ',')) {
                p++;
                int start = p;
                int scaled = 0;
                while (p < length && text[p] >= '0' && text[p] <= '9') {
                    if (p - start < 9) {
                        scaled = scaled * 10 + text[p] - '0';
                    }
                    p++;
                }
                int n = p - start;
                if (n == 0) {
                    return false;
                }
                for (int i = n; i < 9; i++) {
                    scaled *= 10;
                }
                nanos = scaled;
                fractionDigits = n;
            }
        }
        secondOfDay = hour * 3600 + minute * 60 + second;
        return zone(p);
    }

    private boolean zone(int p) {
        hasZone = false;
        offsetSeconds = 0;
        if (p == length) {
            return true;
        }
        hasZone = true;
        if ((text[p] == 'Z' || text[p] == 'z') && p + 1 == length) {
            return true;
        }
        if (text[p] != '+' && text[p] != '-') {
            return false;
        }
        int sign = text[p] == '-' ? -1 : 1;
        int hours = digits(p + 1, 2);
        int minutes = 0;
        int rest = length - (p + 3);
        if (rest == 3 && text[p + 3] == ':') {
            minutes = digits(p + 4, 2);
        } else if (rest == 2) {
            minutes = digits(p + 3, 2);
        } else if (rest != 0) {
            return false;
        }
        if (hours < 0 || hours > 18 || minutes < 0 || minutes > 59) {
            return false;
        }
        offsetSeconds = sign * (hours * 3600 + minutes * 60);
        return true;
    }

    private boolean date() {
        int year = digits(0, 4);
        int month = digits(5, 2);
        int day = digits(8, 2);
        if (year < 0 || text[4] != '-' || text[7] != '-' || month < 1 || month > 12 || day < 1
                || day > daysInMonth(year, month)) {
            return false;
        }
        epochDay = daysFromCivil(year, month, day);
        return true;
    }

    private int digits(int at, int n) {
        if (at + n > length) {
            return -1;
        }
        int v = 0;
        for (int i = at; i < at + n; i++) {
            byte c = text[i];
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + c - '0';
        }
        return v;
    }

    private static int daysInMonth(int year, int month) {
        if (month == 2) {
            boolean leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
            return leap ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
    private static long daysFromCivil(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = Math.floorDiv(y, 400);
        int yearOfEra = y - era * 400;
        int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146097L + dayOfEra - 719468;
    }

    /**
     * Parses string content bytes[from, to), which holds escapes if escaped, as a date-time in any
     * spelling the decoders take: the common UTC form with milliseconds at once, else by loading
     * and parsing the text.
     */
    public boolean parseText(byte[] bytes, int from, int to, boolean escaped) {
        return (!escaped && parseUtcMillis(bytes, from, to)) || (load(bytes, from, to, escaped) && parseDateTime());
    }

    /** Bits of {@link #shape}: a zone, and an instant within the range of nanoseconds in a long. */
    public static final int ZONED = 1 << 4;
    public static final int FITS_NANOS = 1 << 5;

    /**
     * What string token {@code t} is as a date-time, for schema inference: -1 if it is none the
     * decoders take, else its fractional digits (0 to 9) in the low four bits, with {@link #ZONED}
     * where it has a zone and {@link #FITS_NANOS} where a TIMESTAMP(9) column holds it.
     */
    public static int shape(Tape tape, int t) {
        IsoDateTime iso = new IsoDateTime();
        if (!iso.parseText(tape.bytes(), tape.start(t), tape.end(t), tape.has(t, Tape.ESCAPED))) {
            return -1;
        }
        long seconds = iso.epochDay * 86_400L + iso.secondOfDay - iso.offsetSeconds;
        // The range of a long in nanoseconds, in whole seconds, with a second to spare at each end.
        boolean fitsNanos = seconds > -9_223_372_036L && seconds < 9_223_372_036L;
        return Math.min(9, iso.fractionDigits) | (iso.hasZone ? ZONED : 0) | (fitsNanos ? FITS_NANOS : 0);
    }
}
