package flinkx.planner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

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
 * {"id", "mode", "statements": [{"sql", "skip"}], "udfs": [...], "budget_ms"} and gets {"id", "findings", "ms"}
 * (or {"id", "budget_exceeded": true} when planning took longer than the budget: it is stopped);
 * {"ping": true} gets {"pong": true, "flink": version}; {"stop": true} ends a service; {"deploy": ...} is
 * flinkx deploy's client (DeployClient); {"test": {...}} runs one case of flinkx test (TestJob). With --socket the
 * driver is the warm service lint and the language server share: it exits after N idle seconds.
 */
public final class Driver {
    private static final ObjectMapper JSON = new ObjectMapper();
    // tasks are planned at once, each on a planner of its own (PlannerPool); a test case or a deploy request runs
    // alone, as it did when the driver planned one task at a time
    private static final ReadWriteLock EXCLUSIVE = new ReentrantReadWriteLock();
    private static final Map<String, PlannerPool> PLANNERS = new HashMap<>();
    private static volatile long lastUse = System.nanoTime();
    private static volatile boolean mustExit;
    private static volatile Path servicePath; // the warm service's socket, null for a --stdio child
    private static volatile ServerSocketChannel serviceServer;
    private static volatile Object serviceFile; // the socket file this service bound (quit deletes only that one)
    // a task's planning budget unless its request names one (flinkx_build/planner/process.py sends it): a
    // normal task plans in well under a second, the first of a fresh JVM in about 8 s on a busy machine
    private static final long DEFAULT_BUDGET_MS = 120_000;

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
        servicePath = socket;
        Files.deleteIfExists(socket);
        ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        serviceServer = server;
        serviceFile = fileKey(socket);
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
            SocketChannel client;
            try {
                client = server.accept();
            } catch (ClosedChannelException e) {
                return; // quit closed it and is ending the JVM
            }
            lastUse = System.nanoTime();
            Thread worker = new Thread(() -> {
                try (SocketChannel channel = client) {
                    OutputStream out = outputOf(channel);
                    if (converse(inputOf(channel), new PrintStream(out, true, "UTF-8"))) {
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

    // Streams straight on the channel: Channels.newInputStream/newOutputStream share the channel's blocking lock,
    // so a conversation's reader, which waits for the client's next line while a task is planned, would block
    // the answer being written
    private static InputStream inputOf(SocketChannel channel) {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) == 1 ? one[0] & 0xff : -1;
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                return length == 0 ? 0 : channel.read(ByteBuffer.wrap(bytes, offset, length));
            }
        };
    }

    private static OutputStream outputOf(SocketChannel channel) {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
        };
    }

    /**
     * The service ends: no new conversation is accepted, and the socket file goes only if it is still this service's.
     * A client that found this service gone may already have started the next one at the same path (it deletes the
     * old file and binds its own); deleting by path would orphan that one, alive but unreachable until its idle time.
     */
    private static void quit(Path socket) {
        try {
            if (serviceServer != null) {
                serviceServer.close();
            }
            Object now = fileKey(socket);
            if (now != null && now.equals(serviceFile)) {
                Files.deleteIfExists(socket);
            }
        } catch (IOException e) {
            // exiting anyway
        }
        System.exit(0);
    }

