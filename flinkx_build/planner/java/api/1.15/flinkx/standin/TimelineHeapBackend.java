package flinkx.standin;

import java.io.IOException;
import java.util.Collection;

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.fs.CloseableRegistry;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.execution.Environment;
import org.apache.flink.runtime.query.TaskKvStateRegistry;
import org.apache.flink.runtime.state.AbstractKeyedStateBackend;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyedStateHandle;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.runtime.state.ttl.TtlTimeProvider;

/**
 * Flink's heap state backend whose keyed backends measure state TTL on the timeline's processing time, on
 * Flink 1.15's API (the TtlTimeProvider is one of eleven arguments). api/1.19/ has the same class on the API of
 * 1.19 and later; {@link FixtureStateBackend} is the factory a test job names.
 */
abstract class TimelineHeapBackend extends HashMapStateBackend {
    private static final long serialVersionUID = 1L;

    @Override
    public <K> AbstractKeyedStateBackend<K> createKeyedStateBackend(Environment env, JobID jobID, String operatorIdentifier,
            TypeSerializer<K> keySerializer, int numberOfKeyGroups, KeyGroupRange keyGroupRange,
            TaskKvStateRegistry kvStateRegistry, TtlTimeProvider ttlTimeProvider, MetricGroup metricGroup,
            Collection<KeyedStateHandle> stateHandles, CloseableRegistry cancelStreamRegistry) throws IOException {
        String job = jobID.toString();
        AbstractKeyedStateBackend<K> backend = super.createKeyedStateBackend(env, jobID, operatorIdentifier, keySerializer,
                numberOfKeyGroups, keyGroupRange, kvStateRegistry, () -> FixtureTimeline.now(job), metricGroup,
                stateHandles, cancelStreamRegistry);
        String operator = metricGroup.getAllVariables().getOrDefault("<operator_name>", operatorIdentifier);
        FixtureStates.register(job, operator, backend);
        return backend;
    }
}
