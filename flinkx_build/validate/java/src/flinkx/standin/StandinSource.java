package flinkx.standin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.flink.streaming.api.functions.source.SourceFunction;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceFunctionProvider;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.types.DataType;

/**
 * Scan source and lookup source at once, so a table can be read as a stream and also joined with
 * {@code FOR SYSTEM_TIME AS OF proctime} (planned as LookupJoin). For the validator it never
 * produces rows (it only plans queries); for {@code flinkx test} ({@link Fixture} set) it serves
 * the test's rows, bounded, and answers lookups from them.
 */
public final class StandinSource implements ScanTableSource, LookupTableSource, SupportsReadingMetadata {

    private final String original;
    private final ChangelogMode mode;
    private final boolean bounded;
    private final Map<String, DataType> metadata;
    private final Fixture fixture; // null while validating
    private List<String> metadataKeys = new ArrayList<>();
    private DataType produced; // null until metadata is applied: the physical row then

    StandinSource(String original, ChangelogMode mode, boolean bounded, Map<String, DataType> metadata,
            Fixture fixture) {
        this.original = original;
        this.mode = mode;
        this.bounded = bounded;
        this.metadata = metadata;
        this.fixture = fixture;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return mode;
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        if (fixture == null) {
            return SourceFunctionProvider.of(new EmptySource(), bounded);
        }
        DataType type = producedType();
        return SourceFunctionProvider.of(
                new FixtureFunctions.Source(fixture.rowsJson, fixture.names(metadataKeys), type,
                        context.createDataStructureConverter(type)),
                true);
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        if (fixture == null) {
            return LookupFunctionProvider.of(new EmptyLookup());
        }
        int[][] keys = context.getKeys();
        int[] keyFields = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].length != 1) {
                throw new UnsupportedOperationException("flinkx test: lookup on a nested field");
            }
            keyFields[i] = keys[i][0];
        }
        DataType type = producedType();
        return LookupFunctionProvider.of(
                new FixtureFunctions.Lookup(fixture.rowsJson, fixture.names(metadataKeys), type,
                        context.createDataStructureConverter(type), keyFields));
    }

    private DataType producedType() {
        return produced != null ? produced : fixture.physicalType;
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return metadata;
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        // the produced row is the physical columns, then these keys' values (only tests read it)
        this.metadataKeys = new ArrayList<>(metadataKeys);
        this.produced = producedDataType;
    }

    @Override
    public DynamicTableSource copy() {
        StandinSource copy = new StandinSource(original, mode, bounded, metadata, fixture);
        copy.metadataKeys = new ArrayList<>(metadataKeys);
        copy.produced = produced;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "flinkx-standin(" + original + ")";
    }

    /** A source that ends at once. */
    public static final class EmptySource implements SourceFunction<RowData> {
        private static final long serialVersionUID = 1L;

        @Override
        public void run(SourceContext<RowData> ctx) {}

        @Override
        public void cancel() {}
    }

    /** A lookup that never finds a row. */
    public static final class EmptyLookup extends LookupFunction {
        private static final long serialVersionUID = 1L;

        @Override
        public java.util.Collection<RowData> lookup(RowData keyRow) {
            return java.util.Collections.emptyList();
        }
    }
}
