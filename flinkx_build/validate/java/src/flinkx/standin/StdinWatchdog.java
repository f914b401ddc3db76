package flinkx.standin;

import java.io.IOException;

import org.apache.flink.client.python.PythonGatewayServer;

/**
 * Keeps the gateway JVM alive exactly as long as the Python process that started it.
 *
 * <p>PythonGatewayServer exits 10 s after start unless an entry named "Watchdog" is registered,
 * and afterwards exits as soon as its ping() returns false. PyFlink answers the ping from Python
 * through a py4j callback server; flinkx needs no callbacks otherwise, so this watchdog watches
 * the JVM's stdin instead: the launcher's pipe reaches end-of-file when the Python process closes
 * it or dies, and the JVM then shuts down by itself (no orphaned JVMs).
 */
public final class StdinWatchdog implements PythonGatewayServer.Watchdog {

    private volatile boolean open = true;

    public StdinWatchdog() {
        Thread reader = new Thread(this::readUntilEof, "flinkx-stdin-watchdog");
        reader.setDaemon(true);
        reader.start();
    }

    private void readUntilEof() {
        try {
            while (System.in.read() != -1) {
                // the launcher never writes; anything read is ignored
            }
        } catch (IOException e) {
            // a broken pipe means the same as end-of-file
        }
        open = false;
    }

    @Override
    public boolean ping() {
        return open;
    }
}
