package flinkx.planner;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.operations.Operation;

import flinkx.standin.Collected;
import flinkx.standin.FixtureConnector;
import flinkx.standin.FixtureMetrics;
import flinkx.standin.FixtureStates;
import flinkx.standin.FixtureTimeline;
import flinkx.standin.StandinTypes;

/**
 * Runs one {@code flinkx test} case on the Flink whose jars are on the class path, as flinkx_build/testing/run.py
 * decides it: a fresh TableEnvironment, the task's statements in order with every table on the fixture
 * stand-in ({@link FixtureConnector}), the INSERTs as one job on a MiniCluster of this JVM, then the changes
 * each sink received. The Python side decides what each statement is and what a test may run; this applies it.
 *
 * <pre>
 *   {"test": {"mode", "prefix", "config": {k: v}, "timeout_ms",
 *             "steps": [{"set": [k, v]} | {"table": sql} | {"function": {name, kind, returns, calls}}
 *                       | {"other": sql} | {"insert": sql}],
 *             "tables": {name: rows-json}}}
 *   -> {"collected": {name: [{"kind", "values"}]}} | {"refused": text} | {"not_run": operation, "step": i}
 *      | {"timeout": true} | {"chain": [{"class", "message"}]}
 * </pre>
 * Nothing here loads a class, jar or catalog a task names: functions are stand-ins, a catalog only of a type the
 * policy calls safe, SETs only those the policy allows, and the job's address is flinkx's own MiniCluster.
 */
final class TestJob {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CTAS_REFUSED =
            "flinkx test does not run CREATE TABLE ... AS SELECT; write CREATE TABLE and INSERT";
    private static MiniCluster cluster;

    private TestJob() {}

    /** This JVM's MiniCluster (everything it opens bound to 127.0.0.1), started on first use; jobs reach it through
     *  {@link TestExecutor}. */
    static synchronized MiniCluster cluster() throws Exception {
        if (cluster == null) {
            Configuration config = new Configuration();
            // everything the cluster opens on loopback: REST, and the bind hosts the blob server (the JobManager's)
            // and the data exchange (the TaskManager's) take, which default to every interface
            for (String key : new String[] {"rest.address", "rest.bind-address", "jobmanager.bind-host",
                    "taskmanager.bind-host", "taskmanager.host"}) {
                put(config, key, "127.0.0.1");
            }
            put(config, "rest.port", "0");
            // per-operator late rows (numLateRecordsDropped) for the test's report
            put(config, "metrics.reporter.flinkx.factory.class", FixtureMetrics.class.getName());
            cluster = MiniClusters.start(config, 2);
        }
        return cluster;
    }

    private static void put(Configuration config, String key, String value) {
        config.set(ConfigOptions.key(key).stringType().noDefaultValue(), value);
    }

    private static Map<String, String> engineLocation() throws Exception {
        cluster();
        Map<String, String> where = new LinkedHashMap<>();
        where.put("execution.target", TestExecutor.NAME);
        return where;
    }

    static ObjectNode run(Policy policy, JsonNode test) {
        ObjectNode answer = NODES.objectNode();
        String prefix = test.path("prefix").asText("run:");
        List<String> collectIds = new ArrayList<>();
        FixtureTimeline timeline = test.has("timeline") ? FixtureTimeline.open(prefix, test.get("timeline")) : null;
        try {
            TableEnvironmentInternal tenv = newTenv(test);
            List<String> inserts = new ArrayList<>();
            int index = 0;
            for (JsonNode step : test.path("steps")) {
                String notRun = apply(policy, tenv, step, test.path("tables"), prefix, collectIds, inserts, timeline);
                if (notRun != null) {
                    answer.put("not_run", notRun);
                    answer.put("step", index);
                    return answer;
                }
                index++;
            }
            Configuration config = tenv.getConfig().getConfiguration();
            for (Map.Entry<String, String> entry : engineLocation().entrySet()) { // flinkx's own, after the task's
                put(config, entry.getKey(), entry.getValue());
            }
            if (timeline != null) {
                for (Map.Entry<String, String> entry : TestTimeline.SETTINGS.entrySet()) {
                    put(config, entry.getKey(), entry.getValue());
                }
            }
            if (!inserts.isEmpty() && !execute(tenv, inserts, test.path("timeout_ms").asLong(120_000), timeline,
                    collectIds, answer)) {
                answer.removeAll();
                answer.put("timeout", true);
                return answer;
            }
            ObjectNode collected = answer.putObject("collected");
            Iterator<Map.Entry<String, JsonNode>> tables = test.path("tables").fields();
            while (tables.hasNext()) {
                String name = tables.next().getKey();
                collected.set(name, JSON.readTree(Collected.take(prefix + name)));
            }
        } catch (Refused e) {
            answer.removeAll();
            answer.put("refused", e.getMessage());
        } catch (Throwable e) {
            answer.removeAll();
            answer.set("chain", chain(e));
        } finally {
            for (String id : collectIds) { // never leave a case's rows behind
                Collected.take(id);
            }
            if (timeline != null) {
                timeline.close();
            }
        }
        return answer;
    }

