package flinkx.standin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.types.DataType;

/**
 * Connector that stands in for every real connector while flinkx validates a script.
 *
 * <p>The validator rewrites {@code 'connector' = 'kafka'} to {@code 'connector' = 'flinkx-standin'}
 * and records the original in {@code flinkx.original-connector}. The changelog behaviour the real
 * connector would have is decided on the Python side and passed in {@code flinkx.source-changelog}
 * and {@code flinkx.sink-changelog} (insert | upsert | all), so the planner accepts and rejects the
 * same update streams it would with the real connector. No option is validated: real connectors
 * have options this stand-in cannot know about.
 */
public final class StandinTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    public static final String IDENTIFIER = "flinkx-standin";
    static final String ORIGINAL = "flinkx.original-connector";
    static final String SOURCE_CHANGELOG = "flinkx.source-changelog";
    static final String SINK_CHANGELOG = "flinkx.sink-changelog";
    // flinkx test only: the rows a source serves (JSON), the id a sink collects under
    static final String FIXTURE_ROWS = "flinkx.fixture-rows";
    static final String COLLECT_ID = "flinkx.collect-id";

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
        // A batch query refuses unbounded sources, so the source is bounded exactly in batch mode.
        boolean bounded =
                context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                        == RuntimeExecutionMode.BATCH;
        return new StandinSource(
                original(options),
                changelog(options.getOrDefault(SOURCE_CHANGELOG, "insert")),
                bounded,
                metadata(schema, true),
                fixture(options, schema));
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        Map<String, String> options = context.getCatalogTable().getOptions();
        ResolvedSchema schema = context.getCatalogTable().getResolvedSchema();
        String mode = options.getOrDefault(SINK_CHANGELOG, "all");
        // An upsert sink needs a key to upsert on; without one it takes the full changelog.
        if (mode.equals("upsert") && !schema.getPrimaryKey().isPresent()) {
            mode = "all";
        }
        return new StandinSink(original(options), changelog(mode), metadata(schema, false),
                fixture(options, schema));
    }

    /** What a test gives this table, or null outside {@code flinkx test}. */
    private static Fixture fixture(Map<String, String> options, ResolvedSchema schema) {
        if (!options.containsKey(FIXTURE_ROWS) && !options.containsKey(COLLECT_ID)) {
            return null;
        }
        return new Fixture(options.getOrDefault(FIXTURE_ROWS, "[]"), options.get(COLLECT_ID), schema);
    }

    private static String original(Map<String, String> options) {
        return options.getOrDefault(ORIGINAL, "unknown");
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

    /**
     * The metadata the table declares, as the stand-in's readable/writable metadata: real
     * connectors each have their own keys; the stand-in accepts whatever the DDL asks for.
     */
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
