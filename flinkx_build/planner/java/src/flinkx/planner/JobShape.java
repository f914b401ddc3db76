package flinkx.planner;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.api.dag.Transformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamGraphHasherV2;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.table.api.CompiledPlan;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.delegation.Executor;
import org.apache.flink.table.delegation.InternalPlan;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.util.StringUtils;

/**
 * The job a compiled plan runs, operator by operator, with the ids Flink gives those operators when the SQL is
 * submitted as SQL (flinkx deploy's jobs): no uids (table.exec.uid.generation stays PLAN_ONLY for SQL, which sets
 * none), so an operator's id is Flink's hash of the stream graph's shape (StreamGraphHasherV2, what the job graph
 * generator uses). A savepoint keeps each operator's state under that id, so comparing the ids of two jobs says
 * which state the new one can map (measured: the ids computed here are the ids the cluster's jobs report).
 *
 * <p>The plan is translated with uid generation DISABLED, which gives a compiled plan the same ids as its SQL, and
 * with simple operator names, whose "[n]" is the plan's node id: that is how each operator is tied to its node.
 * Neither setting changes the shape, so neither changes an id. {@link #pin} pins chosen operators to the ids an
 * earlier job gave them (Flink's user-provided operator hash): the bridge that keeps a moved operator's state.
 */
final class JobShape {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final Pattern NODE_ID = Pattern.compile("\\[(\\d+)\\]");

    private JobShape() {}

    /**
     * The stream graph of `plan` as a submission of its SQL builds it; with `uidHashes` ({"id": "pinned id"}, ids as
     * {@link #operators} gives them) each of those operators restores its state from the pinned id instead.
     */
    static StreamGraph streamGraph(TableEnvironmentInternal tenv, CompiledPlan plan, JsonNode uidHashes, String name)
            throws Exception {
        TableConfig config = tenv.getConfig();
        config.set("table.exec.uid.generation", "DISABLED");
        config.set("table.exec.simplify-operator-name-enabled", "true");
        Planner planner = (Planner) Reflect.call(tenv, "getPlanner");
        List<Transformation<?>> transformations = planner.translatePlan((InternalPlan) Reflect.call(plan, "unwrap"));
        // the table configuration alone, as TableEnvironmentImpl passes it when it executes a statement set
        StreamGraph graph = (StreamGraph) executor(tenv).createPipeline(transformations, config.getConfiguration(), name);
        if (uidHashes != null && uidHashes.size() > 0) {
            pin(graph, uidHashes);
        }
        return graph;
    }

    /** Each operator: its plan node ("node", -1 when the name has none), Flink's name, its id ("id", hex). */
    static ArrayNode operators(StreamGraph graph) {
        Map<Integer, byte[]> hashes = new StreamGraphHasherV2().traverseStreamGraphAndGenerateHashes(graph);
        List<StreamNode> nodes = new ArrayList<>(graph.getStreamNodes());
        nodes.sort(Comparator.comparingInt(StreamNode::getId));
        ArrayNode out = NODES.arrayNode();
        for (StreamNode node : nodes) {
            ObjectNode op = out.addObject();
            op.put("node", planNode(node.getOperatorName()));
            op.put("name", node.getOperatorName());
            op.put("id", StringUtils.byteToHexString(hashes.get(node.getId())));
            ArrayNode inputs = op.putArray("inputs");
            node.getInEdges().forEach(edge -> inputs.add(StringUtils.byteToHexString(hashes.get(edge.getSourceId()))));
        }
        return out;
    }

    static int planNode(String operatorName) {
        Matcher matcher = NODE_ID.matcher(operatorName);
        return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
    }

    /**
     * Sets Flink's user-provided hash on the operators `uidHashes` names by their own id: Flink then maps savepoint
     * state to that id instead of the one it computes (the id itself, and so every other operator's, stays).
     */
    private static void pin(StreamGraph graph, JsonNode uidHashes) {
        Map<Integer, byte[]> hashes = new StreamGraphHasherV2().traverseStreamGraphAndGenerateHashes(graph);
        for (StreamNode node : graph.getStreamNodes()) {
            JsonNode pinned = uidHashes.get(StringUtils.byteToHexString(hashes.get(node.getId())));
            if (pinned != null) {
                node.setUserHash(pinned.asText());
            }
        }
        forgetHeadOperators(graph);
    }

    /**
     * Hashing a 2.x stream graph caches each chain's head operator factory in a field that is not transient, and a
     * remote submission sends the graph itself: the cluster's REST handler then fails to read a connector's class
     * from a user jar before it loads any jar ("Failed to deserialize ExecutionPlan", measured on 2.3 with a lookup
     * connector from --jar). The cache is only a cache; 1.20 has no such field (it submits a JobGraph).
     */
    private static void forgetHeadOperators(StreamGraph graph) {
        try {
            java.lang.reflect.Field cache = StreamGraph.class.getDeclaredField("nodeToHeadOperatorCache");
            cache.setAccessible(true);
            ((Map<?, ?>) cache.get(graph)).clear();
        } catch (NoSuchFieldException | IllegalAccessException e) {
            // not this version's
        }
    }

    static Executor executor(TableEnvironmentInternal tenv) throws Exception {
        for (Class<?> type = tenv.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field field = type.getDeclaredField("execEnv");
                field.setAccessible(true);
                return (Executor) field.get(tenv);
            } catch (NoSuchFieldException e) {
                // a superclass holds it
            }
        }
        throw new NoSuchFieldException("execEnv");
    }
}
