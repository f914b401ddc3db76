package flinkx.planner;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.delegation.Parser;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.operations.Operation;

import flinkx.standin.FixtureConnector;
import flinkx.standin.StandinTypes;

/**
 * Plans one task for validate and lint: a syntax pass over every statement with
 * Flink's own parser, then statements in order in a fresh TableEnvironment (DDL with the stand-in
 * connector, functions as stand-ins of their declared type, queries and INSERTs EXPLAINed, statement
 * sets planned together). Nothing runs a job: what to do is decided on the parsed node's class.
 * Findings carry Flink's exception chain; the Python side trims messages and maps positions.
 */
final class ScriptPlanner {
    private static final Set<String> QUERY_KINDS = new HashSet<>(Arrays.asList(
            "SELECT", "UNION", "INTERSECT", "EXCEPT", "MINUS", "VALUES", "WITH", "ORDER_BY", "EXPLICIT_TABLE"));
    private static final Set<String> INSERTS = new HashSet<>(Arrays.asList("RichSqlInsert", "SqlInsert"));
    private static final Set<String> CREATE_TABLE = new HashSet<>(Arrays.asList("SqlCreateTable", "SqlCreateTableLike"));
    private static final Set<String> CTAS = new HashSet<>(Arrays.asList("SqlCreateTableAs", "SqlReplaceTableAs"));
    private static final String[] DDL_PREFIXES = {"SqlCreate", "SqlDrop", "SqlAlter", "SqlUse"};
    // start jobs, need services the driver does not have, or load code (FX195 refuses them first)
    private static final Set<String> NOT_EXECUTED = new HashSet<>(Arrays.asList(
            "SqlAlterTableCompact", "SqlCreateMaterializedTable", "SqlCreateCatalog", "SqlAlterCatalog",
            "SqlCreateModel", "SqlAlterModel", "SqlUseModules"));

    final Policy policy; // DeployClient applies the same allow-lists
    private final Object calcite;
    private final Object extended;

    ScriptPlanner(Policy policy) throws Exception {
        this.policy = policy;
        TableEnvironment tenv = newTenv("stream");
        Parser parser = ((TableEnvironmentInternal) tenv).getParser();
        this.calcite = StatementGuard.calciteParser(tenv);
        // Flink's ParserImpl tries this parser first: SET key = value, RESET, HELP, ...
        Field extendedField = parser.getClass().getDeclaredField("EXTENDED_PARSER");
        extendedField.setAccessible(true);
        this.extended = extendedField.get(null);
    }

    static TableEnvironment newTenv(String mode) {
        EnvironmentSettings.Builder builder = EnvironmentSettings.newInstance();
        return TableEnvironment.create(
                ("batch".equals(mode) ? builder.inBatchMode() : builder.inStreamingMode()).build());
    }

    /**
     * Planning here only EXPLAINs: the generated code is never compiled, so Flink's splitting of it into methods a
     * JIT accepts (JavaCodeSplitter parses every generated class with an ANTLR Java grammar) is skipped by a
     * threshold no class reaches. Measured: the splitter was 52% of the driver's CPU over 210 tasks of the
     * benchmark's workspace (JFR). 1.20 and 2.3 skip a class no longer than the threshold, 1.15 always splits (each
     * target's JavaCodeSplitter read with javap). A task's own SET of the option still wins. Decision and verdict
     * check: docs/decisions.md, "The planner skips code splitting".
     */
    static void explainOnly(TableEnvironment tenv) {
        tenv.getConfig().getConfiguration().setString("table.generated-code.max-length",
                String.valueOf(Integer.MAX_VALUE));
    }

    private Object parse(String sql) throws Exception {
        Optional<?> operation = (Optional<?>) Reflect.call(extended, "parse", sql);
        return operation.isPresent() ? operation.get() : Reflect.call(calcite, "parse", sql);
    }

