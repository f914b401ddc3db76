package flinkx.planner;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.delegation.Parser;

/**
 * The driver's own refusals of what would take a table off its stand-in (issue 41), decided on Flink's parse of a
 * statement, so they hold even where flinkx's FX197 (flinkx_build/checks/reserved_options.py) is bypassed:
 * no statement may write an option of flinkx's own namespace (`flinkx.*`: which connector a table really has, its
 * changelog, a test's fixture rows and collector), and no OPTIONS hint may change a table's connector (it acts inside
 * its query). An ALTER TABLE that changes a connector is Flink SQL Flink accepts: after every statement every table is
 * put back on the stand-in ({@link #reapply}), or, in a test job, a table off it is refused ({@link #offStandin}).
 */
final class StatementGuard {
    static final String RESERVED_PREFIX = "flinkx.";
    private static final int MAX_DEPTH = 2000; // a parse tree is bounded by flinkx's token limits long before this

    private StatementGuard() {}

    /** Why `node` (a statement as the planner's parser gives it) may not be planned or run, or null. */
    static String refusal(Object node) {
        return walk(node, false, 0);
    }

    /** The same, for a statement's text, parsed with the environment's own SQL parser (Calcite's, as Flink's). */
    static String refusal(TableEnvironment tenv, String sql) throws Exception {
        Object node;
        try {
            node = Reflect.call(calciteParser(tenv), "parse", sql);
        } catch (Exception e) {
            return null; // not Calcite's statement (SET, RESET, ...), or a syntax error the real parse reports
        }
        return refusal(node);
    }

    /** The planner's Calcite parser behind an environment's parser (the planner loader's class, reached by name). */
    static Object calciteParser(TableEnvironment tenv) throws Exception {
        Parser parser = ((TableEnvironmentInternal) tenv).getParser();
        Field supplier = parser.getClass().getDeclaredField("calciteParserSupplier");
        supplier.setAccessible(true);
        return ((Supplier<?>) supplier.get(parser)).get();
    }

    /** The first table of the environment whose connector is not `standin`, or null (flinkx test's invariant). */
    static String offStandin(TableEnvironment tenv, String standin) throws Exception {
        for (Map.Entry<ObjectIdentifier, CatalogBaseTable> entry : temporaryTables(tenv).entrySet()) {
            CatalogBaseTable table = entry.getValue();
            if (table.getTableKind() == CatalogBaseTable.TableKind.TABLE && !standin.equals(table.getOptions().get("connector"))) {
                return entry.getKey().asSummaryString();
            }
        }
        return null;
    }

    private static String walk(Object node, boolean altering, int depth) {
        if (node == null || depth > MAX_DEPTH) {
            return null;
        }
        String name = node.getClass().getSimpleName();
        boolean alter = altering || name.startsWith("SqlAlterTable");
        String refused = null;
        if (name.equals("SqlHint")) {
            refused = keys(options(node), true); // a hint acts inside its query: the stand-in cannot be put back there
        } else if (name.equals("SqlTableOption")) {
            refused = key(String.valueOf(quietly(node, "getKeyString")), false);
        } else if (alter) {
            Object reset = quietly(node, "getResetKeys"); // ALTER TABLE t RESET ('k', ...)
            refused = reset instanceof Collection ? keys((Collection<?>) reset, false) : null;
        }
        if (refused != null) {
            return refused;
        }
        Object children = node instanceof Iterable ? node : quietly(node, "getOperandList");
        if (children instanceof Iterable) {
            for (Object child : (Iterable<?>) children) {
                String found = walk(child, alter, depth + 1);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static Collection<?> options(Object hint) {
        Object pairs = quietly(hint, "getOptionKVPairs");
        return pairs instanceof Map ? ((Map<?, ?>) pairs).keySet() : java.util.List.of();
    }

    private static String keys(Collection<?> keys, boolean connectorRefused) {
        for (Object key : keys) {
            String found = key(String.valueOf(key), connectorRefused);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static String key(String key, boolean connectorRefused) {
        String lowered = key.trim().toLowerCase(Locale.ROOT);
        if (lowered.startsWith(RESERVED_PREFIX)) {
            return "'" + key + "' is an option flinkx reserves for its stand-ins: a workspace may not write it";
        }
        if (connectorRefused && (lowered.equals("connector") || lowered.equals("connector.type"))) {
            return "an OPTIONS hint may not change a table's connector ('" + key + "')";
        }
        return null;
    }

    private static Object quietly(Object target, String method) {
        try {
            return Reflect.call(target, method);
        } catch (Exception e) {
            return null; // not a node of that kind, or not this Flink version's
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<ObjectIdentifier, CatalogBaseTable> temporaryTables(TableEnvironment tenv) throws Exception {
        CatalogManager catalogs = ((TableEnvironmentInternal) tenv).getCatalogManager();
        Field field = CatalogManager.class.getDeclaredField("temporaryTables"); // private, in 1.20 and 2.x alike
        field.setAccessible(true);
        return new LinkedHashMap<>((Map<ObjectIdentifier, CatalogBaseTable>) field.get(catalogs));
    }

    /**
     * Every table of the environment back on a stand-in: the invariant the refusals above keep, checked after every
     * statement so that a way around them that nobody thought of still plans (and runs) nothing but stand-ins.
     */
    static void reapply(TableEnvironment tenv, java.util.function.UnaryOperator<Map<String, String>> swap,
                        String standin) throws Exception {
        CatalogManager catalogs = ((TableEnvironmentInternal) tenv).getCatalogManager();
        for (Map.Entry<ObjectIdentifier, CatalogBaseTable> entry : temporaryTables(tenv).entrySet()) {
            CatalogBaseTable table = entry.getValue();
            if (table.getTableKind() == CatalogBaseTable.TableKind.TABLE && !standin.equals(table.getOptions().get("connector"))) {
                catalogs.dropTemporaryTable(entry.getKey(), true);
                catalogs.createTemporaryTable((CatalogBaseTable) Reflect.call(table, "copy", swap.apply(table.getOptions())),
                        entry.getKey(), false);
            }
        }
        for (String catalogName : catalogs.listCatalogs()) {
            org.apache.flink.table.catalog.Catalog catalog = catalogs.getCatalog(catalogName).orElse(null);
            if (catalog == null) {
                continue;
            }
            for (String database : catalog.listDatabases()) {
                for (String name : catalog.listTables(database)) {
                    org.apache.flink.table.catalog.ObjectPath path = new org.apache.flink.table.catalog.ObjectPath(database, name);
                    CatalogBaseTable table = catalog.getTable(path);
                    if (table.getTableKind() == CatalogBaseTable.TableKind.TABLE
                            && !standin.equals(table.getOptions().get("connector"))) {
                        catalog.alterTable(path, (CatalogBaseTable) Reflect.call(table, "copy", swap.apply(table.getOptions())), false);
                    }
                }
            }
        }
    }
}
