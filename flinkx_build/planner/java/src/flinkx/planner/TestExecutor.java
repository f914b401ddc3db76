package flinkx.planner;

import java.util.concurrent.CompletableFuture;

import org.apache.flink.api.common.JobSubmissionResult;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;

/**
 * Where a {@code flinkx test} job runs ({@code execution.target} = {@value #NAME}, set by TestJob after the task's
 * SETs): straight onto the MiniCluster of this JVM, as Flink's own local executor submits to the MiniCluster it
 * starts, instead of through the cluster's REST endpoint. The REST client serialized every job graph, uploaded it
 * over HTTP and polled for the job's end with a growing back-off (10 ms up to 2 s); measured on the example suite
 * (18 cases, one warm driver, a loaded 2-core machine): 18-22 s a round through REST, 10-13 s straight.
 * Registered through META-INF/services like every executor; nothing a task writes can choose it.
 */
public final class TestExecutor implements PipelineExecutorFactory, PipelineExecutor {
    static final String NAME = "flinkx-test";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
        return NAME.equals(configuration.get(DeploymentOptions.TARGET));
    }

    @Override
    public PipelineExecutor getExecutor(Configuration configuration) {
        return this;
    }

    @Override
    @SuppressWarnings("unchecked")
    public CompletableFuture<JobClient> execute(Pipeline pipeline, Configuration configuration, ClassLoader loader)
            throws Exception {
        MiniCluster cluster = TestJob.cluster();
        CompletableFuture<JobSubmissionResult> submitted = (CompletableFuture<JobSubmissionResult>) Reflect.call(
                cluster, "submitJob", executionPlan(pipeline, configuration, loader));
        return submitted.thenApply(result -> new MiniClusterJobClient(result.getJobID(), cluster, loader,
                MiniClusterJobClient.JobFinalizationBehavior.NOTHING));
    }

    /** What the MiniCluster takes: a JobGraph on 1.20 (and on 1.15, made without the class loader), the stream
     *  graph itself on 2.x (it builds the JobGraph). */
    private static Object executionPlan(Pipeline pipeline, Configuration configuration, ClassLoader loader)
            throws Exception {
        try {
            return PipelineExecutorUtils.class.getMethod("getJobGraph", Pipeline.class, Configuration.class,
                    ClassLoader.class).invoke(null, pipeline, configuration, loader);
        } catch (NoSuchMethodException e) {
            try {
                return PipelineExecutorUtils.class.getMethod("getJobGraph", Pipeline.class, Configuration.class)
                        .invoke(null, pipeline, configuration);
            } catch (NoSuchMethodException notOneFifteen) {
                // 2.x: below
            }
            Object graph = PipelineExecutorUtils.class.getMethod("getStreamGraph", Pipeline.class, Configuration.class)
                    .invoke(null, pipeline, configuration);
            Reflect.call(graph, "serializeUserDefinedInstances"); // as 2.x's LocalExecutor does before submitting
            return graph;
        }
    }
}
