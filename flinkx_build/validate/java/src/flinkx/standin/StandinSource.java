package flinkx.standin;

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
 * {@code FOR SYSTEM_TIME AS OF proctime} (planned as LookupJoin). It never produces rows: the
 * validator only plans queries, it does not run them.
 */
public final class StandinSource implements ScanTableSource, LookupTableSource, SupportsReadingMetadata {

    private final String original;
    private final ChangelogMode mode;
    private final boolean bounded;
    private final Map<String, DataType> metadata;

    StandinSource(String original, ChangelogMode mode, boolean bounded, Map<String, DataType> metadata) {
        this.original = original;
        this.mode = mode;
        this.bounded = bounded;
        this.metadata = metadata;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return mode;
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        return SourceFunctionProvider.of(new EmptySource(), bounded);
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        return LookupFunctionProvider.of(new EmptyLookup());
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return metadata;
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        // nothing to do: no rows are ever produced
    }

    @Override
    public DynamicTableSource copy() {
        return new StandinSource(original, mode, bounded, metadata);
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
