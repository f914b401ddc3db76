package flinkx.standin;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.types.DataType;

/**
 * What {@code flinkx test} gives one table: the rows it serves (JSON, see {@link FixtureValues})
 * and, for a sink, the id its changes are collected under ({@link Collected}).
 */
final class Fixture implements Serializable {
    private static final long serialVersionUID = 1L;

    final String rowsJson;
    final String collectId; // null: not collected
    final DataType physicalType;
    private final List<String> physicalNames = new ArrayList<>();
    private final Map<String, String> columnOfKey = new HashMap<>();

    Fixture(String rowsJson, String collectId, ResolvedSchema schema) {
        this.rowsJson = rowsJson;
        this.collectId = collectId;
        this.physicalType = schema.toPhysicalRowDataType();
        for (Column column : schema.getColumns()) {
            if (column.isPhysical()) {
                physicalNames.add(column.getName());
            } else if (column instanceof Column.MetadataColumn) {
                Column.MetadataColumn meta = (Column.MetadataColumn) column;
                columnOfKey.put(meta.getMetadataKey().orElse(meta.getName()), meta.getName());
            }
        }
    }

    /** Column names of the produced (or consumed) row: physical columns, then metadata keys. */
    List<String> names(List<String> metadataKeys) {
        List<String> names = new ArrayList<>(physicalNames);
        for (String key : metadataKeys) {
            names.add(columnOfKey.getOrDefault(key, key));
        }
        return names;
    }
}
