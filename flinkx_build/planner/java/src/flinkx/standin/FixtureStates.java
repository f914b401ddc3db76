package flinkx.standin;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.flink.runtime.state.AbstractKeyedStateBackend;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;

/**
 * The keyed state backends of a test job's operators ({@link FixtureStateBackend} registers each one it builds,
 * under the operator's name), so {@code flinkx test} can say at a point of a timeline how many keys each stateful
 * operator holds state for.
 *
 * <p>A key counts when any of the operator's keyed states (value, list or map state, of any namespace such as a
 * window) holds an entry for it: the keys Flink's heap backend keeps, as its own {@code getKeysAndNamespaces}
 * lists them. Timers are not state entries and do not count. An entry whose TTL has passed counts until Flink
 * removes it (when it is next read, or by the heap backend's incremental cleanup on state access): the count is
 * what the backend holds, not what a read would return. Counted only at a settled point of a timeline (a completed
 * checkpoint, no step released), when the operator's task is not processing, and never through a read that could
 * change the state (a read of an expired entry would remove it).
 */
public final class FixtureStates {
    private static final Map<String, List<Map.Entry<String, AbstractKeyedStateBackend<?>>>> BY_JOB =
            new ConcurrentHashMap<>();

    private FixtureStates() {}

    static void register(String jobId, String operator, AbstractKeyedStateBackend<?> backend) {
        List<Map.Entry<String, AbstractKeyedStateBackend<?>>> backends =
                BY_JOB.computeIfAbsent(jobId, k -> new ArrayList<>());
        synchronized (backends) {
            backends.add(Map.entry(operator, backend));
        }
    }

    /** Keys held per operator name of job {@code jobId} (operators of one name are added up). */
    public static Map<String, Long> keys(String jobId) {
        Map<String, Long> keys = new LinkedHashMap<>();
        List<Map.Entry<String, AbstractKeyedStateBackend<?>>> backends = BY_JOB.getOrDefault(jobId, new ArrayList<>());
        synchronized (backends) {
            for (Map.Entry<String, AbstractKeyedStateBackend<?>> entry : backends) {
                keys.merge(entry.getKey(), count(entry.getValue()), Long::sum);
            }
        }
        return keys;
    }

    private static long count(AbstractKeyedStateBackend<?> backend) {
        Set<Object> keys = new HashSet<>();
        for (String state : stateNames(backend)) {
            backend.getKeysAndNamespaces(state).forEach(keyAndNamespace -> keys.add(keyAndNamespace.f0));
        }
        return keys.size();
    }

    /** The names of the backend's keyed value/list/map states: Flink keeps them in a private map and offers no list. */
    private static Set<String> stateNames(AbstractKeyedStateBackend<?> backend) {
        try {
            Field field = HeapKeyedStateBackend.class.getDeclaredField("registeredKVStates");
            field.setAccessible(true);
            return new HashSet<>(((Map<?, ?>) field.get(backend)).keySet().stream().map(String::valueOf).toList());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("flinkx test: this Flink's heap state backend lists no states", e);
        }
    }

    public static void forget(String jobId) {
        BY_JOB.remove(jobId);
    }
}
