package flinkx.planner;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;

import flinkx.standin.FixtureConnector;

/**
 * What the Python side decides and sends as the driver's first line: which SET keys a task may change
 * (flinkx_build/engine_settings.py), which catalog types are safe, and each connector's changelog
 * (flinkx_build/validate/standin.py). The facts stay there; this class only applies them.
 */
final class Policy {
    final Set<String> allowedKeys = new HashSet<>();
    final Set<String> allowedPrefixes = new HashSet<>();
    final Set<String> refusedParts = new HashSet<>();
    final Set<String> safeCatalogTypes = new HashSet<>();
    final Set<String> changelogFormats = new HashSet<>();
    final Set<String> appendOnlySinks = new HashSet<>();
    final Set<String> allChangesSinks = new HashSet<>();
    final Map<String, Long> caps = new LinkedHashMap<>();

    static Policy from(JsonNode node) {
        Policy policy = new Policy();
        fill(policy.allowedKeys, node.get("allowed_keys"));
        fill(policy.allowedPrefixes, node.get("allowed_prefixes"));
        fill(policy.refusedParts, node.get("refused_parts"));
        fill(policy.safeCatalogTypes, node.get("safe_catalog_types"));
        fill(policy.changelogFormats, node.get("changelog_formats"));
        fill(policy.appendOnlySinks, node.get("append_only_sinks"));
        fill(policy.allChangesSinks, node.get("all_changes_sinks"));
        JsonNode caps = node.path("caps");
        caps.fieldNames().forEachRemaining(key -> policy.caps.put(key, caps.get(key).asLong()));
        return policy;
    }

    private static void fill(Set<String> into, JsonNode array) {
        if (array != null) {
            array.forEach(item -> into.add(item.asText()));
        }
    }

    /** engine_settings.refusal(key, value) == "": the same rule, on the same data (a null value: the key alone). */
    boolean setAllowed(String key, String value) {
        if (!keyAllowed(key)) {
            return false;
        }
        Long cap = caps.get(key.trim().toLowerCase(Locale.ROOT));
        if (cap == null || value == null) {
            return true;
        }
        String text = value.trim();
        text = text.startsWith("'") && text.endsWith("'") && text.length() >= 2 ? text.substring(1, text.length() - 1).trim() : text;
        return text.matches("[0-9]{1,6}") && Long.parseLong(text) <= cap;
    }

    private boolean keyAllowed(String key) {
        String lowered = key.trim().toLowerCase(Locale.ROOT);
        Set<String> parts = new HashSet<>();
        for (String part : lowered.replace("-", ".").split("\\.", -1)) {
            parts.add(part);
        }
        for (String part : lowered.split("\\.", -1)) {
            parts.add(part);
        }
        boolean allowed = allowedKeys.contains(lowered);
        for (String prefix : allowedPrefixes) {
            allowed |= lowered.startsWith(prefix);
        }
        parts.retainAll(refusedParts);
        return allowed && parts.isEmpty();
    }

    /** standin.swap_connector: the table's options with the connector replaced by the stand-in. */
    Map<String, String> swap(Map<String, String> options) {
        String connector = original(options);
        Map<String, String> swapped = new LinkedHashMap<>(options);
        // a legacy descriptor's 'connector.type' makes Flink look for a legacy TableSourceFactory, whatever
        // 'connector' says: the stand-in plays it only without that key (the original stays recorded below)
        swapped.remove("connector.type");
        swapped.put("connector", FixtureConnector.IDENTIFIER);
        swapped.put(FixtureConnector.ORIGINAL, connector);
        boolean changelogFormat = false;
        for (String key : new String[] {"format", "value.format"}) {
            changelogFormat |= options.containsKey(key)
                    && changelogFormats.contains(options.get(key).toLowerCase(Locale.ROOT));
        }
        String source = connector.equals("upsert-kafka") ? "upsert"
                : connector.endsWith("-cdc") || changelogFormat ? "all" : "insert";
        String sink = allChangesSinks.contains(connector) || changelogFormat ? "all"
                : appendOnlySinks.contains(connector) ? "insert" : "upsert";
        swapped.put(FixtureConnector.SOURCE_CHANGELOG, source);
        swapped.put(FixtureConnector.SINK_CHANGELOG, sink);
        return swapped;
    }

    private static String original(Map<String, String> options) {
        String connector = options.getOrDefault("connector", "");
        if (connector.equals(FixtureConnector.IDENTIFIER)) {
            return options.getOrDefault(FixtureConnector.ORIGINAL, "unknown");
        }
        for (String key : new String[] {"connector", "connector.type", "type"}) {
            String value = options.get(key);
            if (value != null && !value.isEmpty()) {
                return value.toLowerCase(Locale.ROOT);
            }
        }
        return "unknown";
    }
}
