package flinkx.suite;

import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.lookup.AsyncLookupFunctionProvider;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.functions.AsyncLookupFunction;
import org.apache.flink.table.functions.LookupFunction;

/**
 * A dimension table for the restore suite's lookup joins on a bare cluster (no built-in connector of Flink is a
 * lookup source): every key finds one row whose other columns are null. It offers a sync and an async lookup, so
 * the query's LOOKUP hint chooses (an async lookup's operator keeps its in-flight rows in state). Test code only:
 * shipped with the suite's jobs.
 */
public final class SuiteDimensionFactory implements DynamicTableSourceFactory {
    @Override
    public String factoryIdentifier() {
        return "suite-dim";
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
        int width = context.getCatalogTable().getResolvedSchema().getColumnCount();
        return new Dimension(width);
    }

    static final class Dimension implements LookupTableSource {
        private final int width;

        Dimension(int width) {
            this.width = width;
        }

        @Override
        public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
            return new Both(width);
        }

        @Override
        public DynamicTableSource copy() {
            return new Dimension(width);
        }

        @Override
        public String asSummaryString() {
            return "suite-dim";
        }
    }

    /** Sync and async at once: the planner takes the one the query asks for. */
    static final class Both implements LookupFunctionProvider, AsyncLookupFunctionProvider {
        private final int width;

        Both(int width) {
            this.width = width;
        }

        @Override
        public LookupFunction createLookupFunction() {
            return new Row(width);
        }

        @Override
        public AsyncLookupFunction createAsyncLookupFunction() {
            return new AsyncRow(width);
        }
    }

    static RowData row(RowData key, int width) {
        GenericRowData row = new GenericRowData(width);
        row.setField(0, key.isNullAt(0) ? null : key.getLong(0));
        return row;
    }

    public static final class Row extends LookupFunction {
        private static final long serialVersionUID = 1L;
        private final int width;

        Row(int width) {
            this.width = width;
        }

        @Override
        public Collection<RowData> lookup(RowData keyRow) {
            return Collections.singletonList(row(keyRow, width));
        }
    }

    public static final class AsyncRow extends AsyncLookupFunction {
        private static final long serialVersionUID = 1L;
        private final int width;

        AsyncRow(int width) {
            this.width = width;
        }

        @Override
        public CompletableFuture<Collection<RowData>> asyncLookup(RowData keyRow) {
            return CompletableFuture.completedFuture(Collections.singletonList(row(keyRow, width)));
        }
    }
}
