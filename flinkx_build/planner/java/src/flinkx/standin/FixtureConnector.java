package flinkx.standin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.DataType;

/**
 * flinkx's one stand-in connector: it plays every real connector while a task is planned (validate, lint,
 * deploy's plans) and while {@code flinkx test} runs it, with the changelog behaviour the Python side decided
 * (flinkx_build/validate/standin.py, sent as the driver's policy and applied by Policy.swap). Planning needs
 * only its shape; a test's run gets its rows: a source serves them ({@link FixtureRows}), a sink collects what
 * it receives ({@link Collected}) when the table has a collect id, and discards it otherwise.
 *
 * <p>Built only on Source V2 and Sink V2, which Flink 1.20 and 2.x share (2.0 removed SourceFunction and
 * SinkFunction), so one source compiles against every target.
 */
public final class FixtureConnector implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    public static final String IDENTIFIER = "flinkx-standin";
    public static final String SOURCE_CHANGELOG = "flinkx.source-changelog";
    public static final String SINK_CHANGELOG = "flinkx.sink-changelog";
    public static final String ORIGINAL = "flinkx.original-connector";
    public static final String FIXTURE_ROWS = "flinkx.fixture-rows";
    public static final String COLLECT_ID = "flinkx.collect-id";
    public static final String TIMELINE_ID = "flinkx.timeline-id"; // a case with a timeline (FixtureTimeline)
    public static final String TIMELINE_TABLE = "flinkx.timeline-table"; // the table as the timeline names it

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Collections.emptySet();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Collections.emptySet();
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        Map<String, String> options = context.getCatalogTable().getOptions();
        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        String original = options.getOrDefault(ORIGINAL, "unknown");
        ChangelogMode mode = changelog(options.getOrDefault(SOURCE_CHANGELOG, "insert"));
        if (options.containsKey(TIMELINE_ID)) {
            return new FixtureTimelineSource(original, mode, metadata(schema, true), fixture(options, schema),
                    options.get(TIMELINE_ID), options.get(TIMELINE_TABLE), primaryKey(schema));
        }
        return new FixtureSource(original, mode, metadata(schema, true), fixture(options, schema));
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        Map<String, String> options = context.getCatalogTable().getOptions();
        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        String mode = options.getOrDefault(SINK_CHANGELOG, "all");
        // an upsert sink needs a key to upsert on; without one it takes the full changelog
        if (mode.equals("upsert") && !schema.getPrimaryKey().isPresent()) {
            mode = "all";
        }
        return new FixtureSink(options.getOrDefault(ORIGINAL, "unknown"), changelog(mode), metadata(schema, false),
                fixture(options, schema));
    }

    private static Fixture fixture(Map<String, String> options, ResolvedSchema schema) {
        return new Fixture(options.getOrDefault(FIXTURE_ROWS, "[]"), options.get(COLLECT_ID), schema);
    }

    /** Positions of the primary key's columns among the physical columns (the produced row starts with them). */
    private static int[] primaryKey(ResolvedSchema schema) {
        List<String> physical = new ArrayList<>();
        for (Column column : schema.getColumns()) {
            if (column.isPhysical()) {
                physical.add(column.getName());
            }
        }
        List<String> key = schema.getPrimaryKey().map(k -> k.getColumns()).orElse(Collections.emptyList());
        return key.stream().mapToInt(physical::indexOf).filter(i -> i >= 0).toArray();
    }

    static ChangelogMode changelog(String mode) {
        switch (mode) {
            case "upsert":
                return ChangelogMode.upsert();
            case "all":
                return ChangelogMode.all();
            default:
                return ChangelogMode.insertOnly();
        }
    }

    /** The metadata the DDL declares: the stand-in accepts whatever keys the real connector has. */
    private static Map<String, DataType> metadata(ResolvedSchema schema, boolean includeVirtual) {
        Map<String, DataType> result = new LinkedHashMap<>();
        for (Column column : schema.getColumns()) {
            if (column instanceof Column.MetadataColumn) {
                Column.MetadataColumn meta = (Column.MetadataColumn) column;
                if (meta.isVirtual() && !includeVirtual) {
                    continue;
                }
                result.put(meta.getMetadataKey().orElse(meta.getName()), meta.getDataType());
            }
        }
        return result;
    }
}
