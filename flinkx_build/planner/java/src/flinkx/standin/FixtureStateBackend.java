package flinkx.standin;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.runtime.state.StateBackendFactory;

/**
 * Flink's heap state backend with state TTL on the timeline's processing time. Flink reads the time a TTL is
 * measured against from the TtlTimeProvider a keyed state backend is built with (the wall clock, by default);
 * a state backend is the one place a job can choose it ({@code state.backend.type} names this factory for a
 * test with a timeline), so a TTL expires when a {@code proctime} step passes it, not when the wall clock does.
 * Each backend it builds is registered under its operator's name ({@link FixtureStates}: keys at a point).
 */
public final class FixtureStateBackend extends TimelineHeapBackend implements StateBackendFactory<FixtureStateBackend> {
    private static final long serialVersionUID = 1L;

    @Override
    public FixtureStateBackend createFromConfig(ReadableConfig config, ClassLoader classLoader) {
        return new FixtureStateBackend();
    }

    @Override
    public FixtureStateBackend configure(ReadableConfig config, ClassLoader classLoader) {
        return this;
    }
}
