package flinkx.planner;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionJobVertex;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.graph.StreamEdge;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.SourceOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.table.api.CompiledPlan;
import org.apache.flink.table.api.PlanReference;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;

/**
 * The restore trial (issue 43): restores a running job's savepoint into the new job, in a MiniCluster of this
 * driver on the cluster's Flink version, before anything on the cluster stops.
 *
 * <p>The new job is built exactly as a submission builds it (the task's SETs, its DDL with the real connectors, the
 * compiled plan with its pinned operator ids: JobShape), then its connectors are replaced by stand-ins that keep
 * their place and chaining (TrialStandins): the operator ids are checked unchanged, so the savepoint meets the same
 * ids the cluster's job would. Flink then does what it does on the cluster: it maps each operator's state to the
 * new job (non-restored state is not allowed), and every task restores its state and opens its operators (where the
 * serializers are checked). The trial passes when every task runs and a checkpoint of the restored state completes.
 *
 * <pre>
 *   {"deploy": "trial", "steps", "options", "plan", "pins", "savepoint": path, "timeout_ms"}
 *     -> {"restored": true, "ms", "tasks"} | {"refused": [messages], "task": vertex name or "", "ms"}
 * </pre>
 */
final class RestoreTrial {
    private static MiniCluster cluster;
    private static int clusterSlots;

    private RestoreTrial() {}

