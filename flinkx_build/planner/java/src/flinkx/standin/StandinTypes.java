package flinkx.standin;

import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.types.inference.InputTypeStrategies;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.inference.TypeStrategies;

/** The type inference every stand-in function shares: any arguments, the declared result. */
final class StandinTypes {
    private StandinTypes() {}

    static TypeInference.Builder anyArgumentsReturning(DataTypeFactory typeFactory, String returnType) {
        return TypeInference.newBuilder()
                .inputTypeStrategy(InputTypeStrategies.WILDCARD)
                .outputTypeStrategy(TypeStrategies.explicit(typeFactory.createDataType(returnType)));
    }
}
