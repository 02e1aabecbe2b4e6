package dev.parq.job.embedded;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * Logging of a run in this JVM ({@code java -jar}). A Flink client or cluster configures logging
 * itself; run as a plain command, Flink's own log lines would drown parq's output, so they are shown
 * only when {@code PARQ_LOG_LEVEL} asks.
 */
public final class EmbeddedLogging {

    private static final String LOGGER_CONTEXT_FACTORY = "log4j2.loggerContextFactory";
    private static final String SIMPLE_LOGGER_CONTEXT_FACTORY =
            "org.apache.logging.log4j.simple.SimpleLoggerContextFactory";

    /**
     * The loggers of the enumerators that follow files and objects and of the source reader, by name
     * (the simple logger has no hierarchy).
     */
    private static final String[] FOLLOWING_LOGGERS = {"dev.parq.source.enumerator.TailingEnumerator",
        "dev.parq.source.enumerator.ObjectEnumerator", "dev.parq.source.enumerator.Backlog",
        "dev.parq.source.reader.NdjsonSourceReader"};

    /**
     * The S3 plugin's AWS SDK logs through java.util.logging (a warning per missing mime.types, a
     * stack trace per failed EC2 metadata lookup); held here, as the JDK keeps loggers only weakly.
     */
    private static final java.util.logging.Logger AWS_SDK = java.util.logging.Logger.getLogger("com.amazonaws");

    private EmbeddedLogging() {}

    /**
     * System properties for a run in this JVM (the embedded cluster's tasks run here too), each
     * unless set on the command line; call before anything logs. Arrow checks every buffer access
     * against the buffer's bounds unless told otherwise; parq's own tests run with the checks on, and
     * in a conversion they are 3-4% of the parser's time. Log4j registers its JMX beans at start-up,
     * which nothing reads.
     */
    public static void applyDefaults() {
        System.setProperty("arrow.enable_unsafe_memory_access",
                System.getProperty("arrow.enable_unsafe_memory_access", "true"));
        System.setProperty("log4j2.disableJmx", System.getProperty("log4j2.disableJmx", "true"));
        // The AWS SDK 1.x of the S3 plugin announces its end of support on stderr at its first use.
        System.setProperty("aws.java.v1.disableDeprecationAnnouncement",
                System.getProperty("aws.java.v1.disableDeprecationAnnouncement", "true"));
        if (loggingOff()) {
            // Nothing is logged, so log4j-core need not start at all (its configuration search and
            // plugin scan took 0.2 s of CPU at start-up): log4j-api's own simple logger, switched
            // off, takes every log call instead.
            System.setProperty(LOGGER_CONTEXT_FACTORY, SIMPLE_LOGGER_CONTEXT_FACTORY);
            System.setProperty("org.apache.logging.log4j.simplelog.level", "OFF");
            AWS_SDK.setLevel(java.util.logging.Level.OFF);
            // What ingest tells of the files and objects it follows (rotations, truncations, copies,
            // objects written again or late, lines lost) is for its user, not Flink's noise: those
            // loggers stay on, on stderr.
            for (String logger : FOLLOWING_LOGGERS) {
                System.setProperty("org.apache.logging.log4j.simplelog." + logger + ".level",
                        System.getProperty("org.apache.logging.log4j.simplelog." + logger + ".level", "INFO"));
            }
        }
    }

    /** Sets the root level to {@code PARQ_LOG_LEVEL} (default OFF) unless logging was configured. */
    public static void quietUnlessConfigured() {
        if (log4jConfigured() || SIMPLE_LOGGER_CONTEXT_FACTORY.equals(System.getProperty(LOGGER_CONTEXT_FACTORY))) {
            return;
        }
        try {
            Configurator.setRootLevel(parqLogLevel());
        } catch (NoClassDefFoundError noLog4j) {
            // Without log4j-core on the class path, logging is whatever the host set up.
        }
    }

    /** Whether nothing is to be logged: no log4j configuration given, and PARQ_LOG_LEVEL unset or OFF. */
    private static boolean loggingOff() {
        return !log4jConfigured()
                && System.getProperty(LOGGER_CONTEXT_FACTORY) == null
                && parqLogLevel() == Level.OFF;
    }

    /** Whether a log4j configuration file was given, as a Flink client or cluster does. */
    private static boolean log4jConfigured() {
        return System.getProperty("log4j.configurationFile") != null
                || System.getProperty("log4j2.configurationFile") != null;
    }

    /** The level PARQ_LOG_LEVEL asks for; OFF when it is unset or names no level. */
    private static Level parqLogLevel() {
        return Level.toLevel(System.getenv().getOrDefault("PARQ_LOG_LEVEL", "OFF"), Level.OFF);
    }
}
