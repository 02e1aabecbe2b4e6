package dev.parq.sink.partition;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.OptionalLong;

import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * The time partition of a row: the year, month, day or hour its timestamp or date falls in (local
 * time for TIMESTAMP and DATE, the configured zone's for TIMESTAMP_LTZ), as a code: that period's
 * start as seconds of the local time line, so that equal folders have equal codes even where a
 * zone's clock goes back. The last period found is kept as a range of raw values, so that rows of
 * one period (time-ordered logs) cost a comparison each.
 */
final class TimeLevel {

    /** The code of a null value. */
    static final long NULL = Long.MIN_VALUE;

    private static final DateTimeFormatter YEAR = DateTimeFormatter.ofPattern("uuuu");
    private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("uuuu-MM");
    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd");
    private static final DateTimeFormatter HOUR = DateTimeFormatter.ofPattern("uuuu-MM-dd-HH");
    private static final DateTimeFormatter HOUR_PARSED = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd-HH").parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
            .toFormatter();

    private final PartitionSpec.Transform transform;
    private final ZoneId zone;
    private final boolean date;
    /** Raw values per second; 0 for dates, whose raw values are days. */
    private final long perSecond;

    private boolean cached;
    private long cachedStart;
    private long cachedEnd;
    private long cachedCode;

    private TimeLevel(PartitionSpec.Transform transform, ZoneId zone) {
        this.transform = transform;
        this.zone = zone;
        this.date = false;
        this.perSecond = 1;
    }

    TimeLevel(PartitionSpec.Level level, ZoneId zone, FieldVector vector) {
        this.transform = level.transform();
        LogicalTypeRoot root = level.type().getTypeRoot();
        this.date = root == LogicalTypeRoot.DATE;
        this.zone = root == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE ? zone : ZoneOffset.UTC;
        this.perSecond = date ? 0 : perSecond(((ArrowType.Timestamp) vector.getField().getType()).getUnit());
    }

    private static long perSecond(TimeUnit unit) {
        switch (unit) {
            case SECOND:
                return 1;
            case MILLISECOND:
                return 1_000;
            case MICROSECOND:
                return 1_000_000;
            default:
                return 1_000_000_000;
        }
    }

    /** The code of row {@code row} of {@code vector}, or {@link #NULL}. */
    long code(FieldVector vector, int row) {
        if (vector.isNull(row)) {
            return NULL;
        }
        long raw = date ? ((DateDayVector) vector).get(row) : ((TimeStampVector) vector).get(row);
        if (cached && raw >= cachedStart && raw < cachedEnd) {
            return cachedCode;
        }
        return date ? dateCode(raw) : timestampCode(raw);
    }

    private long dateCode(long day) {
        LocalDate start = truncate(LocalDate.ofEpochDay(day).atStartOfDay()).toLocalDate();
        LocalDate end = start.plus(1, unit());
        cache(start.toEpochDay(), end.toEpochDay(), start.toEpochDay() * 86_400, day);
        return cachedCode;
    }

    private long timestampCode(long raw) {
        long seconds = Math.floorDiv(raw, perSecond);
        long nanos = Math.floorMod(raw, perSecond) * (1_000_000_000 / perSecond);
        Instant instant = Instant.ofEpochSecond(seconds, nanos);
        LocalDateTime start = truncate(LocalDateTime.ofInstant(instant, zone));
        long startRaw = rawOf(start.atZone(zone).toInstant());
        long endRaw = rawOf(start.plus(1, unit()).atZone(zone).toInstant());
        cache(startRaw, endRaw, start.toEpochSecond(ZoneOffset.UTC), raw);
        return cachedCode;
    }

    /** Keeps the range only if it holds the value it was found for (the ends saturate near the limits). */
    private void cache(long start, long end, long code, long raw) {
        cachedCode = code;
        cachedStart = start;
        cachedEnd = end;
        cached = raw >= start && raw < end;
    }

    private long rawOf(Instant instant) {
        try {
            return Math.addExact(Math.multiplyExact(instant.getEpochSecond(), perSecond),
                    instant.getNano() / (1_000_000_000 / perSecond));
        } catch (ArithmeticException e) {
            return instant.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }

    private ChronoUnit unit() {
        switch (transform) {
            case YEAR:
                return ChronoUnit.YEARS;
            case MONTH:
                return ChronoUnit.MONTHS;
            case DAY:
                return ChronoUnit.DAYS;
            default:
                return ChronoUnit.HOURS;
        }
    }

    private LocalDateTime truncate(LocalDateTime time) {
        switch (transform) {
            case YEAR:
                return time.toLocalDate().withDayOfYear(1).atStartOfDay();
            case MONTH:
                return time.toLocalDate().withDayOfMonth(1).atStartOfDay();
            case DAY:
                return time.toLocalDate().atStartOfDay();
            default:
                return time.truncatedTo(ChronoUnit.HOURS);
        }
    }

    /** The folder value of {@code code}: {@code 2024}, {@code 2024-03}, {@code 2024-03-01}, {@code 2024-03-01-13}; null for {@link #NULL}. */
    String value(long code) {
        if (code == NULL) {
            return null;
        }
        LocalDateTime start = LocalDateTime.ofEpochSecond(code, 0, ZoneOffset.UTC);
        switch (transform) {
            case YEAR:
                return YEAR.format(start);
            case MONTH:
                return MONTH.format(start);
            case DAY:
                return DAY.format(start);
            default:
                return HOUR.format(start);
        }
    }

    /** A raw value in epoch milliseconds: the instant, or the local time read as UTC. */
    long millis(FieldVector vector, int row) {
        if (date) {
            return ((DateDayVector) vector).get(row) * 86_400_000L;
        }
        long raw = ((TimeStampVector) vector).get(row);
        return perSecond >= 1000 ? Math.floorDiv(raw, perSecond / 1000) : raw * 1000;
    }

    /**
     * The first instant (epoch milliseconds) past the period whose folder value is {@code value}
     * ({@code 2024-03-01} for a day), a local time's read as UTC as {@link #millis} does; empty
     * for the default partition or a value that is not one of these folders.
     */
    static OptionalLong endMillis(PartitionSpec.Level level, ZoneId zone, String value) {
        LocalDateTime start;
        try {
            switch (level.transform()) {
                case YEAR:
                    start = LocalDate.of(Integer.parseInt(value), 1, 1).atStartOfDay();
                    break;
                case MONTH:
                    start = YearMonth.parse(value, MONTH).atDay(1).atStartOfDay();
                    break;
                case DAY:
                    start = LocalDate.parse(value, DAY).atStartOfDay();
                    break;
                default:
                    start = LocalDateTime.parse(value, HOUR_PARSED);
            }
        } catch (RuntimeException e) {
            return OptionalLong.empty();
        }
        ZoneId in = level.type().getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE ? zone : ZoneOffset.UTC;
        TimeLevel unit = new TimeLevel(level.transform(), in);
        return OptionalLong.of(start.plus(1, unit.unit()).atZone(in).toInstant().toEpochMilli());
    }
}
