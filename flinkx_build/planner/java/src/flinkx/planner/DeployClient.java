package flinkx.planner;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.api.CompiledPlan;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.PlanReference;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.operations.Operation;

import flinkx.standin.FixtureConnector;
import flinkx.standin.StandinTypes;

/**
 * flinkx deploy's Flink client on the driver's Flink (issue 29 item 5; flinkx_build/deploy/client.py), as two
 * requests.
 *
 * <pre>
 *   {"id", "deploy": "compile_plan", "statements": [{"kind", "sql"}], "udfs": [...], "operations": {...},
 *    "operator_ids": true|false}
 *     -> {"id", "plan": "COMPILE PLAN JSON", "connectors": {table: connector it stands in for},
 *         "operators": [{"node", "name", "id", "inputs"}] (with operator_ids: JobShape)}
 *   {"id", "deploy": "submit", "steps": [{"set": [k, v]} | {"execute": sql} | {"insert": sql}],
 *    "options": {...}, "job_parameters": {...}, "remove_keys": [...], "plan": json?, "pins": {key: id}?}
 *     -> {"id", "job_id": "..."}
 *   {"id", "deploy": "compile_job", "steps", "options", ...}: what submit would run, with the real connectors
 *     -> {"id", "plan": "COMPILE PLAN JSON", "operators": [...]}
 *   {"id", "deploy": "trial", "steps", "options", "plan", "pins", "savepoint", "timeout_ms"}: RestoreTrial
 *     (or "standins": true with compile_plan's fields: the job planned on flinkx's stand-ins)
 *   {"id", "deploy": "snapshot", compile_plan's fields, "folder"} -> {"savepoint": path}: RestoreTrial.snapshot
 * </pre>
 * Either may answer {"not_planned": why, ...} (flinkx's reason, worded on the Python side) or {"messages": [...]}
 * (Flink's exception chain). compile_plan plans with flinkx's stand-ins as flinkx_build/deploy/planning.py does,
 * on the parsed operation's class; which classes are skipped, executed or refused comes with the request
 * ("operations": planning.py's lists), so those facts stay in one place. submit runs the merged, reviewed SQL
 * with the job's real connectors (the operator's jars are on this JVM's class path) on the cluster named by
 * "options" (execution.target remote, rest address and port, savepoint path, pipeline name).
 */
final class DeployClient {
    private DeployClient() {}

    /** A statement flinkx does not plan: the answer says which and why, the Python side words it. */
    private static final class NotPlanned extends Exception {
        final ObjectNode detail;

        NotPlanned(ObjectNode detail) {
            super(detail.toString());
            this.detail = detail;
        }
    }

    static void answer(Policy policy, JsonNode request, ObjectNode answer) {
        String action = request.path("deploy").asText();
        try {
            if (action.equals("compile_plan")) {
                TableEnvironmentInternal tenv = planningEnvironment();
                ObjectNode connectors = answer.putObject("connectors"); // table -> the connector it stands in for
                CompiledPlan plan = compilePlan(policy, request, tenv, connectors);
                answer.put("plan", plan.asJsonString());
                if (request.path("operator_ids").asBoolean(false)) { // the ids a submission of this SQL gets (JobShape)
                    answer.set("operators", JobShape.operators(JobShape.streamGraph(tenv, plan, null, "flinkx")));
                }
            } else if (action.equals("submit")) {
                answer.put("job_id", submit(request));
            } else if (action.equals("compile_job")) {
                compileJob(request, answer);
            } else if (action.equals("trial")) { // the restore trial, in this driver's MiniCluster
                RestoreTrial.run(policy, request, answer);
            } else if (action.equals("snapshot")) { // a savepoint of the job on stand-ins (upgrade-check)
                RestoreTrial.snapshot(policy, request, answer);
            } else {
                answer.put("error", "unknown deploy request '" + action + "'");
            }
        } catch (NotPlanned e) {
            answer.set("not_planned", e.detail);
        } catch (Throwable e) {
            ArrayNode messages = answer.putArray("messages");
            Throwable current = e;
            for (int seen = 0; current != null && seen < 12; seen++) {
                messages.add(current.getMessage() != null ? current.getMessage() : current.toString());
                Throwable cause = current.getCause();
                current = cause == current ? null : cause;
            }
        }
    }