    /** The file's identity (device and inode on Linux), null when there is none. */
    private static Object fileKey(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey();
        } catch (IOException e) {
            return null;
        }
    }

    /** One conversation; true when the client asked the service to stop. */
    private static boolean converse(InputStream input, PrintStream out) throws IOException {
        Lines lines = new Lines(input);
        PlannerPool planner = null;
        Policy policy = null;
        String line;
        while ((line = lines.next()) != null) {
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
                    EXCLUSIVE.writeLock().lock(); // flinkx test: one case's job (TestJob)
                    try {
                        answer.setAll(TestJob.run(policy, request.get("test")));
                    } finally {
                        EXCLUSIVE.writeLock().unlock();
                    }
                } else if (planner == null) {
                    answer.put("error", "no policy sent before the first task");
                } else if (request.has("deploy")) { // flinkx deploy's client requests (DeployClient)
                    EXCLUSIVE.writeLock().lock();
                    try {
                        DeployClient.answer(planner.policy, request, answer);
                    } finally {
                        EXCLUSIVE.writeLock().unlock();
                    }
                } else if (!planWithinBudget(planner, request, answer, lines)) {
                    return false; // the client went away: its planning was cancelled, nobody to answer
                }
            } catch (Throwable e) {
                answer.put("error", e.getClass().getName() + ": " + e.getMessage());
            }
            out.println(JSON.writeValueAsString(answer));
            lastUse = System.nanoTime();
            if (mustExit) {
                exitNow(); // a task's planning ran past its budget: only ending the JVM stops it
            }
        }
        return false;
    }

    /**
     * Plans one task on a thread of its own, within the request's budget ("budget_ms"): past it the answer
     * says so (flinkx reports FX306 for the task, never "clean") and the driver ends once it has answered, as it
     * does at once when the client goes away mid-task (exitNow). False: the client is gone.
     */
    private static boolean planWithinBudget(PlannerPool planners, JsonNode request, ObjectNode answer, Lines lines)
            throws InterruptedException {
        long budgetMs = Math.max(request.path("budget_ms").asLong(DEFAULT_BUDGET_MS), 1);
        AtomicReference<Object> result = new AtomicReference<>();
        AtomicLong started = new AtomicLong(); // when this task got the planner: waiting for another's is not its time
        AtomicBoolean abandoned = new AtomicBoolean();
        Thread worker = new Thread(() -> {
            ScriptPlanner planner = null;
            try {
                planner = planners.take(); // waiting for a free planner is not this task's time either
                EXCLUSIVE.readLock().lock();
                try {
                    if (abandoned.get()) {
                        return;
                    }
                    started.set(System.nanoTime());
                    result.set(planner.plan(request));
                } finally {
                    EXCLUSIVE.readLock().unlock();
                }
            } catch (Throwable e) {
                result.set(e);
            } finally {
                if (planner != null) {
                    planners.give(planner);
                }
            }
        }, "flinkx-plan");
        worker.setDaemon(true);
        worker.start();
        while (worker.isAlive()) {
            worker.join(50);
            if (!worker.isAlive()) {
                break;
            }
            boolean running = started.get() != 0;
            if (lines.closed()) {
                abandoned.set(true);
                if (running) {
                    exitNow();
                }
                return false;
            }
            if (running && System.nanoTime() - started.get() > budgetMs * 1_000_000L) {
                mustExit = true; // once the answer is written
                answer.put("budget_exceeded", true);
                answer.put("budget_ms", budgetMs);
                answer.put("ms", (System.nanoTime() - started.get()) / 1_000_000);
                return true;
            }
        }
        Object planned = result.get();
        if (planned instanceof Throwable) {
            Throwable error = (Throwable) planned;
            answer.put("error", error.getClass().getName() + ": " + error.getMessage());
        } else {
            answer.set("findings", (JsonNode) planned);
        }
        answer.put("ms", (System.nanoTime() - started.get()) / 1_000_000);
        return true;
    }

    /**
     * Ends the driver, its planning with it: a Java thread cannot be stopped safely (stopping one inside a class's
     * static initialiser broke that class for every later task: measured, false FX301s), and the optimizer has no
     * cancellation point inside a rule. A service deletes its socket first; the next run starts a fresh driver,
     * and a run whose task was waiting here asks that one (lint/planner_pass.py).
     */
    private static void exitNow() {
        if (servicePath != null) {
            quit(servicePath);
        }
        System.exit(0);
    }

    /** A conversation's request lines, read on a thread of their own so a planning wait can see the client leave. */
    private static final class Lines {
        private static final String END = new String("end of input");
        private final LinkedBlockingQueue<String> queue = new LinkedBlockingQueue<>();
        private volatile boolean closed;

        Lines(InputStream input) {
            BufferedReader reader = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8));
            Thread thread = new Thread(() -> {
                try {
                    String line;
                    while ((line = reader.readLine()) != null) {
                        queue.add(line);
                    }
                } catch (IOException e) {
                    // the client went away
                }
                closed = true;
                queue.add(END);
            }, "flinkx-requests");
            thread.setDaemon(true);
            thread.start();
        }

        /** The next line, or null at the end of the conversation. */
        String next() throws IOException {
            try {
                String line = queue.take();
                return line == END ? null : line;
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
        }

        /** Whether the client closed its side (only an end can arrive while its request is planned). */
        boolean closed() {
            return closed;
        }
    }

    private static PlannerPool planner(JsonNode policy) throws Exception {
        String key = JSON.writeValueAsString(policy);
        synchronized (PLANNERS) {
            PlannerPool planners = PLANNERS.get(key);
            if (planners == null) {
                planners = new PlannerPool(Policy.from(policy));
                PLANNERS.put(key, planners);
            }
            return planners;
        }
    }
}
