package flinkx.planner;

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
 * The stand-in connector of the planner driver: plays every real connector while a task is planned,
 * with the changelog behaviour the Python side decided (flinkx_build/validate/standin.py, sent as the
 * driver's policy). It only plans: its runtime providers never run. Built only on APIs that Flink 1.20
 * and 2.x share (Source V2 and Sink V2), so one source compiles against every target.
 */
public final class PlanningTableFactory implements DynamicTableSourceFactory, DynamicTableSinkFactory {

    public static final String IDENTIFIER = "flinkx-standin";
    static final String ORIGINAL = "flinkx.original-connector";
    static final String SOURCE_CHANGELOG = "flinkx.source-changelog";
    static final String SINK_CHANGELOG = "flinkx.sink-changelog";

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
        boolean bounded = context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH;
        return new PlanningSource(options.getOrDefault(ORIGINAL, "unknown"),
                changelog(options.getOrDefault(SOURCE_CHANGELOG, "insert")), bounded, metadata(schema, true));
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
        return new PlanningSink(options.getOrDefault(ORIGINAL, "unknown"), changelog(mode), metadata(schema, false));
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