    static void run(Policy policy, JsonNode request, ObjectNode answer) throws Exception {
        long began = System.nanoTime();
        long deadline = began + request.path("timeout_ms").asLong(60_000) * 1_000_000L;
        StreamGraph graph = graph(policy, request, request.path("pins"), "flinkx-trial");
        graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(request.get("savepoint").asText(), false));
        JobGraph job = graph.getJobGraph();
        MiniCluster mini = submit(graph, job);
        JobID id = job.getJobID();
        try {
            String failed = awaitRunning(mini, id, deadline, answer);
            if (failed == null) {
                mini.triggerCheckpoint(id).get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
                answer.put("restored", true);
            }
        } finally {
            mini.cancelJob(id);
            answer.put("ms", (System.nanoTime() - began) / 1_000_000);
        }
    }

    /**
     * A savepoint of the job planned on flinkx's stand-ins, run in this driver's MiniCluster with stand-ins for its
     * connectors (upgrade-check's trial across versions: the savepoint of one version, restored by another's).
     */
    static void snapshot(Policy policy, JsonNode request, ObjectNode answer) throws Exception {
        long deadline = System.nanoTime() + request.path("timeout_ms").asLong(60_000) * 1_000_000L;
        StreamGraph graph = graph(policy, request, null, "flinkx-snapshot");
        JobGraph job = graph.getJobGraph();
        MiniCluster mini = submit(graph, job);
        JobID id = job.getJobID();
        try {
            if (awaitRunning(mini, id, deadline, answer) == null) {
                java.nio.file.Path folder = java.nio.file.Path.of(request.get("folder").asText());
                answer.put("savepoint", mini.triggerSavepoint(id, folder.toUri().toString(), true,
                        SavepointFormatType.CANONICAL).get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000),
                        TimeUnit.MILLISECONDS));
            }
        } finally {
            if (!answer.has("savepoint")) {
                mini.cancelJob(id);
            }
        }
    }

    /** The job's graph as it will be submitted (or, with "standins", as flinkx plans it), connectors stood in for. */
    private static StreamGraph graph(Policy policy, JsonNode request, JsonNode pins, String name) throws Exception {
        TableEnvironmentInternal tenv;
        CompiledPlan plan;
        if (request.path("standins").asBoolean(false) || !request.has("plan")) {
            tenv = DeployClient.planningEnvironment();
            plan = DeployClient.compilePlan(policy, request, tenv, JsonNodeFactory.instance.objectNode());
        } else {
            tenv = DeployClient.submissionEnvironment(request, new ArrayList<>());
            plan = tenv.loadPlan(PlanReference.fromJsonString(request.get("plan").asText()));
        }
        StreamGraph graph = JobShape.streamGraph(tenv, plan, pins, name);
        ArrayNode before = JobShape.operators(graph);
        standIn(graph);
        if (!before.equals(JobShape.operators(graph))) {
            throw new IllegalStateException("the trial's stand-ins changed the job's operator ids: nothing was proven");
        }
        return graph;
    }

    private static MiniCluster submit(StreamGraph graph, JobGraph job) throws Exception {
        int parallelism = 1;
        for (StreamNode node : graph.getStreamNodes()) {
            parallelism = Math.max(parallelism, node.getParallelism());
        }
        MiniCluster mini = cluster(parallelism);
        // a JobGraph on 1.20, an ExecutionPlan on 2.x: the same call
        ((java.util.concurrent.CompletableFuture<?>) Reflect.call(mini, "submitJob", job)).get();
        return mini;
    }

    /** Null once every task runs; else the failing task's name, with Flink's messages in the answer. */
    private static String awaitRunning(MiniCluster mini, JobID id, long deadline, ObjectNode answer) throws Exception {
        while (System.nanoTime() < deadline) {
            JobStatus status = mini.getJobStatus(id).get();
            if (status.isTerminalState() || status == JobStatus.FAILING || status == JobStatus.RESTARTING) {
                return refused(mini, id, answer);
            }
            AccessExecutionGraph graph = mini.getExecutionGraph(id).get();
            int tasks = 0;
            boolean running = status == JobStatus.RUNNING;
            for (AccessExecutionVertex vertex : graph.getAllExecutionVertices()) {
                tasks++;
                running &= vertex.getExecutionState() == ExecutionState.RUNNING;
            }
            if (running && tasks > 0) {
                answer.put("tasks", tasks);
                return null;
            }
            Thread.sleep(100);
        }
        answer.putArray("refused").add("the new job did not run within the trial's time");
        answer.put("task", "");
        return "";
    }

    private static String refused(MiniCluster mini, JobID id, ObjectNode answer) throws Exception {
        JobResult result = mini.requestJobResult(id).get();
        ArrayNode messages = answer.putArray("refused");
        Throwable current = result.getSerializedThrowable().isPresent()
                ? result.getSerializedThrowable().get().deserializeError(RestoreTrial.class.getClassLoader()) : null;
        for (int seen = 0; current != null && seen < 12; seen++) {
            messages.add(current.toString()); // the exception's class and message, as Flink prints a cause
            Throwable cause = current.getCause();
            current = cause == current ? null : cause;
        }
        String task = "";
        try {
            AccessExecutionGraph graph = mini.getExecutionGraph(id).get();
            for (AccessExecutionJobVertex vertex : graph.getVerticesTopologically()) {
                for (AccessExecutionVertex subtask : vertex.getTaskVertices()) {
                    if (subtask.getExecutionState() == ExecutionState.FAILED && task.isEmpty()) {
                        task = vertex.getName();
                    }
                }
            }
        } catch (Exception e) {
            // a job that never started has no tasks: the messages say why
        }
        answer.put("task", task);
        if (messages.size() == 0) {
            messages.add("the new job ended before it ran");
        }
        return task;
    }

    /** This driver's MiniCluster, with slots for the widest operator; a wider job starts a bigger one. */
    private static synchronized MiniCluster cluster(int slots) throws Exception {
        if (cluster != null && clusterSlots >= slots) {
            return cluster;
        }
        if (cluster != null) {
            MiniClusters.close(cluster);
        }
        Configuration config = new Configuration();
        put(config, "rest.address", "127.0.0.1");
        put(config, "rest.bind-address", "127.0.0.1");
        put(config, "rest.port", "0");
        put(config, "restart-strategy.type", "none");
        int size = Math.max(slots, 2);
        MiniCluster started = MiniClusters.start(config, size);
        cluster = started;
        clusterSlots = size;
        return started;
    }

    private static void put(Configuration config, String key, String value) {
        config.set(ConfigOptions.key(key).stringType().noDefaultValue(), value);
    }

    /**
     * Replaces the job's connectors in place: each source by an idle source of its kind (V2 or legacy), each
     * sink, committer and lookup, and whatever the connector's sink built after them, by Discard. Chaining
     * strategies are kept, so the job's shape, hence its ids, stays. The number of operators replaced.
     */
    static int standIn(StreamGraph graph) throws Exception {
        Set<Integer> connectors = new HashSet<>();
        for (StreamNode node : graph.getStreamNodes()) {
            if (!graph.getSourceIDs().contains(node.getId()) && runsConnector(node)) {
                markDownstream(graph, node, connectors);
            }
        }
        int replaced = 0;
        for (StreamNode node : graph.getStreamNodes()) {
            StreamOperatorFactory<?> factory = node.getOperatorFactory();
            ChainingStrategy chaining = factory.getChainingStrategy();
            StreamOperatorFactory<?> standIn = null;
            if (graph.getSourceIDs().contains(node.getId())) {
                standIn = factory instanceof SourceOperatorFactory
                        ? new SourceOperatorFactory<>(new TrialStandins.IdleSource(), WatermarkStrategy.noWatermarks())
                        : legacySource(factory);
            } else if (connectors.contains(node.getId())) {
                StreamOperatorFactory<?> discard = SimpleOperatorFactory.of(new TrialStandins.Discard());
                standIn = (StreamOperatorFactory<?>) TrialStandins.discardFactory(factory, discard, chaining);
            }
            if (standIn != null) {
                if (standIn instanceof AbstractStreamOperatorFactory) {
                    ((AbstractStreamOperatorFactory<?>) standIn).setChainingStrategy(chaining);
                }
                setFactory(node, standIn);
                replaced++;
            }
        }
        return replaced;
    }

    private static void markDownstream(StreamGraph graph, StreamNode node, Set<Integer> into) {
        if (!into.add(node.getId())) {
            return;
        }
        for (StreamEdge edge : node.getOutEdges()) {
            markDownstream(graph, graph.getStreamNode(edge.getTargetId()), into);
        }
    }

    /** Whether a node runs a connector's code: a sink writer or committer, a sink function, a lookup, or an
     * operator a connector's own DataStream topology added (its name carries no plan node). */
    private static boolean runsConnector(StreamNode node) throws Exception {
        String name = node.getOperatorName();
        StreamOperatorFactory<?> factory = node.getOperatorFactory();
        String factoryClass = factory.getClass().getName();
        String operatorClass = "";
        if (factory instanceof SimpleOperatorFactory) {
            operatorClass = ((SimpleOperatorFactory<?>) factory).getOperator().getClass().getName();
        }
        return factoryClass.startsWith("org.apache.flink.streaming.runtime.operators.sink.")
                || factoryClass.contains("AsyncWaitOperatorFactory")
                || operatorClass.endsWith(".SinkOperator") || operatorClass.endsWith(".StreamSink")
                || name.startsWith("LookupJoin[") || JobShape.planNode(name) < 0;
    }

    private static StreamOperatorFactory<?> legacySource(StreamOperatorFactory<?> factory) throws Exception {
        Object operator = ((SimpleOperatorFactory<?>) factory).getOperator();
        Class<?> type = operator.getClass().getConstructor(firstParameter(operator.getClass())).getParameterTypes()[0];
        Object idle = TrialStandins.legacySource(type);
        return SimpleOperatorFactory.of((org.apache.flink.streaming.api.operators.StreamOperator<?>)
                operator.getClass().getConstructor(type).newInstance(idle));
    }

    private static Class<?> firstParameter(Class<?> streamSource) {
        for (java.lang.reflect.Constructor<?> constructor : streamSource.getConstructors()) {
            if (constructor.getParameterCount() == 1) {
                return constructor.getParameterTypes()[0];
            }
        }
        throw new IllegalStateException("no one-argument constructor on " + streamSource.getName());
    }

    /** StreamNode.setOperatorFactory (2.x), or its field (1.20 has no setter). */
    private static void setFactory(StreamNode node, StreamOperatorFactory<?> factory) throws Exception {
        try {
            StreamNode.class.getMethod("setOperatorFactory", StreamOperatorFactory.class).invoke(node, factory);
        } catch (NoSuchMethodException e) {
            Field field = StreamNode.class.getDeclaredField("operatorFactory");
            field.setAccessible(true);
            field.set(node, factory);
        }
    }
}
