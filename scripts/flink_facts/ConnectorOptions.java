// What Flink's own table factories say about their options, for scripts/gen_connector_options.py: compiled
// and run with a Flink version's jars on the class path, it prints one JSON object.
//
//   java -cp "out:lib/*" ConnectorOptions PROBES_FILE > options.json
//
// "factories": every table Factory the jars register (Java's ServiceLoader): identifier, class, the simple
// names of its interfaces, requiredOptions()/optionalOptions()/forwardOptions() as keys (fallback and
// deprecated keys included). "helper": the keys of FactoryUtil's ConfigOption fields. "accepts": for each
// PROBES_FILE line "CONNECTOR<TAB>KEY<TAB>VALUE<TAB>QUERY<TAB>EXTRA", whether Flink plans a table of that
// connector that also sets KEY (false only when Flink names the key unsupported).

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.ServiceLoader;
import java.util.TreeSet;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.factories.FactoryUtil;

public final class ConnectorOptions {
    public static void main(String[] args) throws Exception {
        List<String> factories = new ArrayList<>();
        for (Factory factory : ServiceLoader.load(Factory.class)) {
            TreeSet<String> interfaces = new TreeSet<>();
            for (Class<?> type : factory.getClass().getInterfaces()) {
                interfaces.add(str(type.getSimpleName()));
            }
            Collection<?> forwarded = new ArrayList<>(); // only a DynamicTableFactory forwards options
            try {
                Method forward = factory.getClass().getMethod("forwardOptions");
                forwarded = (Collection<?>) forward.invoke(factory);
            } catch (NoSuchMethodException e) {
                // an executor or planner factory
            }
            factories.add("{\"identifier\": " + str(factory.factoryIdentifier())
                    + ", \"class\": " + str(factory.getClass().getName())
                    + ", \"interfaces\": [" + String.join(", ", interfaces) + "]"
                    + ", \"required\": " + keys(factory.requiredOptions())
                    + ", \"optional\": " + keys(factory.optionalOptions())
                    + ", \"forwarded\": " + keys(forwarded) + "}");
        }
        TreeSet<String> helper = new TreeSet<>();
        for (Field field : FactoryUtil.class.getFields()) {
            Object value = field.get(null);
            if (value instanceof ConfigOption) {
                helper.add(str(((ConfigOption<?>) value).key()));
            }
        }
        List<String> accepts = new ArrayList<>();
        for (String line : Files.readAllLines(Paths.get(args[0]), StandardCharsets.UTF_8)) {
            if (line.isEmpty()) {
                continue;
            }
            String[] probe = line.split("\t", -1);
            accepts.add("[" + str(probe[0]) + ", " + str(probe[1]) + ", " + accepts(probe) + "]");
        }
        System.out.println("{\"factories\": [" + String.join(",\n", factories) + "],\n\"helper\": ["
                + String.join(", ", helper) + "],\n\"accepts\": [" + String.join(",\n", accepts) + "]}");
        System.exit(0);
    }

    private static boolean accepts(String[] probe) {
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.executeSql("CREATE TABLE t (id INT) WITH ('connector' = '" + probe[0] + "'" + probe[4] + ", '"
                + probe[1] + "' = '" + probe[2] + "')");
        try {
            env.explainSql(probe[3]);
            return true;
        } catch (Throwable e) {
            // the key is accepted unless Flink names it unsupported; another error is about its value
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (String.valueOf(t.getMessage()).contains("Unsupported options")) {
                    return false;
                }
            }
            return true;
        }
    }

    private static String keys(Collection<?> options) {
        TreeSet<String> keys = new TreeSet<>();
        for (Object item : options) {
            ConfigOption<?> option = (ConfigOption<?>) item;
            keys.add(str(option.key()));
            for (FallbackKey fallback : option.fallbackKeys()) {
                keys.add(str(fallback.getKey()));
            }
        }
        return "[" + String.join(", ", keys) + "]";
    }

    private static String str(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
