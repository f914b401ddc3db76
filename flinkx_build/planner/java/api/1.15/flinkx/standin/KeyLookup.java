package flinkx.standin;

import java.io.IOException;
import java.io.Serializable;
import java.util.Collection;

import org.apache.flink.table.connector.source.LookupTableSource.LookupRuntimeProvider;
import org.apache.flink.table.connector.source.TableFunctionProvider;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.TableFunction;

/**
 * A lookup from a key row to the rows it finds, on Flink 1.15's API (1.16 made this Flink's own LookupFunction:
 * api/1.19/). 1.15 runs a lookup as a table function whose {@code eval} gets the key fields, and it derives that
 * function's types from the table only when the function's class extends {@code TableFunction<RowData>}
 * directly: so the stand-in's lookups (which extend this class) are run through {@link Eval}, one such class.
 */
public abstract class KeyLookup implements Serializable {
    private static final long serialVersionUID = 1L;

    public void open(FunctionContext context) throws Exception {}

    public void close() throws Exception {}

    public abstract Collection<RowData> lookup(RowData keyRow) throws IOException;

    static LookupRuntimeProvider provider(KeyLookup lookup) {
        return TableFunctionProvider.of(new Eval(lookup));
    }

    /** The table function 1.15 calls: the key fields (internal values, in the lookup keys' order) in, rows out. */
    public static final class Eval extends TableFunction<RowData> {
        private static final long serialVersionUID = 1L;
        private final KeyLookup lookup;

        Eval(KeyLookup lookup) {
            this.lookup = lookup;
        }

        @Override
        public void open(FunctionContext context) throws Exception {
            lookup.open(context);
        }

        @Override
        public void close() throws Exception {
            lookup.close();
        }

        public void eval(Object... keys) throws IOException {
            for (RowData row : lookup.lookup(GenericRowData.of(keys))) {
                collect(row);
            }
        }
    }
}