    private static TableEnvironmentInternal newTenv(JsonNode test) throws Exception {
        Configuration target = new Configuration();
        for (Map.Entry<String, String> entry : engineLocation().entrySet()) {
            put(target, entry.getKey(), entry.getValue());
        }
        EnvironmentSettings.Builder builder = EnvironmentSettings.newInstance().withConfiguration(target);
        builder = "batch".equals(test.path("mode").asText()) ? builder.inBatchMode() : builder.inStreamingMode();
        TableEnvironmentInternal tenv = (TableEnvironmentInternal) TableEnvironment.create(builder.build());
        JobRuntime.point(tenv, TestExecutor.NAME);
        Configuration config = tenv.getConfig().getConfiguration();
        Iterator<Map.Entry<String, JsonNode>> settings = test.path("config").fields();
        while (settings.hasNext()) {
            Map.Entry<String, JsonNode> setting = settings.next();
            put(config, setting.getKey(), setting.getValue().asText());
        }
        return tenv;
    }

    /** One statement; the simple class name of an operation a test does not run, else null. */
    private static String apply(Policy policy, TableEnvironmentInternal tenv, JsonNode step, JsonNode tables, String prefix,
            List<String> collectIds, List<String> inserts, FixtureTimeline timeline) throws Exception {
        if (step.has("set")) {
            String key = step.get("set").get(0).asText();
            if (!policy.setAllowed(key, step.get("set").get(1).asText())) { // the Python side refuses it first, with its reason
                throw new Refused("flinkx test does not apply SET '" + key + "'");
            }
            put(tenv.getConfig().getConfiguration(), key, step.get("set").get(1).asText());
        } else if (step.has("insert")) {
            guard(tenv, step.get("insert").asText());
            inserts.add(step.get("insert").asText());
        } else if (step.has("table")) {
            guard(tenv, step.get("table").asText());
            Operation operation = tenv.getParser().parse(step.get("table").asText()).get(0);
            if (!operation.getClass().getSimpleName().equals("CreateTableOperation")) {
                throw new Refused(CTAS_REFUSED); // CREATE TABLE ... AS SELECT would run a job of its own
            }
            String name = String.valueOf(Reflect.call(Reflect.call(operation, "getTableIdentifier"), "getObjectName"));
            collectIds.add(prefix + name);
            tenv.executeInternal(withFixture(policy, operation, tables.path(name).asText("[]"), prefix + name,
                    timeline != null ? prefix : null, name));
        } else if (step.has("function")) {
            createFunction(tenv, step.get("function"));
        } else if (step.has("other")) {
            String sql = step.get("other").asText();
            guard(tenv, sql);
            Operation operation = tenv.getParser().parse(sql).get(0);
            String name = operation.getClass().getSimpleName();
            if (name.startsWith("CreateView") || name.startsWith("DropView") || name.startsWith("AlterView")
                    || name.startsWith("Use") || safeCatalog(policy, operation)) {
                tenv.executeSql(sql);
            } else if (!name.startsWith("Show") && !name.startsWith("Describe") && !name.startsWith("Explain")) {
                return name;
            }
        }
        return null;
    }

    /** flinkx's own refusals, again on Flink's parse (StatementGuard), and every table still on the fixture stand-in. */
    private static void guard(TableEnvironmentInternal tenv, String sql) throws Exception {
        String refused = StatementGuard.refusal(tenv, sql);
        String off = refused == null ? StatementGuard.offStandin(tenv, FixtureConnector.IDENTIFIER) : null;
        if (refused != null || off != null) {
            throw new Refused(refused != null ? refused : "table " + off + " is not on flinkx's stand-in");
        }
    }

