package flinkx.standin;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.catalog.DataTypeFactory;
import org.apache.flink.table.functions.AggregateFunction;
import org.apache.flink.table.types.inference.TypeInference;
import org.apache.flink.table.types.inference.TypeStrategies;
import org.apache.flink.types.Row;

/**
 * Stands in for a user's aggregate function: the declared arguments (any, when none
 * are declared), the declared result type. It has
 * retract and merge so that it plans on update streams and in session windows, as a complete UDAF
 * would.
 */
public class StandinAggregateFunction extends AggregateFunction<Object, Row> {
    private static final long serialVersionUID = 1L;

    private final String name;
    private final String returnType;
    private final String[] params; // the declared argument types; null: any

    public StandinAggregateFunction(String name, String returnType, String[] params) {
        this.name = name;
        this.returnType = returnType;
        this.params = params;
    }

    @Override
    public Row createAccumulator() {
        return Row.of(0L);
    }

    @Override
    public Object getValue(Row accumulator) {
        return null;
    }

    public void accumulate(Row accumulator, Object... args) {}

    public void retract(Row accumulator, Object... args) {}

    public void merge(Row accumulator, Iterable<Row> others) {}

    public void resetAccumulator(Row accumulator) {}

    @Override
    public TypeInference getTypeInference(DataTypeFactory typeFactory) {
        return StandinTypes.argumentsReturning(typeFactory, params, returnType)
                .accumulatorTypeStrategy(
                        TypeStrategies.explicit(
                                DataTypes.ROW(DataTypes.FIELD("n", DataTypes.BIGINT()))))
                .build();
    }

    @Override
    public String toString() {
        return name;
    }
}