    /** One script: {"statements": [{"sql", "skip"}], "udfs": [...], "mode"} -> findings. */
    ArrayNode plan(JsonNode request) {
        State state = new State(request);
        List<Object> nodes = new ArrayList<>();
        boolean syntaxFailed = false;
        for (int i = 0; i < state.sql.size(); i++) {
            if (state.sql.get(i) == null) {
                nodes.add(null);
                continue;
            }
            try {
                Object node = parse(state.sql.get(i));
                String refused = StatementGuard.refusal(node);
                if (refused != null) { // never handed to the engine (FX197 refuses it first)
                    state.note(i, refused);
                    node = null;
                }
                nodes.add(node);
            } catch (Throwable e) {
                nodes.add(null);
                state.report(i, "syntax", e);
                syntaxFailed = true;
            }
        }
        if (syntaxFailed) {
            return state.findings;
        }
        state.tenv = (TableEnvironmentInternal) newTenv(request.path("mode").asText("stream"));
        explainOnly(state.tenv);
        for (int i = 0; i < nodes.size(); i++) {
            if (nodes.get(i) == null) {
                continue;
            }
            try {
                semantic(state, i, nodes.get(i));
            } catch (Throwable e) {
                state.report(i, "semantic", e);
            }
            try {
                StatementGuard.reapply(state.tenv, policy::swap, FixtureConnector.IDENTIFIER);
            } catch (Throwable e) {
                state.report(i, "semantic", e);
            }
        }
        if (state.statementSet != null) {
            state.note(state.setBegin, "BEGIN STATEMENT SET has no matching END");
            planStatementSet(state);
        }
        return state.findings;
    }

    private void semantic(State state, int index, Object node) throws Exception {
        String name = node.getClass().getSimpleName();
        Configuration config = state.tenv.getConfig().getConfiguration();
        if (name.equals("SqlSet") || name.equals("SetOperation")) {
            String key = setKey(node, name);
            String value = name.equals("SqlSet")
                    ? (Reflect.call(node, "getKey") != null ? String.valueOf(Reflect.call(node, "getValueString")) : null)
                    : optional(Reflect.call(node, "getValue"));
            if (!key.isEmpty() && !policy.setAllowed(key, value)) {
                return; // FX196 refuses it before planning; never handed to the engine
            }
            if (!key.isEmpty() && value != null) {
                config.set(ConfigOptions.key(key).stringType().noDefaultValue(), value);
                state.configKeys.add(key);
            }
        } else if (name.equals("SqlReset") || name.equals("ResetOperation")) {
            String key = name.equals("SqlReset")
                    ? (Reflect.call(node, "getKey") != null ? String.valueOf(Reflect.call(node, "getKeyString")) : null)
                    : optional(Reflect.call(node, "getKey"));
            for (String reset : key != null ? Arrays.asList(key) : new ArrayList<>(state.configKeys)) {
                config.removeConfig(ConfigOptions.key(reset).stringType().noDefaultValue()); // removeKey: 1.16+
            }
        } else if (name.equals("SqlBeginStatementSet")) {
            if (state.statementSet != null) {
                planStatementSet(state);
            }
            state.statementSet = new ArrayList<>();
            state.setBegin = index;
        } else if (name.equals("SqlEndStatementSet")) {
            if (state.statementSet == null) {
                state.note(index, "END without BEGIN STATEMENT SET");
            } else {
                planStatementSet(state);
            }
        } else if (name.endsWith("Operation")) {
            // HELP, QUIT, CLEAR from the extended parser: nothing to plan
        } else if (state.statementSet != null && INSERTS.contains(name)) {
            state.statementSet.add(index);
        } else if (state.statementSet != null && CTAS.contains(name)) {
            createTableAs(state, index);
        } else if (state.statementSet != null) {
            state.note(index, "Only INSERT statements are allowed in a statement set; use END to close the statement set");
            outsideSet(state, index, node, name);
        } else {
            outsideSet(state, index, node, name);
        }
    }

    private static String setKey(Object node, String name) throws Exception {
        if (name.equals("SqlSet")) {
            return Reflect.call(node, "getKey") != null ? String.valueOf(Reflect.call(node, "getKeyString")) : "";
        }
        String key = optional(Reflect.call(node, "getKey"));
        return key == null ? "" : key;
    }

    private static String optional(Object value) {
        Optional<?> optional = (Optional<?>) value;
        return optional.isPresent() ? String.valueOf(optional.get()) : null;
    }

