package flinkx.planner;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.flink.api.common.JobID;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

import flinkx.standin.Collected;
import flinkx.standin.FixtureMetrics;
import flinkx.standin.FixtureStateBackend;
import flinkx.standin.FixtureStates;
import flinkx.standin.FixtureTimeline;

/**
 * Plays a case's timeline against its running job, one step at a time ({@link FixtureTimeline} says how the
 * stand-ins take part): release the step, wait until every source reader has played it, then trigger a checkpoint
 * and wait for it to complete. Its barriers follow everything the readers emitted, and it completes only when every
 * operator has processed what came before them, so the step's effects have settled: the counts recorded at an
 * {@code expect} step are exact. No sleeps: a step takes as long as Flink takes to process it.
 */
final class TestTimeline {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** Set after the task's SETs for a case with a timeline: a checkpoint coordinator that triggers only when asked
     *  (a period of a day), aligned barriers, TTL on the timeline's processing time, and a failure that ends the
     *  job instead of restarting it (a restart would replay the sources). */
    static final Map<String, String> SETTINGS = new LinkedHashMap<>();

    static {
        SETTINGS.put("execution.checkpointing.interval", "1 d");
        SETTINGS.put("execution.checkpointing.mode", "EXACTLY_ONCE");
        SETTINGS.put("execution.checkpointing.unaligned.enabled", "false");
        SETTINGS.put("state.backend.type", FixtureStateBackend.class.getName());
        SETTINGS.put("restart-strategy.type", "none");
        // the same two options by the names 1.15 reads (1.17 renamed them; 1.20 and 2.x still read these as
        // deprecated keys of the same options, with the same values)
        SETTINGS.put("state.backend", FixtureStateBackend.class.getName());
        SETTINGS.put("restart-strategy", "none");
    }

    private TestTimeline() {}

    /** False when the deadline passed with the job still running; true when the timeline was played or the job
     *  ended early (its result then says why). */
    static boolean play(MiniCluster cluster, JobClient client, FixtureTimeline timeline, List<String> collectIds,
            long deadline, ObjectNode answer) throws Exception {
        JobID job = client.getJobID();
        timeline.attach(job.toString());
        ArrayNode points = answer.putArray("points");
        int prefix = collectIds.isEmpty() ? 0 : collectIds.get(0).indexOf(':') + 1;
        if (!settle(cluster, client, deadline)) { // every task runs, every reader has served the given rows
            return ended(client);
        }
        for (int index = 0; index < timeline.steps().size(); index++) {
            timeline.release(index);
            if (!timeline.awaitPlayed(index, deadline) || !settle(cluster, client, deadline)) {
                return ended(client);
            }
            JsonNode step = timeline.steps().get(index);
            if (step.has("point")) {
                ObjectNode point = points.addObject();
                ObjectNode counts = point.putObject("counts");
                for (String id : collectIds) {
                    counts.put(id.substring(prefix), Collected.count(id));
                }
                point.set("late", late(job.toString()));
                ObjectNode keys = point.putObject("keys"); // keys each stateful operator holds by here
                FixtureStates.keys(job.toString()).forEach(keys::put);
            }
        }
        timeline.release(timeline.steps().size()); // the input ends: the final watermark, then the job finishes
        JobRuntime.finish(cluster, client, deadline);
        return true;
    }

    static ObjectNode late(String jobId) {
        ObjectNode late = NODES.objectNode();
        FixtureMetrics.late(jobId).forEach(late::put);
        return late;
    }

    /** A completed checkpoint; false when none could be had before the deadline or the job ended. */
    private static boolean settle(MiniCluster cluster, JobClient client, long deadline) throws Exception {
        while (System.currentTimeMillis() < deadline) {
            try {
                cluster.triggerCheckpoint(client.getJobID())
                        .get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
                return true;
            } catch (ExecutionException e) { // tasks still starting ("not all required tasks are running")
                if (client.getJobStatus().get().isGloballyTerminalState()) {
                    return false;
                }
                Thread.sleep(5); // polls the job's start, not the timeline: no step waits on the wall clock
            } catch (TimeoutException e) {
                return false;
            }
        }
        return false;
    }

    private static boolean ended(JobClient client) throws Exception {
        return client.getJobStatus().get().isGloballyTerminalState();
    }
}
