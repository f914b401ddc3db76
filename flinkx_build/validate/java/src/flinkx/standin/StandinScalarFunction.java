package flinkx.standin;

import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.table.types.inference.TypeInference;

/**
 * Stands in for a user's scalar UDF, whose class is not available to the validator: it accepts
 * any arguments and returns the type the workspace declares for the function.
 */
public class StandinScalarFunction extends ScalarFunction {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final String returnType;

    public StandinScalarFunction(String name, String returnType) {
        this.name = name;
        this.returnType = returnType;
    }

    public Object eval(Object... args) {
        return null;
    }

    @Override
    public TypeInference getTypeInference(DataTypeFactory typeFactory) {
        return StandinTypes.anyArgumentsReturning(typeFactory, returnType).build();
    }

    @Override
    public String toString() {
        return name;
    }
}