    private void outsideSet(State state, int index, Object node, String name) throws Exception {
        String sql = state.sql.get(index);
        String kind = String.valueOf(Reflect.call(node, "getKind"));
        if (INSERTS.contains(name) || name.equals("SqlExecute") || QUERY_KINDS.contains(kind)) {
            state.tenv.explainSql(sql);
        } else if (CREATE_TABLE.contains(name)) {
            Operation operation = state.tenv.getParser().parse(sql).get(0);
            state.tenv.executeInternal(standinCreate(operation));
        } else if (CTAS.contains(name)) {
            createTableAs(state, index);
        } else if (name.equals("SqlCreateFunction")) {
            createFunction(state, index, node);
        } else if (name.equals("SqlCreateCatalog")) {
            Operation operation = state.tenv.getParser().parse(sql).get(0);
            if (safeCatalog(operation)) {
                state.tenv.executeInternal(operation);
            }
        } else if (startsWithAny(name, DDL_PREFIXES) && !NOT_EXECUTED.contains(name)) {
            state.tenv.executeSql(sql);
        } else if (name.equals("SqlRichExplain")) {
            state.tenv.executeSql(sql); // EXPLAIN only plans what it explains, it never runs a job
        }
        // SHOW, DESCRIBE, LOAD MODULE, ADD JAR, ...: nothing to plan (FX195 refuses code loading)
    }

