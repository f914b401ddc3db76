package flinkx.standin;

import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.TableFunction;
import org.apache.flink.table.types.inference.TypeInference;

/** Stands in for a user's table function: the declared arguments (any, when none are declared), rows of the declared type. */
public class StandinTableFunction extends TableFunction<Object> {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final String returnType;
    private final String[] params; // the declared argument types; null: any

    public StandinTableFunction(String name, String returnType, String[] params) {
        this.name = name;
        this.returnType = returnType;
        this.params = params;
    }

    public void eval(Object... args) {}

    @Override
    public TypeInference getTypeInference(DataTypeFactory typeFactory) {
        return StandinTypes.argumentsReturning(typeFactory, params, returnType).build();
    }

    @Override
    public String toString() {
        return name;
    }
}
