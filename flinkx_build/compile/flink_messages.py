"""Flink's planner errors in Dataphin's words, each with the fix: the one table of Flink message shapes.

The target's planner (FX301 in lint and build, FX300 in validate) answers in Flink's words, about the
compiled script: `default_catalog.default_database.dwd_orders`, "Encountered "\"" at line 36", a
position at the statement's first line. Each `Shape` below recognises one of Flink's messages (the
most frequent ones in the real-SQL corpus and the differential suite, tests/planner/test_flink_messages.py
holds them to each target's real planner), says it about the task (`Words`), names the fix, and says
where the token is when Flink names no position (a lookup join's FOR SYSTEM_TIME AS OF, the comma before
FROM, the SET of a configuration key). A message no shape knows keeps Flink's words.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from flinkx_build.type_text import OTHER_DATABASES_TYPES

Groups = dict[str, str]


@dataclass(frozen=True)
class Words:
    message: str
    hint: str


@dataclass(frozen=True)
class Shape:
    name: str
    pattern: re.Pattern[str]
    words: Callable[[Groups], Words]
    # where the token is, as a pattern searched in the statement's text (format fields: the match's groups),
    # when Flink's position is the statement's start; "" keeps Flink's position
    token: str = ""
    # the token is before Flink's position: the last match of this pattern ending there (a trailing comma)
    before: str = ""
    # the token is the SET of the configuration key in this group (Flink reads configuration when it plans)
    set_key: str = ""
    # where the token is when finding it needs more than a pattern: (the script's text, the statement's text,
    # the match's groups) -> an offset in the statement's text, or None
    locate: Callable[[str, str, Groups], int | None] | None = None


def _shape(name: str, pattern: str, words: Callable[[Groups], Words], **where) -> Shape:  # noqa: ANN003 - Shape's fields
    return Shape(name, re.compile(pattern, re.DOTALL), words, **where)


_TIME_ATTRIBUTES = (re.compile(r"`?(\w+)`?\s+AS\s+PROCTIME\s*\(\s*\)", re.IGNORECASE),
                    re.compile(r"PROCTIME\s*\(\s*\)\s+AS\s+`?(\w+)", re.IGNORECASE),
                    re.compile(r"WATERMARK\s+FOR\s+`?(\w+)", re.IGNORECASE))
_SYSTEM_TIME = re.compile(r"FOR\s+SYSTEM_TIME\s+AS\s+OF\s+([\w.`]+)", re.IGNORECASE)


def _lookup_not_on_a_time_attribute(script: str, text: str, groups: Groups) -> int | None:
    """The FOR SYSTEM_TIME AS OF whose column the script declares no time attribute (no PROCTIME(), no
    watermark); the first one when each names one."""
    times = {m.group(1).lower() for pattern in _TIME_ATTRIBUTES for m in pattern.finditer(script)}
    found = list(_SYSTEM_TIME.finditer(text))
    wrong = [m for m in found if m.group(1).replace("`", "").split(".")[-1].lower() not in times]
    return (wrong or found)[0].start() if found else None


PROCTIME_SET = "SET <project>.<table>.procTime = proc_time AS PROCTIME();"
_QUOTE = "single quotes"


def _count(schema: str) -> str:
    count = len(re.findall(r"(?:^|, )[^,:\[]+: ", schema))
    return f"{count} column{'' if count == 1 else 's'}"


def _duration_or_type(groups: Groups) -> str:
    cause = groups.get("cause", "")
    if "Time interval unit" in cause or "duration" in cause.lower():
        return "a duration: a number and a unit, such as '36 h', '1 d' or '30 min'"
    if "boolean" in cause.lower():
        return "'true' or 'false'"
    if "enum" in cause.lower() or "Could not parse value" in cause:
        return "one of the values Flink's documentation lists for it"
    return "a value of the option's type (Flink's configuration page lists it)"


def _unknown_identifier(groups: Groups) -> Words:
    name = groups["name"]
    meant = OTHER_DATABASES_TYPES.get(name.upper())
    if meant is not None:
        return Words(f"'{name}' is not a Flink data type", f"write {meant}, Flink's type for it")
    return Words(f"unknown name '{name}'", "check the spelling: a column of the table, or a function Flink has")


def _watermark_type(groups: Groups) -> Words:
    return Words(f"a watermark on a {groups['type']} column", "put it on a TIMESTAMP(3) column (a computed column "
                 "TO_TIMESTAMP_LTZ(col, 3) turns epoch milliseconds into one)")


def _unknown_type(groups: Groups) -> Words:
    name = groups["name"]
    meant = OTHER_DATABASES_TYPES.get(name.upper())
    if meant is not None:
        return Words(f"'{name}' is not a Flink data type", f"write {meant}, Flink's type for it")
    return Words(f"'{name}' is not a data type of this Flink version", "use one it has (STRING, INT, DECIMAL(p, s), "
                 "TIMESTAMP(3), ...; flink_version in flinkx.yaml names the version)")


def _encountered(groups: Groups) -> Words:
    token, expected = groups["token"], (groups.get("expected") or "").strip()
    if token == "\\\"":
        return Words("a double-quoted string: Flink reads text in single quotes only", f"write it in {_QUOTE} ('...')")
    if token == "<EOF>":
        return Words("the statement ends too early", "finish the clause the statement stops in (a WHERE, ON or bracket "
                     "without its end)")
    if token.upper() == "COMMENT" and '")"' in expected:
        return Words("a column's type is cut off before COMMENT", "quote a type with a comma in YAML: type: \"DECIMAL(10, 2)\"")
    if re.fullmatch(r"[A-Za-z_]\w*", token):
        return Words(f"Flink's parser does not expect '{token}' here",
                     f"a name that is a reserved word is backtick-quoted (`{token}`); else check the clause before it"
                     + (f" (Flink expects {expected})" if expected else ""))
    return Words(f"Flink's parser does not expect '{token}' here",
                 f"Flink expects {expected} here" if expected else "check the clause before it")


def _incorrect_near(groups: Groups) -> Words:
    word = groups["word"]
    meant = OTHER_DATABASES_TYPES.get(word.upper())
    if meant is not None:
        return Words(f"'{word}' is not a Flink data type", f"write {meant}, Flink's type for it")
    return Words(f"Flink's parser does not expect the keyword {word} here",
                 f"a name that is a reserved word is backtick-quoted (`{word.lower()}`); else check the clause before it")


SHAPES: tuple[Shape, ...] = (
    # -- syntax
    _shape("trailing comma", r"Incorrect syntax near the keyword '(?P<word>FROM|WHERE|GROUP|ORDER|HAVING|UNION|\))'",
           lambda g: Words(f"a comma right before {g['word']}: the list before it ends with ','",
                           "remove the trailing comma"), before=r",(?=\s*(?:--[^\n]*\n\s*)*$)"),
    _shape("keyword", r"Incorrect syntax near the keyword '(?P<word>[^']+)'", _incorrect_near),
    _shape("encountered", r'Encountered "(?P<token>.*?)" at (?:[^"]*?)line \d+, column \d+\.(?: Was expecting(?: one of)?:? '
                          r'(?P<expected>.*))?', _encountered),
    _shape("lexical", r'Lexical error at line \d+, column \d+\.\s+Encountered: "(?P<char>.*?)"',
           lambda g: Words(f"'{g['char']}' is no SQL Flink reads", "remove it; a comment starts with -- or /*")),
    _shape("not a statement", r"Non-query expression encountered in illegal context",
           lambda g: Words("Flink's parser does not know how this statement starts",
                           "start it with a statement Flink has (SELECT, INSERT, CREATE, SET, ...): a misspelt keyword?")),
    # -- names
    _shape("column in table", r"Column '(?P<column>[^']+)' not found in table '(?P<table>[^']+)'",
           lambda g: Words(f"unknown column '{g['column']}' in {g['table']}",
                           "check the name against the table's columns (flinkx explain lists them)")),
    _shape("column", r"Column '(?P<column>[^']+)' not found in any table",
           lambda g: Words(f"unknown column '{g['column']}'",
                           "check the name against the query's tables (flinkx explain lists their columns)")),
    _shape("ambiguous column", r"Column '(?P<column>[^']+)' is ambiguous",
           lambda g: Words(f"column '{g['column']}' is in more than one table of the query", "qualify it with its table's alias")),
    _shape("table", r"Object '(?P<table>[^']+)' not found",
           lambda g: Words(f"unknown table or view '{g['table']}'",
                           "declare it as a meta table (projects/<project>/tables/*.yaml), or create it in the task first")),
    _shape("table in catalog", r"Table (?P<table>\S+) doesn't exist or is a temporary table|Table with identifier '(?P<t2>[^']+)' "
                               r"does not exist",
           lambda g: Words(f"unknown table {g.get('table') or g.get('t2')}",
                           "a task names a meta table as project.table (projects/<project>/tables/*.yaml), or a table it creates")),
    _shape("catalog", r"A catalog with name \[(?P<c1>[^\]]+)\] does not exist|Catalog (?P<c2>\S+) does not exist",
           lambda g: Words(f"unknown catalog '{g.get('c1') or g.get('c2')}'",
                           "a task reads meta tables as project.table; flinkx does not create catalogs (FX195)")),
    _shape("database", r"A database with name \[(?P<database>[^\]]+)\] does not exist",
           lambda g: Words(f"unknown database '{g['database']}'", "a task names a meta table as project.table, not database.table")),
    _shape("sink table", r"Cannot find table '(?P<table>[^']+)' in any of the catalogs",
           lambda g: Words(f"unknown table {g['table']}",
                           "declare it as a meta table (projects/<project>/tables/*.yaml), or create it in the task first")),
    _shape("view as sink", r"Sink '(?P<table>[^']+)' does not exists",
           lambda g: Words(f"{g['table']} is a view: a view cannot be written", "INSERT INTO a table")),
    _shape("already exists", r"(?:Temporary table '(?P<t1>[^']+)'|Table \(or view\) (?P<t2>\S+)) already exists",
           lambda g: Words(f"{g.get('t1') or g.get('t2')} is created twice", "create it once (or drop the second CREATE)")),
    _shape("target column", r"Unknown target column '(?P<column>[^']+)'",
           lambda g: Words(f"the INSERT's column list names '{g['column']}', which the sink does not have",
                           "name columns of the sink")),
    _shape("target twice", r"Target column '(?P<column>[^']+)' is assigned more than once",
           lambda g: Words(f"the INSERT's column list names '{g['column']}' twice", "name each sink column once")),
    _shape("unknown identifier", r"Unknown identifier '(?P<name>[^']+)'", _unknown_identifier, token=r"\b{name}\b"),
    # 1.15's planner names a type it does not know by the parser's node class
    _shape("unknown type", r"^class org\.apache\.calcite\.sql\.SqlIdentifier: (?P<name>\w+)$", _unknown_type,
           token=r"\b{name}\b"),
    # -- functions and types
    _shape("default value", r"No match found for function signature DEFAULT\b",
           lambda g: Words("DEFAULT is no value in Flink: a column has no default", "write the value (or NULL)")),
    _shape("function signature", r"No match found for function signature (?P<function>[\w$]+)\((?P<args>.*?)\)",
           lambda g: Words(f"no function {g['function']} takes ({g['args']})",
                           "check the name and the arguments; a project function is called as project:function")),
    _shape("argument types", r"Invalid function call:\s*(?:`?\w+`?\.)*`?(?P<name>\w+)`?\((?P<args>[^)]*)\).*?Expected signatures are:"
                             r"\s*(?P<expected>[^\n]*?)\s*(?:--|\n|$)",
           lambda g: Words(f"{g['name']} cannot take ({g['args']}): it takes {without_catalog(g['expected']).replace('`', '')}",
                           "CAST each argument to the type its signature names (a project function's signature is the "
                           "params of its YAML)"), token=r"\b{name}\s*\("),
    _shape("argument count", r"Invalid number of arguments to function '(?P<function>[^']+)'\. Was expecting (?P<count>\d+) arguments",
           lambda g: Words(f"{g['function']} takes {g['count']} arguments", f"call it with {g['count']} arguments")),
    _shape("operand types", r"Cannot apply '(?P<operator>[^']+)' to arguments of type '(?P<types>[^']+)'\. Supported form\(s\): (?P<forms>.*)",
           lambda g: Words(f"{g['operator']} cannot take {g['types']}",
                           f"CAST the operands to types it takes: {g['forms'].strip()}")),
    _shape("cast", r"Cast function cannot convert value of type (?P<source>.+?) to type (?P<target>\S+)",
           lambda g: Words(f"{g['source'].replace(' *ROWTIME*', '').replace(' *PROCTIME*', '')} cannot be cast to {g['target']}",
                           "convert it with a function (DATE_FORMAT, TO_TIMESTAMP, UNIX_TIMESTAMP, ...) or cast through STRING")),
    _shape("values types", r"Values passed to VALUES operator must have compatible types",
           lambda g: Words("the rows of VALUES differ in their number or types of values",
                           "give every row the same number of values, of the same types")),
    # -- the INSERT and its sink
    _shape("sink column count", r"Column types of query result and sink for '(?P<table>[^']+)' do not match\. Cause: Different "
                                r"number of columns\.(?: Query schema: \[(?P<query>.*?)\] Sink schema: +\[(?P<sink>.*?)\])?",
           lambda g: Words(f"INSERT INTO {g['table']} writes {_count(g.get('query', ''))}, the sink has "
                           f"{_count(g.get('sink', ''))}" if "sink" in g else f"INSERT INTO {g['table']} writes another number "
                           "of columns than the sink has", "select one expression per sink column, in the sink's order"
                           + (f": {g['sink']}" if "sink" in g else ""))),
    _shape("sink column type", r"Column types of query result and sink for '(?P<table>[^']+)' do not match\. Cause: Incompatible "
                               r"types for sink column '(?P<column>[^']+)' at position (?P<position>\d+)",
           lambda g: Words(f"column {int(g['position']) + 1} of the query does not fit the sink column '{g['column']}' of "
                           f"{g['table']}", "CAST it to the sink column's type, or select the columns in the sink's order")),
    _shape("update into append-only sink", r"Table sink '(?P<table>[^']+)' doesn't support consuming update changes which is "
                                           r"produced by node (?P<node>\w+)",
           lambda g: Words(f"{g['table']} can only append, and the query updates its rows ({g['node']})",
                           "write to an upsert table (a primary key on an upsert connector: upsert-kafka, jdbc), or make the "
                           "query insert-only (a window aggregate)")),
    _shape("upsert key", r"The query has an upsert key that differs from the primary key of the sink table '(?P<table>[^']+)'",
           lambda g: Words(f"the query's upsert key differs from the primary key of {g['table']}",
                           "group by the sink's primary key, or add ON CONFLICT DO DEDUPLICATE after the query")),
    _shape("statement set", r"Only INSERT statements are allowed in a statement set",
           lambda g: Words("a statement set holds INSERTs only", "close the statement set with END before other statements")),
    # -- grouping
    _shape("not grouped", r"Expression '(?P<expression>[^']+)' is not being grouped",
           lambda g: Words(f"'{g['expression']}' is neither grouped nor aggregated",
                           f"add it to the GROUP BY, or aggregate it (LAST_VALUE({g['expression']}))")),
    _shape("aggregate in clause", r"Aggregate expression is illegal in (?P<clause>\w+(?: BY)?) clause",
           lambda g: Words(f"an aggregate in {g['clause']}", "a condition on an aggregate goes in HAVING")),
    _shape("set operation columns", r"Column count mismatch in (?P<operator>UNION ALL|UNION|INTERSECT|EXCEPT)",
           lambda g: Words(f"the branches of {g['operator']} select different numbers of columns",
                           "select the same columns, in the same order, in every branch")),
    # -- joins
    _shape("lookup time column", r"Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time "
                                 r"attribute field",
           lambda g: Words("FOR SYSTEM_TIME AS OF names a column that is not a time attribute of the probe side",
                           f"use the probe side's processing-time column ({PROCTIME_SET})"),
           locate=_lookup_not_on_a_time_attribute),
    _shape("lookup time type", r"The system time period specification expects Timestamp type but is '(?P<type>[^']+)'",
           lambda g: Words(f"FOR SYSTEM_TIME AS OF names a {g['type']} column, not a time column",
                           f"use the probe side's processing-time column ({PROCTIME_SET})"),
           locate=_lookup_not_on_a_time_attribute),
    _shape("event-time join", r"Event-Time Temporal Table Join requires both primary key and row time attribute in versioned "
                              r"table, but no (?P<missing>row time attribute|primary key)",
           lambda g: Words(f"FOR SYSTEM_TIME AS OF an event-time column joins a versioned table, and the dimension has no "
                           f"{g['missing']}", f"for a lookup join use a processing-time column ({PROCTIME_SET})"),
           locate=_lookup_not_on_a_time_attribute),
    _shape("lookup key type", r"implicit type conversion between (?P<left>.+?) and (?P<right>.+?) is not supported on join's "
                              r"condition now",
           lambda g: Words(f"a join key compares {g['left']} with {g['right']}",
                           "CAST one side of the ON condition to the other's type"), token=r"\bON\b"),
    _shape("lookup without equality", r"Temporal table join requires an equality condition on fields of table \[(?P<table>[^\]]+)\]",
           lambda g: Words(f"the lookup join has no equality on a column of {g['table']}",
                           f"join ON an equality with a column of {g['table']} (its key)"), token=r"FOR\s+SYSTEM_TIME\s+AS\s+OF"),
    _shape("join condition", r"INNER, LEFT, RIGHT or FULL join requires a condition",
           lambda g: Words("the join has no condition", "add ON ... (or write CROSS JOIN)")),
    # -- time
    _shape("streaming sort", r"Sort on a non-time-attribute field is not supported",
           lambda g: Words("a streaming ORDER BY must start with a time attribute",
                           "order by the time attribute first, add a LIMIT (a Top-N), or run the task in batch mode"),
           token=r"ORDER\s+BY"),
    _shape("window time column", r"The window function (?P<window>\w+)\(.*?requires the timecol (?:to be|is) .*?but is "
                                 r"(?P<type>[^.]+(?:\.\d+)?[^.]*)\.",
           lambda g: Words(f"{g['window']}'s DESCRIPTOR names a {g['type']} column, not a time attribute",
                           "DESCRIPTOR a time attribute: a TIMESTAMP(3) column with a watermark (SET ...`watermark`), or a "
                           "PROCTIME() column"), token=r"DESCRIPTOR\s*\("),
    _shape("watermark type", r"Invalid data type of time field for watermark definition\..*the time field type is (?P<type>\S+)",
           _watermark_type, token=r"WATERMARK\s+FOR"),
    _shape("rowtime type", r"Rowtime attribute '[^']+' must be of type TIMESTAMP or TIMESTAMP_LTZ but is of type "
                           r"'(?P<type>[^']+)'", _watermark_type, token=r"WATERMARK\s+FOR"),  # 1.15's words for it
    _shape("primary key column", r"Primary key column '(?P<column>[^']+)' is not defined in the schema",
           lambda g: Words(f"the primary key names '{g['column']}', which is no column of the table",
                           "name columns of the table in PRIMARY KEY (SET ...primarykey takes them too)")),
    _shape("hint table", r"The options of following hints cannot match the name of input tables or views: (?P<names>.*)",
           lambda g: Words(f"a join hint names no table of its query: {g['names'].strip()}",
                           "name the table (or its alias) the hint is about, as the query writes it")),
    _shape("primary key mode", r"Flink doesn't support ENFORCED mode for PRIMARY KEY constraint",
           lambda g: Words("a primary key Flink would have to enforce", "write PRIMARY KEY (...) NOT ENFORCED"),
           token=r"PRIMARY\s+KEY"),
    # -- configuration
    _shape("configuration value", r"Could not parse value '(?P<value>[^']*)' for key '(?P<key>[^']+)'\.(?P<cause>.*)",
           lambda g: Words(f"'{g['value']}' is not a value of {g['key']}", f"give it {_duration_or_type(g)}"), set_key="key"),
)


def shape_of(message: str) -> tuple[Shape, Groups] | None:
    """The first shape whose pattern matches Flink's message (searched, not anchored: Flink prefixes some)."""
    for shape in SHAPES:
        found = shape.pattern.search(message)
        if found is not None:
            return shape, {k: v for k, v in found.groupdict().items() if v is not None}
    return None


def without_catalog(name: str) -> str:
    """`default_catalog`.`default_database`.`t` -> t: the catalog path Flink adds to every name."""
    return re.sub(r"`?default_catalog`?\.`?default_database`?\.", "", name).strip("`")
