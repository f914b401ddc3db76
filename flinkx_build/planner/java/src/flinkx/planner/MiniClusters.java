package flinkx.planner;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * This JVM's MiniClusters (a test job's, a restore trial's), each closed when the JVM ends. The driver ends with
 * System.exit once its stdin closes, and a MiniCluster never closed leaves its working directory (minicluster_* in
 * java.io.tmpdir) behind: one folder for every flinkx test or upgrade-check run.
 */
final class MiniClusters {
    private static final List<MiniCluster> OPEN = new CopyOnWriteArrayList<>();
    private static final long CLOSE_SECONDS = 10; // a job that will not cancel does not hold the JVM's end longer

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(MiniClusters::closeAll, "flinkx-minicluster-close"));
    }

    private MiniClusters() {}

    /** A started MiniCluster of one TaskManager with `slots` slots, closed at the latest when the JVM ends. */
    static MiniCluster start(Configuration config, int slots) throws Exception {
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(config).setNumTaskManagers(1).setNumSlotsPerTaskManager(slots).build());
        try {
            cluster.start();
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        OPEN.add(cluster);
        return cluster;
    }

    static void close(MiniCluster cluster) throws Exception {
        OPEN.remove(cluster);
        cluster.close();
    }

    private static void closeAll() {
        for (MiniCluster cluster : OPEN) {
            try {
                cluster.closeAsync().get(CLOSE_SECONDS, TimeUnit.SECONDS);
            } catch (Exception e) {
                System.err.println("flinkx: a MiniCluster did not close at the driver's end: " + e);
            }
        }
    }
}
