package flinkx.standin;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.types.inference.ArgumentTypeStrategy;
import org.apache.flink.table.types.inference.InputTypeStrategies;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.inference.TypeStrategies;

/**
 * The stand-in functions' shared rules: a stand-in takes the arguments its function's YAML declares
 * ({@code params}), as the user's class would (each argument must be implicitly castable to its
 * declared type, the count must match), or any arguments when none are declared; it returns the
 * declared type.
 */
public final class StandinTypes {
    private StandinTypes() {}

    /** A request's function {"name", "kind", "returns", "params"?}: its declared argument types, or null (any). */
    public static String[] declaredParams(JsonNode udf) {
        JsonNode params = udf == null ? null : udf.get("params");
        if (params == null || !params.isArray()) {
            return null;
        }
        String[] types = new String[params.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = params.get(i).asText();
        }
        return types;
    }

    /** The stand-in of a function of `kind` (scalar | table | aggregate); `callsJson`: a test's results (scalar only). */
    public static UserDefinedFunction function(String kind, String name, String returns, String[] params, String callsJson) {
        return kind.equals("table") ? new StandinTableFunction(name, returns, params)
                : kind.equals("aggregate") ? new StandinAggregateFunction(name, returns, params)
                : new StandinScalarFunction(name, returns, params, callsJson);
    }

    static TypeInference.Builder argumentsReturning(DataTypeFactory typeFactory, String[] params, String returnType) {
        TypeInference.Builder builder = TypeInference.newBuilder()
                .outputTypeStrategy(TypeStrategies.explicit(typeFactory.createDataType(returnType)));
        if (params == null) {
            return builder.inputTypeStrategy(InputTypeStrategies.WILDCARD);
        }
        ArgumentTypeStrategy[] arguments = new ArgumentTypeStrategy[params.length];
        for (int i = 0; i < params.length; i++) {
            arguments[i] = InputTypeStrategies.explicit(typeFactory.createDataType(params[i]));
        }
        return builder.inputTypeStrategy(InputTypeStrategies.sequence(arguments));
    }
}
