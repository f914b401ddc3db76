package flinkx.standin;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the collecting sinks received, by collect id, until {@code flinkx test} takes it.
 *
 * <p>The local mini-cluster runs in the gateway JVM and the stand-in classes come from the JVM's
 * classpath, so a static map is shared by the sink tasks and the thread that answers the test request.
 */
public final class Collected {
    private Collected() {}

    private static final Map<String, List<String>> ROWS = new ConcurrentHashMap<>();

    static void add(String id, String row) {
        ROWS.computeIfAbsent(id, k -> new ArrayList<>());
        List<String> rows = ROWS.get(id);
        synchronized (rows) {
            rows.add(row);
        }
    }

    /** How many rows are collected under {@code id} so far (a timeline's point, flinkx.standin.FixtureTimeline). */
    public static int count(String id) {
        List<String> rows = ROWS.get(id);
        if (rows == null) {
            return 0;
        }
        synchronized (rows) {
            return rows.size();
        }
    }

    /** The rows collected under {@code id}, in arrival order, as one JSON array; forgets them. */
    public static String take(String id) {
        List<String> rows = ROWS.remove(id);
        if (rows == null) {
            return "[]";
        }
        synchronized (rows) {
            return "[" + String.join(",", rows) + "]";
        }
    }
}
