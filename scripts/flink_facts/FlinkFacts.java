// Reads one Flink version's facts from its own jars and prints them as one JSON object.
// Compiled and run by scripts/gen_flink_facts.py with that version's jars on the class path
// (the planner's inner flink-table-planner.jar extracted from flink-table-planner-loader).
// Anything whose API moved between versions is reached by reflection, so one source serves
// 1.19, 1.20 and 2.x.
//
//   java -cp "out:jars/*" FlinkFacts TYPE_SAMPLES_FILE SINK_CAST_FORMS_FILE RETURN_PROBES_FILE < /dev/null > facts.json
//
// TYPE_SAMPLES_FILE: one "NAME<TAB>SAMPLE" a line, each sample tried as a column type with the
// SQL parser (the parser has no list of its type names to read).
// SINK_CAST_FORMS_FILE: one "ROOT<TAB>TYPE" a line; every pair is planned as an INSERT of one
// column into another (the planner's implicit casts at a sink are rules in its code, not a table).
// RETURN_PROBES_FILE: one "NAME<TAB>EXPRESSION" a line over the probe table (below); each
// expression's result type is what the planner's validation gives the SELECT's column.

import java.io.File;
import java.io.StringReader;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;

public final class FlinkFacts {
    private static final Pattern WORD = Pattern.compile("[A-Z][A-Z0-9_]*");

    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder("{\n");
        field(out, "flink_version", str(flinkVersion()));
        field(out, "keywords", keywords());
        field(out, "functions", functions());
        field(out, "types", types(args[0]));
        field(out, "options", options());
        field(out, "sink_casts", sinkCasts(args[1]));
        field(out, "return_types", returnTypes(args[2]));
        out.append("\"factories\": ").append(factories()).append("\n}\n");
        System.out.write(out.toString().getBytes(StandardCharsets.UTF_8));
        System.out.flush();
    }

    // ---------------------------------------------------------------- keywords
    static String keywords() throws Exception {
        Object parser = Class.forName("org.apache.flink.sql.parser.impl.FlinkSqlParserImpl")
                .getConstructor(java.io.Reader.class).newInstance(new StringReader(""));
        Object meta = call(parser, "getMetadata");
        Method isReserved = meta.getClass().getMethod("isReservedWord", String.class);
        Method isKeyword = meta.getClass().getMethod("isKeyword", String.class);
        Method isNonReserved = meta.getClass().getMethod("isNonReservedKeyword", String.class);
        isReserved.setAccessible(true);
        isKeyword.setAccessible(true);
        isNonReserved.setAccessible(true);
        @SuppressWarnings("unchecked")
        List<String> tokens = (List<String>) call(meta, "getTokens");
        TreeMap<String, String> words = new TreeMap<>();
        for (String token : tokens) {
            if (!WORD.matcher(token).matches() || !(Boolean) isKeyword.invoke(meta, token)) {
                continue;
            }
            boolean reserved = (Boolean) isReserved.invoke(meta, token);
            boolean nonReserved = (Boolean) isNonReserved.invoke(meta, token);
            // the parser's own verdict: the word written bare where a name goes
            String rejectedIn = rejectedAsName(token);
            StringBuilder o = new StringBuilder("{");
            o.append("\"reserved\": ").append(reserved && !nonReserved);
            o.append(", \"rejected_in\": ").append(str(rejectedIn)).append("}");
            words.put(token, o.toString());
        }
        return object(words);
    }

    static final String[] NAME_PLACES = {
        "SELECT %s FROM t", "CREATE TABLE t (%s INT) WITH ('connector' = 'datagen')", "SELECT a FROM t AS %s",
    };

    /** The first place (select / create / alias) where the parser rejects the bare word but takes it quoted. */
    static String rejectedAsName(String word) {
        String[] labels = {"select", "create", "alias"};
        for (int i = 0; i < NAME_PLACES.length; i++) {
            String bare = String.format(NAME_PLACES[i], word);
            String quoted = String.format(NAME_PLACES[i], "`" + word + "`");
            if (parseError(bare) != null && parseError(quoted) == null) {
                return labels[i];
            }
        }
        return "";
    }

    static Object parserConfig;

    /** null when the SQL parses with Flink's parser, else the first line of the error. */
    static String parseError(String sql) {
        try {
            Class<?> sqlParser = Class.forName("org.apache.calcite.sql.parser.SqlParser");
            if (parserConfig == null) {
                Class<?> configClass = Class.forName("org.apache.calcite.sql.parser.SqlParser$Config");
                Object config = sqlParser.getMethod("config").invoke(null);
                Object factory = Class.forName("org.apache.flink.sql.parser.impl.FlinkSqlParserImpl")
                        .getField("FACTORY").get(null);
                Class<?> factoryClass = Class.forName("org.apache.calcite.sql.parser.SqlParserImplFactory");
                config = configClass.getMethod("withParserFactory", factoryClass).invoke(config, factory);
                Class<?> lex = Class.forName("org.apache.calcite.config.Lex");
                config = configClass.getMethod("withLex", lex).invoke(config, lex.getField("JAVA").get(null));
                Class<?> conformance = Class.forName("org.apache.calcite.sql.validate.SqlConformance");
                Object flinkConformance = Class.forName("org.apache.flink.sql.parser.validate.FlinkSqlConformance")
                        .getField("DEFAULT").get(null);
                config = configClass.getMethod("withConformance", conformance).invoke(config, flinkConformance);
                parserConfig = config;
            }
            Class<?> configClass = Class.forName("org.apache.calcite.sql.parser.SqlParser$Config");
            Object parser = sqlParser.getMethod("create", String.class, configClass).invoke(null, sql, parserConfig);
            sqlParser.getMethod("parseStmtList").invoke(parser);
            return null;
        } catch (java.lang.reflect.InvocationTargetException e) {
            String message = String.valueOf(e.getCause().getMessage());
            return message.split("\n", 2)[0];
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- functions
    static String functions() throws Exception {
        TreeMap<String, String> entries = new TreeMap<>();
        TreeMap<String, List<String>> parts = new TreeMap<>();
        // SHOW FUNCTIONS: the core module's names (what SQL may call by that name)
        Object core = Class.forName("org.apache.flink.table.module.CoreModule").getField("INSTANCE").get(null);
        @SuppressWarnings("unchecked")
        Set<String> shown = (Set<String>) call(core, "listFunctions");
        TreeSet<String> shownUpper = new TreeSet<>();
        for (String name : shown) {
            shownUpper.add(name.toUpperCase());
        }
        // BuiltInFunctionDefinitions: the new type inference, with argument counts and signatures
        Class<?> defs = Class.forName("org.apache.flink.table.functions.BuiltInFunctionDefinitions");
        List<?> definitions = (List<?>) defs.getMethod("getDefinitions").invoke(null);
        for (Object d : definitions) {
            String name = ((String) call(d, "getName")).toUpperCase();
            boolean internal = (Boolean) call(d, "isInternal");
            StringBuilder o = new StringBuilder("{\"source\": \"definition\"");
            o.append(", \"internal\": ").append(internal);
            String kind = String.valueOf(call(d, "getKind"));
            o.append(", \"aggregate\": ").append(kind.equals("AGGREGATE") || kind.equals("TABLE_AGGREGATE"));
            // without a runtime implementation the planner leaves the name to its operator table
            o.append(", \"runtime\": ").append(call(d, "hasRuntimeImplementation"));
            try {
                Object inference = d.getClass().getMethod("getTypeInference",
                        Class.forName("org.apache.flink.table.catalog.DataTypeFactory")).invoke(d, (Object) null);
                Object strategy = call(inference, "getInputTypeStrategy");
                Object count = call(strategy, "getArgumentCount");
                Optional<?> min = (Optional<?>) call(count, "getMinCount");
                Optional<?> max = (Optional<?>) call(count, "getMaxCount");
                o.append(", \"min\": ").append(min.map(String::valueOf).orElse("null"));
                o.append(", \"max\": ").append(max.map(String::valueOf).orElse("null"));
                Class<?> fd = Class.forName("org.apache.flink.table.functions.FunctionDefinition");
                Method expected = strategy.getClass().getMethod("getExpectedSignatures", fd);
                expected.setAccessible(true);
                List<?> signatures = (List<?>) expected.invoke(strategy, d);
                List<String> texts = new ArrayList<>();
                for (Object s : signatures) {
                    texts.add(str(signature(name, s)));
                }
                o.append(", \"signatures\": [").append(String.join(", ", texts)).append("]");
            } catch (Throwable e) {
                o.append(", \"min\": null, \"max\": null, \"signatures\": []");
            }
            o.append("}");
            parts.computeIfAbsent(name, k -> new ArrayList<>()).add(o.toString());
        }
        // the planner's Calcite operator table: operand count ranges
        Class<?> table = Class.forName("org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable");
        Object instance;
        try {
            instance = table.getMethod("instance", boolean.class).invoke(null, false);
        } catch (NoSuchMethodException e) {
            instance = table.getMethod("instance").invoke(null);
        }
        List<?> operators = (List<?>) call(instance, "getOperatorList");
        for (Object op : operators) {
            // every operator, symbols and "$"-names too: the generator decides what SQL can call
            String name = ((String) call(op, "getName")).toUpperCase();
            String syntax = String.valueOf(call(op, "getSyntax"));
            String min = "null";
            String max = "null";
            try {
                Object range = call(op, "getOperandCountRange");
                int lo = (Integer) call(range, "getMin");
                int hi = (Integer) call(range, "getMax");
                min = String.valueOf(lo);
                max = hi < 0 ? "null" : String.valueOf(hi);
            } catch (Throwable e) {
                // no fixed range (the operator checks its operands itself)
                min = "null";
                max = "null";
            }
            parts.computeIfAbsent(name, k -> new ArrayList<>()).add("{\"source\": \"operator\", \"syntax\": "
                    + str(syntax) + ", \"kind\": " + str(String.valueOf(call(op, "getKind")))
                    + ", \"min\": " + min + ", \"max\": " + max
                    + ", \"aggregate\": " + call(op, "isAggregator")
                    + ", \"requires_over\": " + call(op, "requiresOver") + "}");
        }
        for (String name : shownUpper) {
            parts.computeIfAbsent(name, k -> new ArrayList<>());
        }
        for (Map.Entry<String, List<String>> e : parts.entrySet()) {
            entries.put(e.getKey(), "{\"shown\": " + shownUpper.contains(e.getKey()) + ", \"entries\": ["
                    + String.join(", ", e.getValue()) + "]}");
        }
        return object(entries);
    }

    static String signature(String name, Object s) throws Exception {
        List<?> arguments = (List<?>) call(s, "getArguments");
        List<String> texts = new ArrayList<>();
        for (Object a : arguments) {
            String type = (String) call(a, "getType");
            Optional<?> argName = (Optional<?>) call(a, "getName");
            texts.add(argName.map(n -> n + " " + type).orElse(type));
        }
        return name + "(" + String.join(", ", texts) + ")";
    }

    // ---------------------------------------------------------------- types
    static String types(String samplesFile) throws Exception {
        StringBuilder o = new StringBuilder("{\"logical_type_roots\": ");
        List<String> roots = new ArrayList<>();
        for (Object root : Class.forName("org.apache.flink.table.types.logical.LogicalTypeRoot").getEnumConstants()) {
            roots.add(str(root.toString()));
        }
        o.append("[").append(String.join(", ", roots)).append("]");
        List<String> keywords = new ArrayList<>();
        for (Object k : Class.forName("org.apache.flink.table.types.logical.utils.LogicalTypeParser$Keyword")
                .getEnumConstants()) {
            keywords.add(str(k.toString()));
        }
        o.append(", \"type_string_keywords\": [").append(String.join(", ", keywords)).append("]");
        TreeMap<String, String> sql = new TreeMap<>();
        for (String line : Files.readAllLines(new File(samplesFile).toPath(), StandardCharsets.UTF_8)) {
            String[] cells = line.split("\t");
            if (cells.length != 2) {
                continue;
            }
            String error = parseError("CREATE TABLE t (c " + cells[1] + ") WITH ('connector' = 'datagen')");
            sql.put(cells[0], "{\"sample\": " + str(cells[1]) + ", \"parses\": " + (error == null) + "}");
        }
        o.append(", \"sql\": ").append(object(sql)).append("}");
        return o.toString();
    }

    // ---------------------------------------------------------------- built-in functions' result types
    // name -> [the result type of each probe, or null when the planner refused it], in file order
    static String returnTypes(String probesFile) throws Exception {
        org.apache.flink.table.api.TableEnvironment tenv = org.apache.flink.table.api.TableEnvironment.create(
                org.apache.flink.table.api.EnvironmentSettings.inStreamingMode());
        tenv.executeSql("CREATE TABLE t (s STRING, s2 STRING, i INT, b BIGINT, d DOUBLE, n DECIMAL(10, 2), "
                + "ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, bo BOOLEAN, arr ARRAY<INT>, m MAP<STRING, STRING>) "
                + "WITH ('connector' = 'datagen')");
        TreeMap<String, List<String>> found = new TreeMap<>();
        for (String line : Files.readAllLines(new File(probesFile).toPath(), StandardCharsets.UTF_8)) {
            String[] cells = line.split("\t");
            if (cells.length != 2) {
                continue;
            }
            String type;
            try {
                type = str(tenv.sqlQuery("SELECT " + cells[1] + " FROM t").getResolvedSchema()
                        .getColumnDataTypes().get(0).getLogicalType().asSummaryString());
            } catch (Exception e) { // not a call this version takes: recorded as unknown
                type = "null";
            }
            found.computeIfAbsent(cells[0], k -> new ArrayList<>()).add(type);
        }
        TreeMap<String, String> out = new TreeMap<>();
        for (Map.Entry<String, List<String>> e : found.entrySet()) {
            out.put(e.getKey(), "[" + String.join(", ", e.getValue()) + "]");
        }
        return object(out);
    }

    // ---------------------------------------------------------------- implicit casts at a sink
    // target root -> source root -> "yes" | "no" | "depends" (the forms of one root disagree)
    static String sinkCasts(String formsFile) throws Exception {
        List<String[]> forms = new ArrayList<>();
        for (String line : Files.readAllLines(new File(formsFile).toPath(), StandardCharsets.UTF_8)) {
            String[] cells = line.split("\t");
            if (cells.length == 2) {
                forms.add(cells);
            }
        }
        List<String> columns = new ArrayList<>();
        List<String> values = new ArrayList<>();
        for (int i = 0; i < forms.size(); i++) {
            columns.add("c" + i + " " + forms.get(i)[1]);
            values.add("CAST(NULL AS " + forms.get(i)[1] + ") AS c" + i);
        }
        org.apache.flink.table.api.TableEnvironment tenv = org.apache.flink.table.api.TableEnvironment.create(
                org.apache.flink.table.api.EnvironmentSettings.inStreamingMode());
        // the query side is a view of typed NULLs, not a connector's table: every connector serves only some
        // types (1.15's datagen refuses BINARY, which made every INSERT of the probe fail there), and the
        // planner's verdict at a sink reads the query's column types alone
        tenv.executeSql("CREATE TEMPORARY VIEW src AS SELECT " + String.join(", ", values));
        tenv.executeSql("CREATE TABLE snk (" + String.join(", ", columns) + ") WITH ('connector' = 'blackhole')");
        // a pair no form of either root plans is a refusal only when the same INSERT plans between two columns
        // of one type: a probe whose every INSERT fails is broken, not an answer
        for (int i = 0; i < forms.size(); i++) {
            tenv.explainSql("INSERT INTO snk (c" + i + ") SELECT c" + i + " FROM src");
        }
        TreeMap<String, TreeMap<String, Set<Boolean>>> seen = new TreeMap<>();
        for (int j = 0; j < forms.size(); j++) {
            for (int i = 0; i < forms.size(); i++) {
                boolean ok;
                try {
                    tenv.explainSql("INSERT INTO snk (c" + j + ") SELECT c" + i + " FROM src");
                    ok = true;
                } catch (Exception e) { // the planner's refusal is the answer
                    ok = false;
                }
                seen.computeIfAbsent(forms.get(j)[0], k -> new TreeMap<>())
                        .computeIfAbsent(forms.get(i)[0], k -> new TreeSet<>()).add(ok);
            }
        }
        TreeMap<String, String> rows = new TreeMap<>();
        for (Map.Entry<String, TreeMap<String, Set<Boolean>>> target : seen.entrySet()) {
            TreeMap<String, String> row = new TreeMap<>();
            for (Map.Entry<String, Set<Boolean>> source : target.getValue().entrySet()) {
                Set<Boolean> v = source.getValue();
                row.put(source.getKey(), str(v.size() > 1 ? "depends" : v.contains(true) ? "yes" : "no"));
            }
            rows.put(target.getKey(), object(row));
        }
        return object(rows);
    }

    // ---------------------------------------------------------------- configuration options
    static String options() throws Exception {
        TreeMap<String, String> found = new TreeMap<>();
        Set<String> deprecatedKeys = new TreeSet<>();
        Class<?> configOption = Class.forName("org.apache.flink.configuration.ConfigOption");
        for (String path : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!path.endsWith(".jar")) {
                continue;
            }
            try (JarFile jar = new JarFile(path)) {
                Enumeration<JarEntry> entries = jar.entries();
                while (entries.hasMoreElements()) {
                    String entry = entries.nextElement().getName();
                    if (!entry.startsWith("org/apache/flink/") || !entry.endsWith("Options.class")
                            || entry.contains("$") || entry.contains("/shaded/")) {
                        continue;
                    }
                    String className = entry.substring(0, entry.length() - 6).replace('/', '.');
                    Class<?> c;
                    try {
                        c = Class.forName(className);
                    } catch (Throwable e) {
                        continue;
                    }
                    boolean classDeprecated = c.isAnnotationPresent(Deprecated.class);
                    for (Field f : c.getDeclaredFields()) {
                        int m = f.getModifiers();
                        if (!Modifier.isStatic(m) || !configOption.isAssignableFrom(f.getType())) {
                            continue;
                        }
                        try {
                            f.setAccessible(true);
                            Object option = f.get(null);
                            String key = (String) configOption.getMethod("key").invoke(option);
                            boolean deprecated = classDeprecated || f.isAnnotationPresent(Deprecated.class);
                            // a key declared twice (an old class kept beside its successor): the
                            // declaration that is not deprecated wins, else the first one
                            if (found.containsKey(key) && (deprecated || !deprecatedKeys.contains(key))) {
                                continue;
                            }
                            if (deprecated) {
                                deprecatedKeys.add(key);
                            } else {
                                deprecatedKeys.remove(key);
                            }
                            found.put(key, optionJson(option, c.getName() + "." + f.getName(), deprecated));
                        } catch (Throwable e) {
                            // an option class that cannot initialise here: skip it
                        }
                    }
                }
            }
        }
        return object(found);
    }

    static String optionJson(Object option, String where, boolean deprecated) throws Exception {
        Class<?> configOption = Class.forName("org.apache.flink.configuration.ConfigOption");
        StringBuilder o = new StringBuilder("{");
        Method clazz = configOption.getDeclaredMethod("getClazz");
        clazz.setAccessible(true);
        Class<?> type = (Class<?>) clazz.invoke(option);
        Method isList = configOption.getDeclaredMethod("isList");
        isList.setAccessible(true);
        boolean list = (Boolean) isList.invoke(option);
        o.append("\"type\": ").append(str((list ? "List<" : "") + type.getSimpleName() + (list ? ">" : "")));
        if (type.isEnum()) {
            List<String> values = new ArrayList<>();
            for (Object v : type.getEnumConstants()) {
                values.add(str(v.toString()));
            }
            o.append(", \"values\": [").append(String.join(", ", values)).append("]");
        }
        boolean hasDefault = (Boolean) configOption.getMethod("hasDefaultValue").invoke(option);
        Object value = hasDefault ? configOption.getMethod("defaultValue").invoke(option) : null;
        o.append(", \"default\": ").append(value == null ? "null" : str(String.valueOf(value)));
        List<String> fallback = new ArrayList<>();
        List<String> deprecatedKeys = new ArrayList<>();
        for (Object k : (Iterable<?>) configOption.getMethod("fallbackKeys").invoke(option)) {
            String key = (String) call(k, "getKey");
            boolean isDeprecated = (Boolean) call(k, "isDeprecated");
            (isDeprecated ? deprecatedKeys : fallback).add(str(key));
        }
        o.append(", \"fallback_keys\": [").append(String.join(", ", fallback)).append("]");
        o.append(", \"deprecated_keys\": [").append(String.join(", ", deprecatedKeys)).append("]");
        o.append(", \"deprecated\": ").append(deprecated);
        o.append(", \"declared_in\": ").append(str(where)).append("}");
        return o.toString();
    }

    // ---------------------------------------------------------------- table factories
    static String factories() throws Exception {
        Class<?> factory = Class.forName("org.apache.flink.table.factories.Factory");
        TreeMap<String, String> out = new TreeMap<>();
        for (Object f : ServiceLoader.load(factory)) {
            String id = (String) factory.getMethod("factoryIdentifier").invoke(f);
            TreeSet<String> kinds = new TreeSet<>();
            for (String kind : new String[] {"DynamicTableSourceFactory", "DynamicTableSinkFactory",
                    "DeserializationFormatFactory", "SerializationFormatFactory", "BulkReaderFormatFactory",
                    "BulkWriterFormatFactory", "CatalogFactory", "ModuleFactory"}) {
                for (String pkg : new String[] {"org.apache.flink.table.factories.",
                        "org.apache.flink.connector.file.table.factories."}) {
                    try {
                        if (Class.forName(pkg + kind).isInstance(f)) {
                            kinds.add(str(kind));
                        }
                    } catch (ClassNotFoundException e) {
                        // not in this version
                    }
                }
            }
            if (kinds.isEmpty()) {
                continue;
            }
            StringBuilder o = new StringBuilder("{\"class\": ").append(str(f.getClass().getName()));
            o.append(", \"kinds\": [").append(String.join(", ", kinds)).append("]");
            o.append(", \"required\": ").append(optionSet((Set<?>) factory.getMethod("requiredOptions").invoke(f)));
            o.append(", \"optional\": ").append(optionSet((Set<?>) factory.getMethod("optionalOptions").invoke(f)));
            o.append("}");
            String name = id + " " + String.join("+", kinds).replace("\"", "");
            out.put(name, o.toString());
        }
        return object(out);
    }

    static String optionSet(Collection<?> options) throws Exception {
        Class<?> configOption = Class.forName("org.apache.flink.configuration.ConfigOption");
        TreeMap<String, String> byKey = new TreeMap<>();
        for (Object option : options) {
            String key = (String) configOption.getMethod("key").invoke(option);
            byKey.put(key, optionJson(option, "", false));
        }
        return object(byKey);
    }

    // ---------------------------------------------------------------- helpers
    static String flinkVersion() {
        try {
            Class<?> info = Class.forName("org.apache.flink.runtime.util.EnvironmentInformation");
            return (String) info.getMethod("getVersion").invoke(null);
        } catch (Exception e) {
            return "unknown";
        }
    }

    /** Invoke a public no-argument method on an object whose class may be private (a lambda, an inner class). */
    static Object call(Object target, String method) throws Exception {
        Method m = target.getClass().getMethod(method);
        m.setAccessible(true);
        return m.invoke(target);
    }

    static void field(StringBuilder out, String name, String json) {
        out.append(str(name)).append(": ").append(json).append(",\n");
    }

    static String object(Map<String, String> entries) {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            parts.add(str(e.getKey()) + ": " + e.getValue());
        }
        return "{" + String.join(",\n", parts) + "}";
    }

    static String str(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (ch < 0x20) {
                        b.append(String.format("\\u%04x", (int) ch));
                    } else {
                        b.append(ch);
                    }
            }
        }
        return b.append('"').toString();
    }
}
