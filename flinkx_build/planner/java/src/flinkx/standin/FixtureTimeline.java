package flinkx.standin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

/**
 * One {@code flinkx test} timeline as the stand-ins of one job play it, shared through this JVM (the MiniCluster
 * runs in the driver's JVM, so the job's source readers, lookup functions and state backends reach it here).
 *
 * <p>The driver (TestJob) releases one step at a time with {@link #release}; every source reader of the job plays
 * the released steps in order ({@link FixtureTimelineReader}: the rows, a watermark, idle or active for its table,
 * nothing for a step about other tables) and says so with {@link #played}. The driver then waits for a checkpoint
 * to complete: its barrier follows what every reader emitted, and a checkpoint completes only once every operator
 * downstream has processed everything before the barrier (aligned, exactly-once), so the effects of the step
 * (window firings, joins, lookups, what the sinks received) have all happened. Only then does the next step start:
 * an expectation "by here" is exact, not a matter of timing. Processing time is this timeline's {@link #now}: the
 * value of the last {@code proctime} step, which the state backend's TTL reads ({@link FixtureStateBackend}).
 */
public final class FixtureTimeline {
    private static final Map<String, FixtureTimeline> BY_ID = new ConcurrentHashMap<>();
    private static final Map<String, FixtureTimeline> BY_JOB = new ConcurrentHashMap<>();

    /** The timeline's steps as the driver sent them (docs/targets.md, the test request's "timeline"). */
    private final List<JsonNode> steps;
    private final String id;
    private int released = -1; // the last step readers may play; steps.size(): the input ends
    private int readers;
    private final Map<Integer, Integer> playedBy = new HashMap<>(); // step -> readers that played it
    private CompletableFuture<Void> advanced = new CompletableFuture<>();
    private volatile long now;

    private FixtureTimeline(String id, List<JsonNode> steps) {
        this.id = id;
        this.steps = steps;
        for (JsonNode step : steps) { // before the first proctime step, processing time is that step's
            if (step.has("proctime")) {
                now = step.get("proctime").asLong();
                break;
            }
        }
    }

    /** Registers the timeline of the job whose tables carry {@code id}; {@link #close} forgets it. */
    public static FixtureTimeline open(String id, JsonNode steps) {
        List<JsonNode> list = new ArrayList<>();
        steps.forEach(list::add);
        FixtureTimeline timeline = new FixtureTimeline(id, list);
        BY_ID.put(id, timeline);
        return timeline;
    }

    static FixtureTimeline of(String id) {
        FixtureTimeline timeline = BY_ID.get(id);
        if (timeline == null) {
            throw new IllegalStateException("flinkx test: no timeline " + id);
        }
        return timeline;
    }

    /** Processing time of the job {@code jobId}: its timeline's, or the wall clock for a job without one. */
    static long now(String jobId) {
        FixtureTimeline timeline = BY_JOB.get(jobId);
        return timeline != null ? timeline.now : System.currentTimeMillis();
    }

    public void attach(String jobId) {
        BY_JOB.put(jobId, this);
    }

    public void close() {
        BY_ID.remove(id, this);
        BY_JOB.values().removeIf(t -> t == this);
        synchronized (this) {
            released = steps.size();
            advanced.complete(null);
        }
    }

    public List<JsonNode> steps() {
        return steps;
    }

    public synchronized int readers() {
        return readers;
    }

    synchronized void register() {
        readers++;
    }

    /** Step {@code index} may be played (a proctime step sets the clock first); {@code steps.size()} ends the input. */
    public void release(int index) {
        if (index < steps.size() && steps.get(index).has("proctime")) {
            now = steps.get(index).get("proctime").asLong();
        }
        CompletableFuture<Void> done;
        synchronized (this) {
            released = index;
            done = advanced;
            advanced = new CompletableFuture<>();
        }
        done.complete(null);
    }

    synchronized int released() {
        return released;
    }

    /** Completes when a later step is released. */
    synchronized CompletableFuture<Void> advanced() {
        return advanced;
    }

    synchronized void played(int index) {
        playedBy.merge(index, 1, Integer::sum);
        notifyAll();
    }

    /** Waits until every reader has played step {@code index}; false at the deadline. */
    public synchronized boolean awaitPlayed(int index, long deadline) throws InterruptedException {
        while (playedBy.getOrDefault(index, 0) < readers) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            wait(Math.min(left, 50));
        }
        return true;
    }

    /** The rows JSON a step gives {@code table}, or null. */
    String rowsOf(int index, String table) {
        JsonNode rows = steps.get(index).path("rows").get(table);
        return rows == null ? null : rows.asText();
    }
}
