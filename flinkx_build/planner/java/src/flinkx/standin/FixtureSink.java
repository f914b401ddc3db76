package flinkx.standin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsOverwrite;
import org.apache.flink.table.connector.sink.abilities.SupportsPartitioning;
import org.apache.flink.table.connector.sink.abilities.SupportsWritingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;

/**
 * A sink with the changelog mode of the connector it stands in for, recording every change it receives (kind
 * and values, {@link FixtureValues#fromRow}) under its collect id ({@link Collected}).
 */
public final class FixtureSink implements DynamicTableSink, SupportsWritingMetadata, SupportsPartitioning, SupportsOverwrite {

    private final String original;
    private final ChangelogMode mode;
    private final Map<String, DataType> metadata;
    private final Fixture fixture;
    private List<String> metadataKeys = new ArrayList<>();
    private DataType consumed; // null until metadata is applied: the physical row then

    FixtureSink(String original, ChangelogMode mode, Map<String, DataType> metadata, Fixture fixture) {
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
        if (fixture.collectId == null) {
            return SinkV2Provider.of(RowSink.discarding());
        }
        DataType type = consumed != null ? consumed : fixture.physicalType;
        return SinkV2Provider.of(new Collecting(fixture.collectId, fixture.names(metadataKeys), type,
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
        FixtureSink copy = new FixtureSink(original, mode, metadata, fixture);
        copy.metadataKeys = new ArrayList<>(metadataKeys);
        copy.consumed = consumed;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "flinkx-standin(" + original + ")"; // Flink's messages name the real connector
    }

    /** Sink V2 that records each change ({@link RowSink}: the writer's factory method on the target's API). */
    public static final class Collecting extends RowSink {
        private static final long serialVersionUID = 1L;
        private final String id;
        private final List<String> names;
        private final List<DataType> types;
        private final DataStructureConverter converter;

        Collecting(String id, List<String> names, DataType consumed, DataStructureConverter converter) {
            this.id = id;
            this.names = new ArrayList<>(names);
            this.types = new ArrayList<>(consumed.getChildren());
            this.converter = converter;
        }

        @Override
        SinkWriter<RowData> writer() {
            converter.open(RuntimeConverter.Context.create(Collecting.class.getClassLoader()));
            return new SinkWriter<RowData>() {
                @Override
                public void write(RowData value, Context writeContext) {
                    Collected.add(id, FixtureValues.fromRow((Row) converter.toExternal(value), names, types));
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }
}
