package flinkx.standin;

import java.io.IOException;
import java.util.Map;

import org.apache.flink.runtime.state.AbstractKeyedStateBackend;
import org.apache.flink.runtime.state.KeyedStateBackendParametersImpl;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;

/**
 * Flink's heap state backend whose keyed backends measure state TTL on the timeline's processing time, on the
 * API of Flink 1.19 and later (KeyedStateBackendParameters). api/1.15/ has the same class on 1.15's API;
 * {@link FixtureStateBackend} is the factory a test job names.
 */
abstract class TimelineHeapBackend extends HashMapStateBackend {
    private static final long serialVersionUID = 1L;

    @Override
    public <K> AbstractKeyedStateBackend<K> createKeyedStateBackend(KeyedStateBackendParameters<K> parameters)
            throws IOException {
        String job = parameters.getJobID().toString();
        AbstractKeyedStateBackend<K> backend = super.createKeyedStateBackend(
                new KeyedStateBackendParametersImpl<>(parameters).setTtlTimeProvider(() -> FixtureTimeline.now(job)));
        Map<String, String> variables = parameters.getMetricGroup().getAllVariables();
        FixtureStates.register(job, variables.getOrDefault("<operator_name>", parameters.getOperatorIdentifier()), backend);
        return backend;
    }
}
