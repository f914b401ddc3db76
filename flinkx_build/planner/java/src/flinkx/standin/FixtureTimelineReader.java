package flinkx.standin;

import java.io.Serializable;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.data.RowData;

/**
 * The reader of one table in a case with a timeline: at its start it emits the rows the case gives the table
 * (the state before the first step), then plays each step {@link FixtureTimeline} releases, in order: the step's
 * rows for its table, a watermark (its own or every source's), idle, active, or nothing. It tells the timeline
 * when it has played a step; it ends its input when the timeline ends. Only subtask 0 emits (a task that SETs a
 * higher parallelism would otherwise serve every row once per subtask); the others stay idle and only keep step.
 */
public final class FixtureTimelineReader implements SourceReader<RowData, FixtureTimelineReader.NoSplit> {
    private final String timelineId;
    private final String table;
    private final FixtureRows.Split shape;
    private final boolean emits;
    private FixtureTimeline timeline;
    private boolean started;
    private boolean idle;
    private int next; // the next step to play

    FixtureTimelineReader(String timelineId, String table, FixtureRows.Split shape, boolean emits) {
        this.timelineId = timelineId;
        this.table = table;
        this.shape = shape;
        this.emits = emits;
    }

    @Override
    public void start() {
        timeline = FixtureTimeline.of(timelineId);
        timeline.register();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<RowData> output) {
        if (!started) {
            started = true;
            if (emits) {
                shape.rows().forEach(output::collect);
            } else {
                output.markIdle();
            }
        }
        int released = timeline.released();
        int steps = timeline.steps().size();
        if (next < steps && next <= released) {
            if (emits) {
                play(timeline.steps().get(next), output);
            }
            timeline.played(next);
            next++;
        }
        if (next >= steps && released >= steps) {
            return InputStatus.END_OF_INPUT;
        }
        return next <= released ? InputStatus.MORE_AVAILABLE : InputStatus.NOTHING_AVAILABLE;
    }

    private void play(JsonNode step, ReaderOutput<RowData> output) {
        if (step.has("rows")) {
            JsonNode rows = step.get("rows").get(table);
            if (rows != null) {
                if (idle) { // rows bring an idle source back, as they do a real one
                    output.markActive();
                    idle = false;
                }
                new FixtureRows.Split(rows.asText(), shape.names, shape.produced, shape.converter, 0).rows()
                        .forEach(output::collect);
            }
        } else if (step.has("watermark")) {
            JsonNode at = step.get("watermark").has(table) ? step.get("watermark").get(table) : step.get("watermark").get("*");
            if (at != null) {
                if (idle) {
                    output.markActive();
                    idle = false;
                }
                output.emitWatermark(new Watermark(at.asLong()));
            }
        } else if (names(step, "idle")) {
            output.markIdle();
            idle = true;
        } else if (names(step, "active")) {
            output.markActive();
            idle = false;
        }
    }

    private boolean names(JsonNode step, String kind) {
        for (JsonNode name : step.path(kind)) {
            if (name.asText().equals(table)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        CompletableFuture<Void> advanced = timeline.advanced();
        return next <= timeline.released() ? CompletableFuture.completedFuture(null) : advanced;
    }

    @Override
    public List<NoSplit> snapshotState(long checkpointId) {
        return Collections.emptyList(); // a test job is never restored
    }

    @Override
    public void addSplits(List<NoSplit> splits) {}

    @Override
    public void notifyNoMoreSplits() {}

    @Override
    public void close() {}

    /** The reader has no splits: the timeline, not an enumerator, says what it reads. */
    public static final class NoSplit implements SourceSplit, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public String splitId() {
            return "timeline";
        }
    }

    /** The Source V2 of a timeline table: an enumerator with nothing to assign, a reader per subtask. */
    public static final class Rows implements Source<RowData, NoSplit, Integer> {
        private static final long serialVersionUID = 1L;
        private final String timelineId;
        private final String table;
        private final FixtureRows.Split shape;

        Rows(String timelineId, String table, FixtureRows.Split shape) {
            this.timelineId = timelineId;
            this.table = table;
            this.shape = shape;
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.BOUNDED;
        }

        @Override
        public SourceReader<RowData, NoSplit> createReader(SourceReaderContext context) {
            return new FixtureTimelineReader(timelineId, table, shape, context.getIndexOfSubtask() == 0);
        }

        @Override
        public SplitEnumerator<NoSplit, Integer> createEnumerator(SplitEnumeratorContext<NoSplit> context) {
            return new Enumerator();
        }

        @Override
        public SplitEnumerator<NoSplit, Integer> restoreEnumerator(SplitEnumeratorContext<NoSplit> context, Integer checkpoint) {
            return new Enumerator();
        }

        @Override
        public SimpleVersionedSerializer<NoSplit> getSplitSerializer() {
            return new FixtureRows.JavaSerializer<>();
        }

        @Override
        public SimpleVersionedSerializer<Integer> getEnumeratorCheckpointSerializer() {
            return new FixtureRows.JavaSerializer<>();
        }
    }

    static final class Enumerator implements SplitEnumerator<NoSplit, Integer> {
        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {}

        @Override
        public void addSplitsBack(List<NoSplit> splits, int subtaskId) {}

        @Override
        public void addReader(int subtaskId) {}

        @Override
        public Integer snapshotState(long checkpointId) {
            return 0;
        }

        @Override
        public void close() {}
    }
}
