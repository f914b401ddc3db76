package flinkx.standin;

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
 */
public final class StandinSink
        implements DynamicTableSink, SupportsWritingMetadata, SupportsPartitioning, SupportsOverwrite {

    private final String original;
    private final ChangelogMode mode;
    private final Map<String, DataType> metadata;

    StandinSink(String original, ChangelogMode mode, Map<String, DataType> metadata) {
        this.original = original;
        this.mode = mode;
        this.metadata = metadata;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requestedMode) {
        return mode;
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        return SinkFunctionProvider.of(new DiscardingSink<RowData>());
    }

    @Override
    public Map<String, DataType> listWritableMetadata() {
        return metadata;
    }

    @Override
    public void applyWritableMetadata(List<String> metadataKeys, DataType consumedDataType) {}

    @Override
    public void applyStaticPartition(Map<String, String> partition) {}

    @Override
    public void applyOverwrite(boolean overwrite) {}

    @Override
    public DynamicTableSink copy() {
        return new StandinSink(original, mode, metadata);
    }

    @Override
    public String asSummaryString() {
        return "flinkx-standin(" + original + ")";
    }
}
