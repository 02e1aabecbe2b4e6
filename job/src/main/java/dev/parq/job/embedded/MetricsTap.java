package dev.parq.job.embedded;

import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A metric reporter of the embedded cluster that keeps the metrics of a few names where the
 * command in the same process reads them: the Flink metrics a cluster's web UI shows are, embedded,
 * the terminal's status line. Metrics of one name (the subtasks of an operator) are read summed.
 */
public final class MetricsTap implements MetricReporter {

    /** The reporter's name in the configuration: {@code metrics.reporter.NAME.factory.class}. */
    public static final String NAME = "parq-status";

    private static final Map<String, List<Metric>> TAPPED = new ConcurrentHashMap<>();
    private static volatile Set<String> wanted = Set.of();

    /** Keeps the metrics of these names from now on. */
    public static void tap(Set<String> names) {
        wanted = Set.copyOf(names);
    }

    /** The sum of the metrics of {@code name} there are now (numbers only), or 0 if there are none. */
    public static long sum(String name) {
        long sum = 0;
        for (Metric metric : TAPPED.getOrDefault(name, List.of())) {
            if (metric instanceof Counter counter) {
                sum += counter.getCount();
            } else if (metric instanceof Gauge<?> gauge && gauge.getValue() instanceof Number number) {
                sum += number.longValue();
            }
        }
        return sum;
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        if (wanted.contains(metricName)) {
            TAPPED.computeIfAbsent(metricName, name -> new CopyOnWriteArrayList<>()).add(metric);
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
        List<Metric> metrics = TAPPED.get(metricName);
        if (metrics != null) {
            metrics.remove(metric);
        }
    }

    /** Found by Flink through {@code META-INF/services}, named by its class in the configuration. */
    public static final class Factory implements MetricReporterFactory {
        @Override
        public MetricReporter createMetricReporter(Properties properties) {
            return new MetricsTap();
        }
    }
}
