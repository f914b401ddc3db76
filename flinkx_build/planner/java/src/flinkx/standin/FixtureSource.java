package flinkx.standin;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsReadingMetadata;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.types.DataType;

/**
 * Scan and lookup source at once (a table may be read as a stream and joined FOR SYSTEM_TIME AS OF): serves the
 * test's rows in order as a bounded Source V2 ({@link FixtureRows}), and answers lookups from the same rows.
 */
public class FixtureSource implements ScanTableSource, LookupTableSource, SupportsReadingMetadata {

    final String original;
    final ChangelogMode mode;
    final Map<String, DataType> metadata;
    final Fixture fixture;
    List<String> metadataKeys = new ArrayList<>();
    DataType produced; // null until metadata is applied: the physical row then

    FixtureSource(String original, ChangelogMode mode, Map<String, DataType> metadata, Fixture fixture) {
        this.original = original;
        this.mode = mode;
        this.metadata = metadata;
        this.fixture = fixture;
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return mode;
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        DataType type = producedType();
        return SourceProvider.of(new FixtureRows(new FixtureRows.Split(
                fixture.rowsJson, fixture.names(metadataKeys), type, context.createDataStructureConverter(type), 0)));
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        DataType type = producedType();
        return KeyLookup.provider(new Lookup(new FixtureRows.Split(
                fixture.rowsJson, fixture.names(metadataKeys), type, context.createDataStructureConverter(type), 0),
                keyFields(context)));
    }

    static int[] keyFields(LookupContext context) {
        int[][] keys = context.getKeys();
        int[] keyFields = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            if (keys[i].length != 1) {
                throw new UnsupportedOperationException("flinkx test: lookup on a nested field");
            }
            keyFields[i] = keys[i][0];
        }
        return keyFields;
    }

    DataType producedType() {
        return produced != null ? produced : fixture.physicalType;
    }

    @Override
    public Map<String, DataType> listReadableMetadata() {
        return metadata;
    }

    @Override
    public void applyReadableMetadata(List<String> metadataKeys, DataType producedDataType) {
        // the produced row is the physical columns, then these keys' values
        this.metadataKeys = new ArrayList<>(metadataKeys);
        this.produced = producedDataType;
    }

    @Override
    public DynamicTableSource copy() {
        FixtureSource copy = new FixtureSource(original, mode, metadata, fixture);
        copy.metadataKeys = new ArrayList<>(metadataKeys);
        copy.produced = produced;
        return copy;
    }

    @Override
    public String asSummaryString() {
        return "flinkx-standin(" + original + ")"; // Flink's messages name the real connector
    }

    /** The fixture rows whose lookup key fields equal the probe's key (SQL equality: a NULL key finds nothing). */
    public static class Lookup extends KeyLookup {
        private static final long serialVersionUID = 1L;
        final FixtureRows.Split rowsOf;
        private final int[] keyFields;
        private transient List<RowData> rows;
        private transient RowData.FieldGetter[] getters;
        private transient RowData.FieldGetter[] keyGetters;

        Lookup(FixtureRows.Split rowsOf, int[] keyFields) {
            this.rowsOf = rowsOf;
            this.keyFields = keyFields;
        }

        @Override
        public void open(FunctionContext context) throws Exception {
            rows = rowsOf.rows();
            List<DataType> types = rowsOf.produced.getChildren();
            getters = new RowData.FieldGetter[keyFields.length];
            keyGetters = new RowData.FieldGetter[keyFields.length];
            for (int i = 0; i < keyFields.length; i++) {
                getters[i] = RowData.createFieldGetter(types.get(keyFields[i]).getLogicalType(), keyFields[i]);
                keyGetters[i] = RowData.createFieldGetter(types.get(keyFields[i]).getLogicalType(), i);
            }
        }

        /** The rows a lookup searches now. */
        List<RowData> rows() {
            return rows;
        }

        @Override
        public Collection<RowData> lookup(RowData keyRow) {
            List<RowData> found = new ArrayList<>();
            for (RowData row : rows()) {
                boolean match = true;
                for (int i = 0; i < keyFields.length && match; i++) {
                    Object value = getters[i].getFieldOrNull(row);
                    match = value != null && value.equals(keyGetters[i].getFieldOrNull(keyRow));
                }
                if (match) {
                    found.add(row);
                }
            }
            return found;
        }
    }
}
