package flinkx.planner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * flinkx's planner driver: plans tasks on the Flink whose jars are on its class path, answering JSON lines.
 *
 * <pre>
 *   java -cp driver.jar:lib/* flinkx.planner.Driver --stdio
 *   java -cp driver.jar:lib/* flinkx.planner.Driver --socket PATH --idle-seconds N
 * </pre>
 * A conversation starts with {"policy": {...}} (flinkx's allow-lists, see Policy), then each line is
 * {"id", "mode", "statements": [{"sql", "skip"}], "udfs": [...]} and gets {"id", "findings", "ms"};
 * {"ping": true} gets {"pong": true, "flink": version}; {"stop": true} ends a service; {"deploy": ...} is
 * flinkx deploy's client (DeployClient); {"test": {...}} runs one case of flinkx test (TestJob). With --socket the
 * driver is the warm service lint and the language server share: it exits after N idle seconds.
 */
public final class Driver {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Object PLANNING = new Object(); // one task at a time: TableEnvironments are not shared
    private static final Map<String, ScriptPlanner> PLANNERS = new HashMap<>();
    private static volatile long lastUse = System.nanoTime();

    private Driver() {}

    public static void main(String[] args) throws Exception {
        // stdout is the protocol: anything Flink or a library prints goes to stderr instead
        PrintStream protocol = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), true, "UTF-8");
        System.setOut(System.err);
        if (args.length >= 1 && args[0].equals("--stdio")) {
            converse(System.in, protocol);
            System.exit(0); // stdin closed: the end, also for a test job's MiniCluster threads, which are not daemons
        }
        if (args.length >= 4 && args[0].equals("--socket") && args[2].equals("--idle-seconds")) {
            serve(Path.of(args[1]), Long.parseLong(args[3]));
            return;
        }
        System.err.println("usage: Driver --stdio | --socket PATH --idle-seconds N");
        System.exit(2);
    }

    private static void serve(Path socket, long idleSeconds) throws IOException {
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        Thread idle = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
                if (System.nanoTime() - lastUse > idleSeconds * 1_000_000_000L) {
                    quit(socket);
                }
            }
        }, "flinkx-idle");
        idle.setDaemon(true);
        idle.start();
        while (true) {
            SocketChannel client = server.accept();
            lastUse = System.nanoTime();
            Thread worker = new Thread(() -> {
                try (SocketChannel channel = client) {
                    OutputStream out = Channels.newOutputStream(channel);
                    if (converse(Channels.newInputStream(channel), new PrintStream(out, true, "UTF-8"))) {
                        quit(socket);
                    }
                } catch (IOException e) {
                    // the client went away: its answers have nowhere to go
                }
            }, "flinkx-client");
            worker.setDaemon(true);
            worker.start();
        }
    }

    private static void quit(Path socket) {
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            // exiting anyway
        }
        System.exit(0);
    }

    /** One conversation; true when the client asked the service to stop. */
    private static boolean converse(InputStream input, PrintStream out) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
        ScriptPlanner planner = null;
        Policy policy = null;
        String line;
        while ((line = reader.readLine()) != null) {
            lastUse = System.nanoTime();
            if (line.isBlank()) {
                continue;
            }
            ObjectNode answer = JSON.createObjectNode();
            try {
                JsonNode request = JSON.readTree(line);
                answer.set("id", request.get("id"));
                if (request.has("policy")) {
                    planner = planner(request.get("policy"));
                    policy = Policy.from(request.get("policy"));
                    answer.put("ready", true);
                } else if (request.path("ping").asBoolean(false)) {
                    answer.put("pong", true);
                    answer.put("flink", EnvironmentInformation.getVersion());
                    answer.put("pid", ProcessHandle.current().pid());
                } else if (request.path("stop").asBoolean(false)) {
                    answer.put("stopping", true);
                    out.println(JSON.writeValueAsString(answer));
                    return true;
                } else if (request.has("test") && policy != null) {
                    synchronized (PLANNING) { // flinkx test: one case's job (TestJob)
                        answer.setAll(TestJob.run(policy, request.get("test")));
                    }
                } else if (planner == null) {
                    answer.put("error", "no policy sent before the first task");
                } else if (request.has("deploy")) { // flinkx deploy's client requests (DeployClient)
                    synchronized (PLANNING) {
                        DeployClient.answer(planner.policy, request, answer);
                    }
                } else {
                    long began = System.nanoTime();
                    synchronized (PLANNING) {
                        answer.set("findings", planner.plan(request));
                    }
                    answer.put("ms", (System.nanoTime() - began) / 1_000_000);
                }
            } catch (Throwable e) {
                answer.put("error", e.getClass().getName() + ": " + e.getMessage());
            }
            out.println(JSON.writeValueAsString(answer));
            lastUse = System.nanoTime();
        }
        return false;
    }

    private static ScriptPlanner planner(JsonNode policy) throws Exception {
        String key = JSON.writeValueAsString(policy);
        synchronized (PLANNING) {
            ScriptPlanner planner = PLANNERS.get(key);
            if (planner == null) {
                planner = new ScriptPlanner(Policy.from(policy));
                PLANNERS.put(key, planner);
            }
            return planner;
        }
    }
}
