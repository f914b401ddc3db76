package flinkx.planner;

import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The restore trial's stand-ins for a job's connectors (RestoreTrial): they take the place of the real sources,
 * sinks and lookups in the job's own graph, so every operator keeps its id, and the trial runs no connector. Each
 * accepts whatever state the savepoint holds for it and emits nothing: a source restores its splits and its
 * enumerator's state as bytes (any version), a sink or lookup keeps no state of its own (Flink restores the
 * savepoint's state for an operator whether or not the operator reads it).
 */
final class TrialStandins {
    private TrialStandins() {}

    /** A split restored from a savepoint: its bytes, whatever source wrote them. */
    static final class RawSplit implements SourceSplit, Serializable {
        private static final long serialVersionUID = 1L;
        final String id;
        final byte[] bytes;

        RawSplit(String id, byte[] bytes) {
            this.id = id;
            this.bytes = bytes;
        }

        @Override
        public String splitId() {
            return id;
        }
    }

    private static final class RawSplits implements SimpleVersionedSerializer<RawSplit> {
        private int restored;

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(RawSplit split) {
            return split.bytes;
        }

        @Override
        public RawSplit deserialize(int version, byte[] serialized) {
            return new RawSplit("restored-" + restored++, serialized);
        }
    }

    private static final class RawBytes implements SimpleVersionedSerializer<byte[]> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(byte[] state) {
            return state;
        }

        @Override
        public byte[] deserialize(int version, byte[] serialized) {
            return serialized;
        }
    }

    /** Source V2: never ends, never emits; its splits and enumerator state come back as they were. */
    static final class IdleSource implements org.apache.flink.api.connector.source.Source<Object, RawSplit, byte[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.CONTINUOUS_UNBOUNDED;
        }

        @Override
        public SourceReader<Object, RawSplit> createReader(SourceReaderContext context) {
            return new Reader();
        }

        @Override
        public SplitEnumerator<RawSplit, byte[]> createEnumerator(SplitEnumeratorContext<RawSplit> context) {
            return new Enumerator(new byte[0]);
        }

        @Override
        public SplitEnumerator<RawSplit, byte[]> restoreEnumerator(SplitEnumeratorContext<RawSplit> context, byte[] state) {
            return new Enumerator(state);
        }

        @Override
        public SimpleVersionedSerializer<RawSplit> getSplitSerializer() {
            return new RawSplits();
        }

        @Override
        public SimpleVersionedSerializer<byte[]> getEnumeratorCheckpointSerializer() {
            return new RawBytes();
        }
    }

    private static final class Reader implements SourceReader<Object, RawSplit> {
        private final List<RawSplit> splits = new ArrayList<>();
        private final CompletableFuture<Void> never = new CompletableFuture<>();

        @Override
        public void start() {}

        @Override
        public InputStatus pollNext(ReaderOutput<Object> output) {
            return InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public List<RawSplit> snapshotState(long checkpointId) {
            return new ArrayList<>(splits);
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return never;
        }

        @Override
        public void addSplits(List<RawSplit> added) {
            splits.addAll(added);
        }

        @Override
        public void notifyNoMoreSplits() {}

        @Override
        public void close() {
            never.complete(null);
        }
    }

    private static final class Enumerator implements SplitEnumerator<RawSplit, byte[]> {
        private final byte[] state;

        Enumerator(byte[] state) {
            this.state = state;
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtask, String host) {}

        @Override
        public void addSplitsBack(List<RawSplit> splits, int subtask) {}

        @Override
        public void addReader(int subtask) {}

        @Override
        public byte[] snapshotState(long checkpointId) {
            return state;
        }

        @Override
        public void close() {}
    }

    /** In place of a sink, a committer or a lookup: takes every row and drops it; keeps no state of its own. */
    static final class Discard extends AbstractStreamOperator<Object> implements OneInputStreamOperator<Object, Object> {
        private static final long serialVersionUID = 1L;

        @Override
        public void processElement(StreamRecord<Object> element) {}
    }

    /**
     * In place of a connector's operator factory: a factory of Discard that implements every interface the original
     * does (a sink writer's is "yielding", which decides whether Flink chains it after a legacy source, hence the
     * job's ids) and keeps its chaining strategy.
     */
    static Object discardFactory(Object original, Object discardFactory, Object chaining) {
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        for (Class<?> type = original.getClass(); type != null; type = type.getSuperclass()) {
            collect(type, interfaces);
        }
        return Proxy.newProxyInstance(TrialStandins.class.getClassLoader(), interfaces.toArray(new Class<?>[0]),
                new Delegate(discardFactory, chaining));
    }

    private static void collect(Class<?> type, Set<Class<?>> into) {
        for (Class<?> face : type.getInterfaces()) {
            if (into.add(face)) {
                collect(face, into);
            }
        }
    }

    private static final class Delegate implements InvocationHandler, Serializable {
        private static final long serialVersionUID = 1L;
        private final Object target;
        private final Object chaining;

        Delegate(Object target, Object chaining) {
            this.target = target;
            this.chaining = chaining;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "getChainingStrategy":
                    return chaining;
                case "setChainingStrategy":
                case "setMailboxExecutor":
                    return null;
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                default:
                    break;
            }
            for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
                try {
                    Method own = type.getDeclaredMethod(method.getName(), method.getParameterTypes());
                    own.setAccessible(true);
                    return own.invoke(target, args);
                } catch (NoSuchMethodException e) {
                    // up the hierarchy
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                }
            }
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args);
            }
            return null;
        }
    }

    /**
     * A legacy source function (the interface moved between Flink versions, so it is implemented by a proxy of the
     * type the running version's StreamSource takes): run() waits until cancel(), emitting nothing.
     */
    static Object legacySource(Class<?> functionType) {
        return Proxy.newProxyInstance(TrialStandins.class.getClassLoader(), new Class<?>[] {functionType}, new Idle());
    }

    private static final class Idle implements InvocationHandler, Serializable {
        private static final long serialVersionUID = 1L;
        private transient CountDownLatch cancelled;

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            switch (method.getName()) {
                case "run":
                    latch().await();
                    return null;
                case "cancel":
                    latch().countDown();
                    return null;
                case "hashCode":
                    return System.identityHashCode(proxy);
                case "equals":
                    return proxy == args[0];
                case "toString":
                    return "flinkx-trial-source";
                default:
                    return null;
            }
        }

        private synchronized CountDownLatch latch() {
            if (cancelled == null) {
                cancelled = new CountDownLatch(1);
            }
            return cancelled;
        }
    }
}
