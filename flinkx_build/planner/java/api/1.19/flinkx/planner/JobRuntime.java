package flinkx.planner;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.table.api.TableEnvironment;

/**
 * How a test job runs on the API of Flink 1.16 and later: the target in the TableEnvironment's settings reaches
 * the submission, and a job whose input ended finishes by itself. api/1.15/ has the same class for 1.15, where
 * neither holds.
 */
final class JobRuntime {
    private JobRuntime() {}

    static void point(TableEnvironment tenv, String target) {}

    static void finish(MiniCluster cluster, JobClient client, long deadline) {}
}
