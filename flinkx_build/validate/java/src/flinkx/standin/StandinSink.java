package flinkx.standin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.flink.streaming.api.functions.sink.DiscardingSink;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkFunctionProvider;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

/**
 * Sink with the changelog mode of the connector it stands in for: an append-only connector
 * (kafka, filesystem, ...) reports insert-only, so the planner rejects an update stream into it
 * exactly as with the real connector. Partitioned and INSERT OVERWRITE targets are accepted.
 * For {@code flinkx test} ({@link Fixture} with a collect id) it records every change it receives.
 */
public final class StandinSink
        implements DynamicTableSink, SupportsWritingMetadata, SupportsPartitioning, SupportsOverwrite {

    private final String original;
    private final ChangelogMode mode;
    private final Map<String, DataType> metadata;
    private final Fixture fixture; // null while validating
    private List<String> metadataKeys = new ArrayList<>();
    private DataType consumed; // null until metadata is applied: the physical row then

    StandinSink(String original, ChangelogMode mode, Map<String, DataType> metadata, Fixture fixture) {
        this.original = original;
        this.mode = mode;
        this.metadata = metadata;
        this.fixture = fixture;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return mode;
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        if (fixture == null || fixture.collectId == null) {
            return SinkFunctionProvider.of(new DiscardingSink<RowData>());
        }
        DataType type = consumed != null ? consumed : fixture.physicalType;
        return SinkFunctionProvider.of(
                new FixtureFunctions.Sink(fixture.collectId, fixture.names(metadataKeys), type,
                        context.createDataStructureConverter(type)));
    }

    @Override
    public Map<String, DataType> listWritableMetadata() {
        return metadata;
    }

    @Override
    public void applyWritableMetadata(List<String> metadataKeys, DataType consumedDataType) {
        this.metadataKeys = new ArrayList<>(metadataKeys);
        this.consumed = consumedDataType;
    }

    @Override
    public void applyStaticPartition(Map<String, String> partition) {}

    @Override
    public void applyOverwrite(boolean overwrite) {}

    @Override
    public DynamicTableSink copy() {
        StandinSink copy = new StandinSink(original, mode, metadata, fixture);
        copy.metadataKeys = new ArrayList<>(metadataKeys);
        copy.consumed = consumed;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "flinkx-standin(" + original + ")";
    }
}
