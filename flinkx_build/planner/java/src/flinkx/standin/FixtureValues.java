package flinkx.standin;

import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.temporal.TemporalAccessor;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.types.CollectionDataType;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.KeyValueDataType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * The wire format between {@code flinkx test} (Python) and the fixture source and collecting sink.
 *
 * <p>A row is {@code {"kind": "+I", "values": {"column": value}}}. Python has already checked and
 * normalised every value against the column's type, so this side only maps JSON onto the external
 * classes Flink converts from (String, Long, BigDecimal, LocalDateTime, Row, ...): decimals,
 * dates and times arrive as ISO strings, ROW values as arrays in field order, MAP values as
 * arrays of [key, value] pairs. Output uses the same forms, except that ROW values are objects
 * by field name (a sink's DDL may hold only some fields of a family), so Python reads them back
 * by the meta table's full type.
 */
final class FixtureValues {
    private FixtureValues() {}

    static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException("flinkx: unreadable fixture rows: " + e.getMessage(), e);
        }
    }

    /** One fixture row as an external Row of the given fields (missing columns are NULL). */
    static Row toRow(JsonNode row, List<String> names, List<DataType> types) {
        RowKind kind = kind(row.path("kind").asText("+I"));
        JsonNode values = row.path("values");
        Object[] fields = new Object[names.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = toExternal(values.get(names.get(i)), types.get(i));
        }
        return Row.ofKind(kind, fields);
    }

    private static RowKind kind(String shortString) {
        for (RowKind kind : RowKind.values()) {
            if (kind.shortString().equals(shortString)) {
                return kind;
            }
        }
        throw new IllegalArgumentException("flinkx: unknown row kind " + shortString);
    }

    static Object toExternal(JsonNode node, DataType type) {
        if (node == null || node.isNull()) {
            return null;
        }
        switch (type.getLogicalType().getTypeRoot()) {
            case CHAR:
            case VARCHAR:
                return node.asText();
            case BOOLEAN:
                return node.asBoolean();
            case BINARY:
            case VARBINARY:
                return node.asText().getBytes(StandardCharsets.UTF_8);
            case DECIMAL:
                return new BigDecimal(node.asText());
            case TINYINT:
                return (byte) node.asInt();
            case SMALLINT:
                return (short) node.asInt();
            case INTEGER:
                return node.asInt();
            case BIGINT:
                return node.asLong();
            case FLOAT:
                return (float) node.asDouble();
            case DOUBLE:
                return node.asDouble();
            case DATE:
                return LocalDate.parse(node.asText());
            case TIME_WITHOUT_TIME_ZONE:
                return LocalTime.parse(node.asText());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return LocalDateTime.parse(node.asText());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Instant.parse(node.asText());
            case ARRAY:
                return toArray(node, ((CollectionDataType) type).getElementDataType());
            case MAP:
            case MULTISET:
                return toMap(node, type);
            case ROW:
                List<DataType> children = type.getChildren();
                Object[] fields = new Object[children.size()];
                for (int i = 0; i < fields.length; i++) {
                    fields[i] = toExternal(node.get(i), children.get(i));
                }
                return Row.of(fields);
            default:
                throw new IllegalArgumentException(
                        "flinkx test cannot give values of type " + type.getLogicalType());
        }
    }

    private static Object toArray(JsonNode node, DataType element) {
        Object array = Array.newInstance(element.getConversionClass(), node.size());
        for (int i = 0; i < node.size(); i++) {
            Array.set(array, i, toExternal(node.get(i), element));
        }
        return array;
    }

    private static Map<Object, Object> toMap(JsonNode node, DataType type) {
        Map<Object, Object> map = new HashMap<>();
        DataType keyType;
        DataType valueType;
        if (type instanceof KeyValueDataType) {
            keyType = ((KeyValueDataType) type).getKeyDataType();
            valueType = ((KeyValueDataType) type).getValueDataType();
        } else { // MULTISET<T>: element -> count
            keyType = ((CollectionDataType) type).getElementDataType();
            valueType = org.apache.flink.table.api.DataTypes.INT();
        }
        for (JsonNode pair : node) {
            map.put(toExternal(pair.get(0), keyType), toExternal(pair.get(1), valueType));
        }
        return map;
    }

    /**
     * A function argument as a test writes it: timestamps as 'YYYY-MM-DD HH:MM:SS[.f]', decimals
     * as plain numbers, NULL as null.
     */
    static String argumentText(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof LocalDateTime) {
            LocalDateTime time = (LocalDateTime) value;
            return time.toLocalDate() + " "
                    + java.time.format.DateTimeFormatter.ISO_LOCAL_TIME.format(time.toLocalTime());
        }
        if (value instanceof BigDecimal) {
            return ((BigDecimal) value).toPlainString();
        }
        if (value instanceof byte[]) {
            return new String((byte[]) value, StandardCharsets.UTF_8);
        }
        return String.valueOf(value);
    }

    /** One collected row: its kind and its values by column name. */
    static String fromRow(Row row, List<String> names, List<DataType> types) {
        ObjectNode out = NODES.objectNode();
        out.put("kind", row.getKind().shortString());
        ObjectNode values = out.putObject("values");
        for (int i = 0; i < names.size(); i++) {
            values.set(names.get(i), toJson(row.getField(i), types.get(i)));
        }
        return out.toString();
    }

    static JsonNode toJson(Object value, DataType type) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof String) {
            return NODES.textNode((String) value);
        }
        if (value instanceof Boolean) {
            return NODES.booleanNode((Boolean) value);
        }
        if (value instanceof BigDecimal) {
            return NODES.textNode(((BigDecimal) value).toPlainString());
        }
        if (value instanceof Float || value instanceof Double) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? NODES.numberNode(d) : NODES.textNode(Double.toString(d));
        }
        if (value instanceof Number) {
            return NODES.numberNode(((Number) value).longValue());
        }
        if (value instanceof TemporalAccessor) {
            return NODES.textNode(value.toString());
        }
        if (value instanceof byte[]) {
            return NODES.textNode(new String((byte[]) value, StandardCharsets.UTF_8));
        }
        if (value instanceof Row) {
            Row row = (Row) value;
            List<String> fieldNames =
                    ((org.apache.flink.table.types.logical.RowType) type.getLogicalType()).getFieldNames();
            ObjectNode fields = NODES.objectNode();
            for (int i = 0; i < row.getArity(); i++) {
                fields.set(fieldNames.get(i), toJson(row.getField(i), type.getChildren().get(i)));
            }
            return fields;
        }
        if (value.getClass().isArray()) {
            DataType element = ((CollectionDataType) type).getElementDataType();
            ArrayNode items = NODES.arrayNode();
            for (int i = 0; i < Array.getLength(value); i++) {
                items.add(toJson(Array.get(value, i), element));
            }
            return items;
        }
        if (value instanceof Map) {
            DataType keyType = type instanceof KeyValueDataType
                    ? ((KeyValueDataType) type).getKeyDataType() : ((CollectionDataType) type).getElementDataType();
            DataType valueType = type instanceof KeyValueDataType
                    ? ((KeyValueDataType) type).getValueDataType() : org.apache.flink.table.api.DataTypes.INT();
            ArrayNode pairs = NODES.arrayNode();
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                pairs.addArray().add(toJson(entry.getKey(), keyType)).add(toJson(entry.getValue(), valueType));
            }
            return pairs;
        }
        return NODES.textNode(value.toString());
    }
}
