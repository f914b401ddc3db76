"""Return types of Flink's built-in functions, for the functions whose rule is simple.

A function missing here has an unknown type (no check relies on it). Names are
upper case; `ARG` means "the type of the first argument", `COMMON` "the common
type of the arguments".
"""
from __future__ import annotations

from flinkx_build.flink_data import aggregates_of_any_version
from flinkx_build.flink_data import over_only_of_any_version
from flinkx_build.flink_types import FlinkType
from flinkx_build.flink_types import common_type
from flinkx_build.flink_types import parse_type

# Flink's aggregate functions, and those that read rows around the current one (only over a
# window): from the planner's operator table of every supported version (flink_data)
AGGREGATES = aggregates_of_any_version()
WINDOW_ONLY = over_only_of_any_version()

_FIXED = {
    "STRING": ("LOWER", "UPPER", "TRIM", "LTRIM", "RTRIM", "CONCAT", "CONCAT_WS", "SUBSTRING", "SUBSTR", "REPLACE",
               "REGEXP_REPLACE", "REGEXP_EXTRACT", "DATE_FORMAT", "FROM_UNIXTIME", "MD5", "SHA1", "SHA256", "LPAD",
               "RPAD", "INITCAP", "REVERSE", "SPLIT_INDEX", "JSON_VALUE", "JSON_QUERY", "JSON_STRING", "JSON_OBJECT",
               "JSON_ARRAY", "UUID", "OVERLAY", "LEFT", "RIGHT", "REPEAT", "TO_BASE64", "FROM_BASE64", "HEX",
               "PARSE_URL", "STR_TO_MAP_VALUE", "ELT", "TRANSLATE", "BTRIM", "LISTAGG", "JSON_OBJECTAGG", "JSON_ARRAYAGG"),
    "INT": ("CHAR_LENGTH", "CHARACTER_LENGTH", "POSITION", "LOCATE", "INSTR", "HASH_CODE", "ASCII"),
    "BIGINT NOT NULL": ("COUNT", "ROW_NUMBER", "RANK", "DENSE_RANK", "APPROX_COUNT_DISTINCT"),
    "BIGINT": ("UNIX_TIMESTAMP", "TIMESTAMPDIFF", "EXTRACT", "YEAR", "MONTH", "DAYOFMONTH", "HOUR", "MINUTE", "SECOND",
               "QUARTER", "WEEK", "DAYOFYEAR", "DAYOFWEEK"),
    "DOUBLE": ("POWER", "SQRT", "EXP", "LN", "LOG", "LOG10", "LOG2", "SIN", "COS", "TAN", "RAND", "RADIANS", "DEGREES",
               "STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "PI", "E"),
    "BOOLEAN": ("IS_ALPHA", "IS_DECIMAL", "IS_DIGIT", "REGEXP", "JSON_EXISTS", "ARRAY_CONTAINS"),
    "DATE": ("TO_DATE", "CURRENT_DATE"),
    "TIMESTAMP(3)": ("TO_TIMESTAMP",),
    "TIMESTAMP_LTZ(3) NOT NULL": ("NOW", "CURRENT_TIMESTAMP", "CURRENT_ROW_TIMESTAMP", "PROCTIME", "LOCALTIMESTAMP"),
    "TIMESTAMP_LTZ(3)": ("TO_TIMESTAMP_LTZ",),
}
_BY_NAME: dict[str, str] = {name: text for text, names in _FIXED.items() for name in names}
_LIKE_ARGUMENT = frozenset({"MIN", "MAX", "ABS", "FIRST_VALUE", "LAST_VALUE", "FLOOR", "CEIL", "CEILING", "LEAD", "LAG"})
_COMMON = frozenset({"COALESCE", "IFNULL", "NULLIF", "GREATEST", "LEAST"})


def call_type(name: str, args: list[FlinkType | None], type_text: str = "") -> FlinkType | None:
    """The result type of built-in `name` over arguments of types `args`."""
    if name in ("CAST", "TRY_CAST"):
        result = parse_type(type_text)
        if result is None:
            return None
        nullable = name == "TRY_CAST" or (args[0].nullable if args and args[0] is not None else True)
        return result.with_nullable(nullable)
    if name == "PROCTIME":
        return FlinkType("TIMESTAMP_LTZ", (3,), False, time_attribute="proctime")
    if name in _BY_NAME:
        return parse_type(_BY_NAME[name])
    first = args[0] if args else None
    if name in _LIKE_ARGUMENT:
        return first
    if name in _COMMON:
        out = common_type(args)
        if out is not None and name == "COALESCE":
            return out.with_nullable(all(a is None or a.nullable for a in args))
        return out
    if name == "IF" and len(args) == 3:
        return common_type(args[1:])
    if name == "SUM":
        return _sum(first)
    if name == "AVG":
        return _avg(first)
    if name == "ROUND" and first is not None and first.numeric:
        return first
    return None


def _sum(arg: FlinkType | None) -> FlinkType | None:
    if arg is None or not arg.numeric:
        return None
    if arg.root == "DECIMAL":
        return FlinkType("DECIMAL", (38, arg.precision_scale()[1]))
    return FlinkType(arg.root)


def _avg(arg: FlinkType | None) -> FlinkType | None:
    if arg is None or not arg.numeric:
        return None
    if arg.root == "DECIMAL":
        p, s = arg.precision_scale()
        return FlinkType("DECIMAL", (38, max(6, s)))
    return FlinkType(arg.root)
