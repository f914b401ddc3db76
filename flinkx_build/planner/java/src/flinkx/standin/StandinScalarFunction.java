package flinkx.standin;

import java.util.ArrayList;
import java.util.List;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.inference.TypeInference;

/**
 * Stands in for a user's scalar UDF, whose class is not available to the validator: it takes
 * the arguments the workspace declares (any, when it declares none) and returns the type it declares
 * for the function: NULL, or for {@code flinkx test} the result a test gives for the call's arguments.
 */
public class StandinScalarFunction extends ScalarFunction {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final String returnType;
    private final String[] params; // the declared argument types; null: any
    // flinkx test: [{"args": [text, ...] (absent: any call), "returns": value}], first match wins
    private final String callsJson;
    private DataType resultType; // set while planning, serialized with the function
    private transient List<JsonNode> calls;

    public StandinScalarFunction(String name, String returnType, String[] params, String callsJson) {
        this.name = name;
        this.returnType = returnType;
        this.params = params;
        this.callsJson = callsJson;
    }

    public Object eval(Object... args) {
        if (callsJson == null) {
            return null;
        }
        if (calls == null) {
            calls = new ArrayList<>();
            FixtureValues.parse(callsJson).forEach(calls::add);
        }
        for (JsonNode call : calls) {
            if (matches(call.get("args"), args)) {
                return FixtureValues.toExternal(call.get("returns"), resultType);
            }
        }
        return null;
    }

    /** Arguments compare by their text (FixtureValues.argumentText), NULL only with null. */
    private static boolean matches(JsonNode expected, Object[] args) {
        if (expected == null) {
            return true;
        }
        if (expected.size() != args.length) {
            return false;
        }
        for (int i = 0; i < args.length; i++) {
            JsonNode want = expected.get(i);
            String got = FixtureValues.argumentText(args[i]);
            if (want.isNull() ? got != null : !want.asText().equals(got)) {
                return false;
            }
        }
        return true;
    }

    @Override
    public TypeInference getTypeInference(DataTypeFactory typeFactory) {
        resultType = typeFactory.createDataType(returnType);
        return StandinTypes.argumentsReturning(typeFactory, params, returnType).build();
    }

    @Override
    public String toString() {
        return name;
    }
}
