package flinkx.planner;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.types.DataType;

/** Scan and lookup source at once (a table may be read as a stream and joined FOR SYSTEM_TIME AS OF). */
public final class PlanningSource implements ScanTableSource, LookupTableSource, SupportsReadingMetadata {

    private final String original;
    private final ChangelogMode mode;
    private final boolean bounded;
    private final Map<String, DataType> metadata;
    private List<String> metadataKeys = new ArrayList<>();

    PlanningSource(String original, ChangelogMode mode, boolean bounded, Map<String, DataType> metadata) {
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
    @SuppressWarnings("unchecked")
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        // never runs: a Source V2 of no rows (the planner only needs the provider's shape)
        DataGeneratorSource<RowData> empty = new DataGeneratorSource<>(
                index -> null, 0L, (TypeInformation<RowData>) (TypeInformation<?>) TypeInformation.of(RowData.class));
        return SourceProvider.of(empty);
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
        this.metadataKeys = new ArrayList<>(metadataKeys);
    }

    @Override
    public DynamicTableSource copy() {
        PlanningSource copy = new PlanningSource(original, mode, bounded, metadata);
        copy.metadataKeys = new ArrayList<>(metadataKeys);
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "flinkx-standin(" + original + ")";
    }

    /** A lookup that never finds a row. */
    public static final class EmptyLookup extends LookupFunction {
        private static final long serialVersionUID = 1L;

        @Override
        public Collection<RowData> lookup(RowData keyRow) {
            return Collections.emptyList();
        }
    }
}
