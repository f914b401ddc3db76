package flinkx.planner;

import java.util.List;
import java.util.Map;

import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.types.DataType;

/** A sink with the changelog mode of the connector it stands in for (append-only ones reject updates). */
public final class PlanningSink implements DynamicTableSink, SupportsWritingMetadata, SupportsPartitioning, SupportsOverwrite {

    private final String original;
    private final ChangelogMode mode;
    private final Map<String, DataType> metadata;

    PlanningSink(String original, ChangelogMode mode, Map<String, DataType> metadata) {
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
        return SinkV2Provider.of(new DiscardingSink<>());
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
        return new PlanningSink(original, mode, metadata);
    }

    @Override
    public String asSummaryString() {
        return "flinkx-standin(" + original + ")";
    }
}