    private static boolean startsWithAny(String name, String[] prefixes) {
        for (String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private boolean safeCatalog(Operation operation) throws Exception {
        if (!operation.getClass().getSimpleName().equals("CreateCatalogOperation")) {
            return false;
        }
        Map<?, ?> properties = (Map<?, ?>) Reflect.call(operation, "getProperties");
        Object type = properties.get("type");
        return type != null && policy.safeCatalogTypes.contains(type.toString());
    }

    /** CREATE TABLE with the connector swapped on the parsed operation (LIKE clauses and positions stay exact). */
    @SuppressWarnings("unchecked")
    private Operation standinCreate(Operation operation) throws Exception {
        Object table = Reflect.call(operation, "getCatalogTable");
        Map<String, String> options = (Map<String, String>) Reflect.call(table, "getOptions");
        Object swapped = Reflect.call(table, "copy", policy.swap(options));
        return (Operation) Reflect.construct(operation.getClass(), Reflect.call(operation, "getTableIdentifier"), swapped,
                Reflect.call(operation, "isIgnoreIfExists"), Reflect.call(operation, "isTemporary"));
    }

    /** CTAS: the target made with the stand-in, then the INSERT part planned (executing it would run a job). */
    private void createTableAs(State state, int index) throws Exception {
        Operation operation = state.tenv.getParser().parse(state.sql.get(index)).get(0);
        state.tenv.executeInternal(standinCreate((Operation) Reflect.call(operation, "getCreateTableOperation")));
        Object sink = Reflect.call(operation, "toSinkModifyOperation", state.tenv.getCatalogManager());
        List<Object> operations = new ArrayList<>();
        operations.add(sink);
        state.tenv.explainInternal((List) operations);
    }

    private void createFunction(State state, int index, Object node) throws Exception {
        String[] identifier;
        try {
            identifier = (String[]) Reflect.call(node, "getFunctionIdentifier"); // 1.x
        } catch (NoSuchMethodException e) {
            identifier = (String[]) Reflect.call(node, "getFullName"); // 2.x: SqlCreateObject
        }
        String name = identifier[identifier.length - 1];
        JsonNode udf = null;
        for (JsonNode candidate : state.request.path("udfs")) {
            String[] parts = candidate.path("name").asText().split("\\.");
            if (parts[parts.length - 1].equalsIgnoreCase(name)) {
                udf = candidate;
                break;
            }
        }
        String kind = udf == null ? "" : udf.path("kind").asText("scalar");
        if (udf == null) {
            state.udfNote(index, name, "function '" + name + "' is created from " + Reflect.call(node, "getFunctionClassName")
                    + " but its return type is not declared, so it cannot be validated", null);
            return;
        }
        if (!kind.equals("scalar") && !kind.equals("table") && !kind.equals("aggregate")) {
            state.udfNote(index, name, "function '" + name + "' has unknown kind '" + kind
                    + "' (expected one of: scalar, table, aggregate)", null);
            return;
        }
        String returns = udf.path("returns").asText();
        try {
            state.tenv.getCatalogManager().getDataTypeFactory().createDataType(returns);
        } catch (Throwable e) {
            state.udfNote(index, name, "function '" + name + "': declared return type '" + returns + "' is not a Flink type: ", e);
            return;
        }
        UserDefinedFunction instance = StandinTypes.function(kind, name, returns, StandinTypes.declaredParams(udf), null);
        if ((Boolean) Reflect.call(node, "isIfNotExists")) {
            for (String existing : state.tenv.listUserDefinedFunctions()) {
                if (existing.equalsIgnoreCase(name)) {
                    return;
                }
            }
        }
        if ((Boolean) Reflect.call(node, "isSystemFunction")) {
            state.tenv.createTemporarySystemFunction(name, instance);
        } else {
            StringBuilder path = new StringBuilder();
            for (String part : identifier) {
                path.append(path.length() > 0 ? "." : "").append('`').append(part).append('`');
            }
            state.tenv.createTemporaryFunction(path.toString(), instance);
        }
    }

    private void planStatementSet(State state) {
        List<Integer> indexes = state.statementSet == null ? new ArrayList<>() : state.statementSet;
        state.statementSet = null;
        StatementSet set = state.tenv.createStatementSet();
        List<Integer> added = new ArrayList<>();
        for (int index : indexes) {
            try {
                set.addInsertSql(state.sql.get(index));
                added.add(index);
            } catch (Throwable e) {
                state.report(index, "semantic", e);
            }
        }
        if (added.isEmpty()) {
            return;
        }
        Throwable setError;
        try {
            set.explain();
            return;
        } catch (Throwable e) {
            setError = e;
        }
        // the set as a whole failed: plan each INSERT alone to find the one(s) to blame
        boolean blamed = false;
        for (int index : added) {
            try {
                state.tenv.explainSql(state.sql.get(index));
            } catch (Throwable e) {
                state.report(index, "semantic", e);
                blamed = true;
            }
        }
        if (!blamed) {
            state.report(state.setBegin >= 0 ? state.setBegin : added.get(0), "semantic", setError);
        }
    }

    /** One script's planning state and findings. */
    private static final class State {
        final JsonNode request;
        final List<String> sql = new ArrayList<>(); // null: nothing but comments
        final ArrayNode findings = JsonNodeFactory.instance.arrayNode();
        final Set<String> configKeys = new LinkedHashSet<>();
        TableEnvironmentInternal tenv;
        List<Integer> statementSet;
        int setBegin = -1;

        State(JsonNode request) {
            this.request = request;
            for (JsonNode statement : request.path("statements")) {
                sql.add(statement.path("skip").asBoolean(false) ? null : statement.path("sql").asText());
            }
        }

        void report(int index, String phase, Throwable error) {
            ObjectNode finding = findings.addObject();
            finding.put("index", index);
            finding.put("phase", phase);
            ArrayNode messages = finding.putArray("messages");
            Throwable current = error;
            for (int seen = 0; current != null && seen < 10; seen++) {
                messages.add(current.getMessage() != null ? current.getMessage() : current.toString());
                Throwable cause = current.getCause();
                current = cause == current ? null : cause;
            }
            finding.put("exception", error.getClass().getName());
        }

        void note(int index, String message) {
            ObjectNode finding = findings.addObject();
            finding.put("index", index);
            finding.put("phase", "semantic");
            finding.put("note", message);
        }

        void udfNote(int index, String udf, String message, Throwable error) {
            if (error != null) {
                report(index, "semantic", error);
                ObjectNode finding = (ObjectNode) findings.get(findings.size() - 1);
                finding.put("prefix", message);
                finding.put("udf", udf.toLowerCase(Locale.ROOT));
            } else {
                note(index, message);
                ((ObjectNode) findings.get(findings.size() - 1)).put("udf", udf.toLowerCase(Locale.ROOT));
            }
        }
    }
}
