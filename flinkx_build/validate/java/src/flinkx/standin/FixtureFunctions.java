package flinkx.standin;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;
import org.apache.flink.streaming.api.functions.source.RichSourceFunction;
import org.apache.flink.table.connector.RuntimeConverter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;
import org.apache.flink.table.types.DataType;
import org.apache.flink.types.Row;

/** The runtime side of {@code flinkx test}: serve fixture rows, answer lookups, collect sinks. */
public final class FixtureFunctions {
    private FixtureFunctions() {}

    /** The fixture rows as internal RowData of the produced type. */
    static List<RowData> internalRows(String rowsJson, List<String> names, DataType produced,
            org.apache.flink.table.connector.source.DynamicTableSource.DataStructureConverter converter,
            ClassLoader loader) {
        converter.open(RuntimeConverter.Context.create(loader));
        List<DataType> types = produced.getChildren();
        List<RowData> rows = new ArrayList<>();
        for (JsonNode row : FixtureValues.parse(rowsJson)) {
            rows.add((RowData) converter.toInternal(FixtureValues.toRow(row, names, types)));
        }
        return rows;
    }

    /**
     * Emits the rows in the order given, then ends: the source task then emits the final
     * watermark (Long.MAX_VALUE), so every event-time window fires, as at the end of real input.
     */
    public static final class Source extends RichSourceFunction<RowData> {
        private static final long serialVersionUID = 1L;
        private final String rowsJson;
        private final List<String> names;
        private final DataType produced;
        private final org.apache.flink.table.connector.source.DynamicTableSource.DataStructureConverter converter;
        private volatile boolean running = true;

        Source(String rowsJson, List<String> names, DataType produced,
                org.apache.flink.table.connector.source.DynamicTableSource.DataStructureConverter converter) {
            this.rowsJson = rowsJson;
            this.names = names;
            this.produced = produced;
            this.converter = converter;
        }

        @Override
        public void run(SourceContext<RowData> ctx) {
            ClassLoader loader = getRuntimeContext().getUserCodeClassLoader();
            for (RowData row : internalRows(rowsJson, names, produced, converter, loader)) {
                if (!running) {
                    return;
                }
                synchronized (ctx.getCheckpointLock()) {
                    ctx.collect(row);
                }
            }
        }

        @Override
        public void cancel() {
            running = false;
        }
    }

    /** Finds the fixture rows whose lookup key fields equal the probe's key. */
    public static final class Lookup extends LookupFunction {
        private static final long serialVersionUID = 1L;
        private final String rowsJson;
        private final List<String> names;
        private final DataType produced;
        private final org.apache.flink.table.connector.source.DynamicTableSource.DataStructureConverter converter;
        private final int[] keyFields;
        private transient List<RowData> rows;
        private transient RowData.FieldGetter[] getters;
        private transient RowData.FieldGetter[] keyGetters;

        Lookup(String rowsJson, List<String> names, DataType produced,
                org.apache.flink.table.connector.source.DynamicTableSource.DataStructureConverter converter,
                int[] keyFields) {
            this.rowsJson = rowsJson;
            this.names = names;
            this.produced = produced;
            this.converter = converter;
            this.keyFields = keyFields;
        }

        @Override
        public void open(FunctionContext context) throws Exception {
            rows = internalRows(rowsJson, names, produced, converter,
                    Thread.currentThread().getContextClassLoader());
            List<DataType> types = produced.getChildren();
            getters = new RowData.FieldGetter[keyFields.length];
            keyGetters = new RowData.FieldGetter[keyFields.length];
            for (int i = 0; i < keyFields.length; i++) {
                getters[i] = RowData.createFieldGetter(types.get(keyFields[i]).getLogicalType(), keyFields[i]);
                keyGetters[i] = RowData.createFieldGetter(types.get(keyFields[i]).getLogicalType(), i);
            }
        }

        @Override
        public java.util.Collection<RowData> lookup(RowData keyRow) {
            List<RowData> found = new ArrayList<>();
            for (RowData row : rows) {
                boolean match = true;
                for (int i = 0; i < keyFields.length && match; i++) {
                    Object value = getters[i].getFieldOrNull(row);
                    // SQL equality: a NULL key finds nothing
                    match = value != null && value.equals(keyGetters[i].getFieldOrNull(keyRow));
                }
                if (match) {
                    found.add(row);
                }
            }
            return found;
        }
    }

    /** Records every change it receives (kind and values) under its collect id. */
    public static final class Sink extends RichSinkFunction<RowData> {
        private static final long serialVersionUID = 1L;
        private final String id;
        private final List<String> names;
        private final List<DataType> types;
        private final org.apache.flink.table.connector.sink.DynamicTableSink.DataStructureConverter converter;

        Sink(String id, List<String> names, DataType consumed,
                org.apache.flink.table.connector.sink.DynamicTableSink.DataStructureConverter converter) {
            this.id = id;
            this.names = names;
            this.types = new ArrayList<>(consumed.getChildren());
            this.converter = converter;
        }

        @Override
        public void open(Configuration parameters) {
            converter.open(RuntimeConverter.Context.create(getRuntimeContext().getUserCodeClassLoader()));
        }

        @Override
        public void invoke(RowData value, Context context) {
            Collected.add(id, FixtureValues.fromRow((Row) converter.toExternal(value), names, types));
        }
    }
}
