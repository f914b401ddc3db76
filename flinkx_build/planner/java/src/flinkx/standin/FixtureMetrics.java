package flinkx.standin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A metric reporter of the test MiniCluster that keeps one kind of metric: Flink's per-operator count of rows
 * dropped for being behind the watermark ({@code numLateRecordsDropped}, registered by the window operators), by
 * job, so {@code flinkx test} can say which operator dropped how many late rows at every point of a timeline.
 * Registered with the MiniCluster as {@code metrics.reporter.flinkx.factory.class}.
 */
public final class FixtureMetrics implements MetricReporter, MetricReporterFactory {
    static final String LATE = "numLateRecordsDropped";
    private static final Map<String, List<Map.Entry<String, Counter>>> LATE_BY_JOB = new ConcurrentHashMap<>();

    @Override
    public MetricReporter createMetricReporter(Properties properties) {
        return this;
    }

    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
        if (!LATE.equals(metricName) || !(metric instanceof Counter)) {
            return;
        }
        Map<String, String> variables = group.getAllVariables();
        String job = variables.get("<job_id>");
        String operator = variables.getOrDefault("<operator_name>", variables.getOrDefault("<task_name>", "?"));
        if (job != null) {
            List<Map.Entry<String, Counter>> counters = LATE_BY_JOB.computeIfAbsent(job, k -> new ArrayList<>());
            synchronized (counters) {
                counters.add(Map.entry(operator, (Counter) metric));
            }
        }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {} // read after the job

    /** Late rows dropped so far in job {@code jobId}, per operator name. */
    public static Map<String, Long> late(String jobId) {
        Map<String, Long> late = new LinkedHashMap<>();
        List<Map.Entry<String, Counter>> counters = LATE_BY_JOB.getOrDefault(jobId, new ArrayList<>());
        synchronized (counters) {
            for (Map.Entry<String, Counter> entry : counters) {
                late.merge(entry.getKey(), entry.getValue().getCount(), Long::sum);
            }
        }
        return late;
    }

    public static void forget(String jobId) {
        LATE_BY_JOB.remove(jobId);
    }
}
