package flinkx.standin;

import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.TableFunction;
import org.apache.flink.table.types.inference.TypeInference;

/** Stands in for a user's table function: any arguments, rows of the declared type. */
public class StandinTableFunction extends TableFunction<Object> {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final String returnType;

    public StandinTableFunction(String name, String returnType) {
        this.name = name;
        this.returnType = returnType;
    }

    public void eval(Object... args) {}

    @Override
    public TypeInference getTypeInference(DataTypeFactory typeFactory) {
        return StandinTypes.anyArgumentsReturning(typeFactory, returnType).build();
    }

    @Override
    public String toString() {
        return name;
    }
}
