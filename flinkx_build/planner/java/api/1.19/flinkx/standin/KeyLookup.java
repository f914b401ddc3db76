package flinkx.standin;

import org.apache.flink.table.connector.source.LookupTableSource.LookupRuntimeProvider;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.functions.LookupFunction;

/**
 * A lookup from a key row to the rows it finds, on the API of Flink 1.16 and later (FLIP-221's LookupFunction).
 * api/1.15/ has the same class on 1.15's API; the stand-in's lookups extend it and compile against either.
 */
public abstract class KeyLookup extends LookupFunction {
    private static final long serialVersionUID = 1L;

    static LookupRuntimeProvider provider(KeyLookup lookup) {
        return LookupFunctionProvider.of(lookup);
    }
}