    /** CREATE TABLE with the connector swapped for the fixture stand-in, on the parsed operation. */
    @SuppressWarnings("unchecked")
    private static Operation withFixture(Policy policy, Operation operation, String rows, String collectId,
            String timelineId, String name) throws Exception {
        Object table = Reflect.call(operation, "getCatalogTable");
        Map<String, String> options = policy.swap((Map<String, String>) Reflect.call(table, "getOptions"));
        options.put("connector", FixtureConnector.IDENTIFIER);
        options.put(FixtureConnector.FIXTURE_ROWS, rows);
        options.put(FixtureConnector.COLLECT_ID, collectId);
        if (timelineId != null) {
            options.put(FixtureConnector.TIMELINE_ID, timelineId);
            options.put(FixtureConnector.TIMELINE_TABLE, name);
        }
        return (Operation) Reflect.construct(operation.getClass(), Reflect.call(operation, "getTableIdentifier"),
                Reflect.call(table, "copy", options), Reflect.call(operation, "isIgnoreIfExists"),
                Reflect.call(operation, "isTemporary"));
    }

    private static boolean safeCatalog(Policy policy, Operation operation) throws Exception {
        if (!operation.getClass().getSimpleName().equals("CreateCatalogOperation")) {
            return false;
        }
        Object type = ((Map<?, ?>) Reflect.call(operation, "getProperties")).get("type");
        return type != null && policy.safeCatalogTypes.contains(type.toString());
    }

    /** A project function as the stand-in of its declared kind: NULL, or what the test gives. */
    private static void createFunction(TableEnvironmentInternal tenv, JsonNode function) {
        String name = function.path("name").asText();
        String returns = function.path("returns").asText();
        String kind = function.path("kind").asText("scalar");
        JsonNode calls = function.get("calls");
        UserDefinedFunction instance = StandinTypes.function(kind, name, returns, StandinTypes.declaredParams(function),
                calls != null && !calls.isNull() ? calls.toString() : null);
        tenv.createTemporaryFunction("`" + name.replace("`", "``") + "`", instance);
    }

    /** The INSERTs as one job, its timeline played; false when it did not finish in time (it is cancelled). */
    private static boolean execute(TableEnvironmentInternal tenv, List<String> inserts, long timeoutMs,
            FixtureTimeline timeline, List<String> collectIds, ObjectNode answer) throws Exception {
        TableResult result;
        if (inserts.size() == 1) {
            result = tenv.executeSql(inserts.get(0));
        } else {
            StatementSet set = tenv.createStatementSet();
            for (String sql : inserts) {
                set.addInsertSql(sql);
            }
            result = set.execute();
        }
        long deadline = System.currentTimeMillis() + timeoutMs;
        String jobId = result.getJobClient().map(c -> c.getJobID().toString()).orElse("");
        try {
            if (timeline != null && result.getJobClient().isPresent()
                    && !TestTimeline.play(cluster, result.getJobClient().get(), timeline, collectIds, deadline, answer)) {
                throw new TimeoutException();
            }
            result.await(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            answer.set("late", TestTimeline.late(jobId));
            return true;
        } catch (TimeoutException e) {
            if (result.getJobClient().isPresent()) {
                result.getJobClient().get().cancel().get(30, TimeUnit.SECONDS);
            }
            return false;
        } finally {
            FixtureMetrics.forget(jobId);
            FixtureStates.forget(jobId);
        }
    }

    /** The exception chain, outermost first, as the Python side reads it (testing/run.py). */
    private static ArrayNode chain(Throwable error) {
        ArrayNode chain = NODES.arrayNode();
        Throwable current = error;
        for (int seen = 0; current != null && seen < 50; seen++) {
            ObjectNode link = chain.addObject();
            link.put("class", current.getClass().getSimpleName());
            link.put("message", current.getMessage() != null ? current.getMessage() : current.toString());
            link.put("has_message", current.getMessage() != null);
            Throwable cause = current.getCause();
            current = cause == current ? null : cause;
        }
        return chain;
    }

    /** A statement the test refuses, with flinkx's words. */
    private static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;

        Refused(String message) {
            super(message);
        }
    }
}