    private static TableEnvironmentInternal tenv(Map<String, String> options, Map<String, String> jobParameters) {
        Configuration conf = new Configuration();
        options.forEach((key, value) -> conf.set(ConfigOptions.key(key).stringType().noDefaultValue(), value));
        if (!jobParameters.isEmpty()) {
            // the typed option, not its "k:v,k:v" string form: values hold commas and colons
            conf.set(PipelineOptions.GLOBAL_JOB_PARAMETERS, jobParameters);
        }
        EnvironmentSettings settings = EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(conf).build();
        return (TableEnvironmentInternal) TableEnvironment.create(settings);
    }

    private static Map<String, String> strings(JsonNode object) {
        Map<String, String> out = new HashMap<>();
        object.fields().forEachRemaining(entry -> out.put(entry.getKey(), entry.getValue().asText()));
        return out;
    }

    private static Set<String> texts(JsonNode array) {
        Set<String> out = new HashSet<>();
        array.forEach(item -> out.add(item.asText()));
        return out;
    }

    private static boolean startsWithAny(String name, Set<String> prefixes) {
        for (String prefix : prefixes) {
            if (name.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** StatementGuard's refusal of a statement that would take a table off the stand-in (FX197 refuses it first). */
    private static void guard(TableEnvironment tenv, String sql, int index) throws Exception {
        String refused = StatementGuard.refusal(tenv, sql);
        if (refused != null) {
            NotPlanned notPlanned = notPlanned("guard", index, "");
            notPlanned.detail.put("message", refused);
            throw notPlanned;
        }
    }

    private static NotPlanned notPlanned(String why, int index, String operation) {
        ObjectNode detail = new ObjectNode(org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory.instance);
        detail.put("why", why);
        detail.put("index", index);
        detail.put("operation", operation);
        return new NotPlanned(detail);
    }

    // --- compile_plan ------------------------------------------------------------------------

    static TableEnvironmentInternal planningEnvironment() {
        Map<String, String> options = new HashMap<>();
        options.put("parallelism.default", "1");
        return tenv(options, new HashMap<>());
    }

    static CompiledPlan compilePlan(Policy policy, JsonNode request, TableEnvironmentInternal tenv, ObjectNode connectors)
            throws Exception {
        JsonNode operations = request.path("operations");
        Set<String> skipped = texts(operations.path("skipped"));
        Set<String> catalogOnly = texts(operations.path("catalog_only"));
        Set<String> loadsCode = texts(operations.path("loads_code"));
        Set<String> functions = texts(operations.path("functions"));
        Configuration config = tenv.getConfig().getConfiguration();
        List<String> inserts = new ArrayList<>();
        int index = -1;
        for (JsonNode statement : request.path("statements")) {
            index++;
            String kind = statement.path("kind").asText();
            String sql = statement.path("sql").asText();
            if (kind.equals("insert")) {
                inserts.add(sql);
                continue;
            }
            if (kind.equals("select") || kind.equals("begin_statement_set") || kind.equals("end")) {
                continue; // a task is one job: every INSERT joins it
            }
            guard(tenv, sql, index);
            Operation operation = tenv.getParser().parse(sql).get(0);
            String name = operation.getClass().getSimpleName();
            if (name.equals("SetOperation")) {
                String key = optional(Reflect.call(operation, "getKey"));
                String value = optional(Reflect.call(operation, "getValue"));
                if (key != null && value != null) {
                    if (!policy.setAllowed(key, value)) {
                        NotPlanned refused = notPlanned("set", index, name);
                        refused.detail.put("key", key);
                        refused.detail.put("value", value);
                        throw refused;
                    }
                    config.set(ConfigOptions.key(key).stringType().noDefaultValue(), value);
                }
            } else if (name.equals("CreateTableOperation")) {
                Operation swapped = standinCreate(policy, operation);
                tenv.executeInternal(swapped);
                Object table = Reflect.call(Reflect.call(swapped, "getCatalogTable"), "getOptions");
                connectors.put(String.valueOf(Reflect.call(Reflect.call(operation, "getTableIdentifier"), "asSerializableString")),
                        String.valueOf(((Map<?, ?>) table).get(FixtureConnector.ORIGINAL)));
            } else if (functions.contains(name)) {
                standinFunction(tenv, operation, name, request.path("udfs"), index);
            } else if (startsWithAny(name, catalogOnly) || safeCatalog(policy, operation)) {
                tenv.executeInternal(operation);
            } else if (startsWithAny(name, loadsCode)) {
                throw notPlanned("loads_code", index, name);
            } else if (!startsWithAny(name, skipped)) {
                // CREATE TABLE ... AS SELECT and the like would run a job: never while planning
                throw notPlanned("other", index, name);
            }
        }
        if (inserts.isEmpty()) {
            throw notPlanned("no_insert", -1, "");
        }
        for (String insert : inserts) {
            guard(tenv, insert, -1);
        }
        StatementGuard.reapply(tenv, policy::swap, FixtureConnector.IDENTIFIER);
        config.set(ConfigOptions.key("parallelism.default").stringType().noDefaultValue(), "1");
        StatementSet set = tenv.createStatementSet();
        for (String insert : inserts) {
            set.addInsertSql(insert);
        }
        return set.compilePlan();
    }

    private static String optional(Object value) {
        Optional<?> optional = (Optional<?>) value;
        return optional.isPresent() ? String.valueOf(optional.get()) : null;
    }

    /** CREATE TABLE with the connector swapped on the parsed operation (as ScriptPlanner and validate/standin.py). */
    @SuppressWarnings("unchecked")
    private static Operation standinCreate(Policy policy, Operation operation) throws Exception {
        Object table = Reflect.call(operation, "getCatalogTable");
        Map<String, String> options = (Map<String, String>) Reflect.call(table, "getOptions");
        Object swapped = Reflect.call(table, "copy", policy.swap(options));
        return (Operation) Reflect.construct(operation.getClass(), Reflect.call(operation, "getTableIdentifier"), swapped,
                Reflect.call(operation, "isIgnoreIfExists"), Reflect.call(operation, "isTemporary"));
    }

    private static boolean safeCatalog(Policy policy, Operation operation) throws Exception {
        if (!operation.getClass().getSimpleName().equals("CreateCatalogOperation")) {
            return false;
        }
        Map<?, ?> properties = (Map<?, ?>) Reflect.call(operation, "getProperties");
        Object type = properties.get("type");
        return type != null && policy.safeCatalogTypes.contains(type.toString());
    }

    /** A created function as the stand-in of its declared kind and return type (standin.find_udf's rule). */
    private static void standinFunction(TableEnvironmentInternal tenv, Operation operation, String name, JsonNode udfs,
                                        int index) throws Exception {
        Object identifier = null;
        String functionName;
        if (name.equals("CreateTempSystemFunctionOperation")) {
            functionName = String.valueOf(Reflect.call(operation, "getFunctionName"));
        } else {
            identifier = Reflect.call(operation, "getFunctionIdentifier");
            functionName = String.valueOf(Reflect.call(identifier, "getObjectName"));
        }
        JsonNode udf = null;
        for (JsonNode candidate : udfs) {
            String[] parts = candidate.path("name").asText().split("\\.");
            if (parts[parts.length - 1].equalsIgnoreCase(functionName)) {
                udf = candidate;
                break;
            }
        }
        String kind = udf == null ? "" : udf.path("kind").asText("scalar");
        if (udf == null || !(kind.equals("scalar") || kind.equals("table") || kind.equals("aggregate"))) {
            NotPlanned refused = notPlanned("udf", index, name);
            refused.detail.put("function", functionName);
            throw refused;
        }
        String returns = udf.path("returns").asText();
        UserDefinedFunction instance = StandinTypes.function(kind, functionName, returns, StandinTypes.declaredParams(udf), null);
        if (identifier == null) {
            tenv.createTemporarySystemFunction(functionName, instance);
        } else {
            tenv.createTemporaryFunction(String.valueOf(Reflect.call(identifier, "asSerializableString")), instance);
        }
    }

    // --- submit ------------------------------------------------------------------------------

    /** A submission's environment: the task's SETs, its DDL with the real connectors, then flinkx's options. */
    static TableEnvironmentInternal submissionEnvironment(JsonNode request, List<String> inserts) throws Exception {
        Map<String, String> options = strings(request.path("options"));
        TableEnvironmentInternal tenv = tenv(options, strings(request.path("job_parameters")));
        Configuration config = tenv.getConfig().getConfiguration();
        for (JsonNode step : request.path("steps")) {
            if (step.has("set")) {
                config.set(ConfigOptions.key(step.get("set").get(0).asText()).stringType().noDefaultValue(),
                        step.get("set").get(1).asText());
            } else if (step.has("execute")) {
                tenv.executeSql(step.get("execute").asText());
            } else if (step.has("insert")) {
                inserts.add(step.get("insert").asText());
            }
        }
        if (inserts.isEmpty()) {
            throw notPlanned("no_insert", -1, "");
        }
        // flinkx's own settings win over the task's: the job's name is how deploy finds it again,
        // and where it goes and which jars it ships are the operator's (--cluster, --jar)
        options.forEach((key, value) -> config.set(ConfigOptions.key(key).stringType().noDefaultValue(), value));
        for (JsonNode key : request.path("remove_keys")) {
            config.removeConfig(ConfigOptions.key(key.asText()).stringType().noDefaultValue()); // removeKey: 1.16+
        }
        return tenv;
    }

    private static StatementSet statementSet(TableEnvironmentInternal tenv, List<String> inserts) {
        StatementSet set = tenv.createStatementSet();
        for (String insert : inserts) {
            set.addInsertSql(insert);
        }
        return set;
    }

    /**
     * Submits the job. With "plan" (a compiled plan of these statements, from compile_job) the job is built from
     * that plan, each operator named in "pins" restored from the given id (JobShape): the ids stay those of the
     * operators the savepoint was taken from. Without it, the statement set is executed as SQL.
     */
    private static String submit(JsonNode request) throws Exception {
        List<String> inserts = new ArrayList<>();
        TableEnvironmentInternal tenv = submissionEnvironment(request, inserts);
        if (request.hasNonNull("plan")) {
            CompiledPlan plan = tenv.loadPlan(PlanReference.fromJsonString(request.get("plan").asText()));
            String name = tenv.getConfig().getConfiguration().getString("pipeline.name", "flinkx");
            return JobShape.executor(tenv).executeAsync(JobShape.streamGraph(tenv, plan, request.path("pins"), name))
                    .getJobID().toString();
        }
        TableResult result = statementSet(tenv, inserts).execute();
        Optional<JobClient> client = result.getJobClient();
        if (!client.isPresent()) {
            throw new IllegalStateException("Flink returned no job client for the submission");
        }
        return client.get().getJobID().toString();
    }

    /** The job a submission of these statements would run, with the real connectors: its plan and operators. */
    private static void compileJob(JsonNode request, ObjectNode answer) throws Exception {
        List<String> inserts = new ArrayList<>();
        TableEnvironmentInternal tenv = submissionEnvironment(request, inserts);
        CompiledPlan plan = statementSet(tenv, inserts).compilePlan();
        answer.put("plan", plan.asJsonString());
        answer.set("operators", JobShape.operators(JobShape.streamGraph(tenv, plan, null, "flinkx")));
    }
}
