package flinkx.planner;

import java.lang.reflect.Field;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableEnvironment;

/**
 * How a test job runs on Flink 1.15's API, where two things differ from later releases (api/1.19/ has the same
 * class, doing nothing):
 * <ul>
 * <li>1.15's TableEnvironment submits through the StreamExecutionEnvironment its executor made at creation, a
 * local one whose own configuration says {@code execution.target: local} whatever the settings said (1.16 made the
 * table configuration reach the submission): the test's target is written into that configuration, or every job
 * would start a MiniCluster of its own.</li>
 * <li>A job with checkpointing finishes only once a checkpoint completes after its input ended, and a timeline's
 * coordinator triggers none by itself (a period of a day): one is asked for until the job ends.</li>
 * </ul>
 */
final class JobRuntime {
    private JobRuntime() {}

    static void point(TableEnvironment tenv, String target) throws Exception {
        Field executor = Class.forName("org.apache.flink.table.api.internal.TableEnvironmentImpl").getDeclaredField("execEnv");
        executor.setAccessible(true);
        StreamExecutionEnvironment env = (StreamExecutionEnvironment) Reflect.call(executor.get(tenv), "getExecutionEnvironment");
        Field configuration = StreamExecutionEnvironment.class.getDeclaredField("configuration");
        configuration.setAccessible(true);
        ((Configuration) configuration.get(env)).set(DeploymentOptions.TARGET, target);
    }

    static void finish(MiniCluster cluster, JobClient client, long deadline) throws Exception {
        while (System.currentTimeMillis() < deadline && !client.getJobStatus().get().isGloballyTerminalState()) {
            try {
                cluster.triggerCheckpoint(client.getJobID())
                        .get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) { // the tasks are finishing, or have: the status says which
                Thread.sleep(5);
            } catch (TimeoutException e) {
                return;
            }
        }
    }
}
