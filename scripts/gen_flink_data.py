#!/usr/bin/env python3
"""Write flinkx's Flink-derived data files from the real Flink (PyFlink 1.20) on this machine.

    python scripts/gen_flink_data.py [--seed PATH] [--out-dir DIR] [--cache-dir DIR]

Writes, under flinkx_build/data/:

* flink_builtin_functions.txt - built-in function names: SHOW FUNCTIONS (those callable from
  SQL by that name), the planner's SQL operator table (TUMBLE, PROCTIME, CONCAT_WS, ...: SHOW
  FUNCTIONS does not list them) and functions with special SQL syntax (CAST(x AS t), ...). Every
  name is checked against Flink itself.
* flink_reserved_words.json - Flink's documented reserved words (seed 001, section 保留关键字),
  each marked "error" when Flink 1.20's parser rejects it unquoted as an identifier (while the
  backtick-quoted form parses) in at least one of three places, else "warning".
* (flink_sink_casts.json, the implicit casts at a sink, was written here for 1.20; it is now one
  file per version from scripts/gen_flink_facts.py, and the old file stays as the test's record.)
* flink_types.txt - the SQL type names of seed 001's supported-type list (and the synonyms
  Flink documents), each verified in a column definition by Flink's parser.

Needs the [flink] extra and a JDK; takes well under a minute.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from flinkx_build.validate import jvm as jvmlib  # noqa: E402
from flinkx_build.validate.engine import FlinkSession  # noqa: E402
from flinkx_build.validate.engine import flink_available  # noqa: E402

DEFAULT_SEED = REPO.parent / "shared" / "seeds" / "001_90a7bf2ca5333a9b.txt"
IDENTIFIER = re.compile(r"^[A-Z][A-Z0-9_]*$")
_UNKNOWN_FUNCTION = re.compile(r"No match found for function signature [\w$]+\(\)$")
_PARSE_ERROR = re.compile(r"^(Encountered |Incorrect syntax|Non-query expression)")

# Functions whose call syntax is not NAME(arg, ...): a sample call each, checked with the parser.
SYNTAX_SAMPLES = {
    "CAST": "CAST(a AS INT)",
    "TRY_CAST": "TRY_CAST(a AS INT)",
    "EXTRACT": "EXTRACT(YEAR FROM a)",
    "POSITION": "POSITION('x' IN a)",
    "TRIM": "TRIM(BOTH ' ' FROM a)",
    "SUBSTRING": "SUBSTRING(a FROM 1 FOR 2)",
    "OVERLAY": "OVERLAY(a PLACING 'x' FROM 1 FOR 2)",
    "CEIL": "CEIL(a TO DAY)",
    "FLOOR": "FLOOR(a TO DAY)",
    "TIMESTAMPADD": "TIMESTAMPADD(DAY, 1, a)",
    "TIMESTAMPDIFF": "TIMESTAMPDIFF(DAY, a, b)",
    "JSON_VALUE": "JSON_VALUE(a, '$.x' RETURNING INT DEFAULT 0 ON EMPTY)",
    "JSON_QUERY": "JSON_QUERY(a, '$.x' WITH WRAPPER)",
    "JSON_EXISTS": "JSON_EXISTS(a, '$.x' FALSE ON ERROR)",
    "JSON_OBJECT": "JSON_OBJECT(KEY 'k' VALUE a NULL ON NULL)",
    "JSON_ARRAY": "JSON_ARRAY(a, b ABSENT ON NULL)",
    "JSON_OBJECTAGG": "JSON_OBJECTAGG(KEY a VALUE b)",
    "JSON_ARRAYAGG": "JSON_ARRAYAGG(a)",
    "LISTAGG": "LISTAGG(a, ',')",
    "ROW": "ROW(a, b)",
    "ARRAY": "ARRAY[a, b]",
    "MAP": "MAP[a, b]",
    "MULTISET": "MULTISET[a]",
    "CASE": "CASE WHEN a THEN b END",
    "COUNT": "COUNT(*)",
    "COALESCE": "COALESCE(a, b)",
    "NULLIF": "NULLIF(a, b)",
    "IF": "IF(a, b, c)",
    "CURRENT_TIMESTAMP": "CURRENT_TIMESTAMP",
    "CURRENT_DATE": "CURRENT_DATE",
    "CURRENT_TIME": "CURRENT_TIME",
    "LOCALTIME": "LOCALTIME",
    "LOCALTIMESTAMP": "LOCALTIMESTAMP",
    "PROCTIME": "PROCTIME()",
    "NOW": "NOW()",
}
# Group-window functions are only valid in GROUP BY / SELECT of a grouped query.
GROUP_WINDOW = {
    "TUMBLE": "TUMBLE(ts, INTERVAL '1' MINUTE)",
    "HOP": "HOP(ts, INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)",
    "SESSION": "SESSION(ts, INTERVAL '1' MINUTE)",
}
# Window table-valued functions are called in FROM TABLE(...).
WINDOW_TVF = {
    "TUMBLE": "TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)",
    "HOP": "HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE)",
    "CUMULATE": "CUMULATE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '1' HOUR)",
    "SESSION": "SESSION(TABLE t PARTITION BY a, DESCRIPTOR(ts), INTERVAL '1' MINUTE)",
}

# Collection functions called in FROM: CROSS JOIN UNNEST(arr) AS t(x).
FROM_CLAUSE = {
    "UNNEST": "SELECT * FROM t CROSS JOIN UNNEST(t.a) AS u(x)",
}

TYPE_SAMPLES = {
    "CHAR": "CHAR(10)", "VARCHAR": "VARCHAR(10)", "STRING": "STRING", "BOOLEAN": "BOOLEAN",
    "BINARY": "BINARY(8)", "VARBINARY": "VARBINARY(8)", "BYTES": "BYTES",
    "DECIMAL": "DECIMAL(10, 2)", "TINYINT": "TINYINT", "SMALLINT": "SMALLINT",
    "INTEGER": "INTEGER", "BIGINT": "BIGINT", "FLOAT": "FLOAT", "DOUBLE": "DOUBLE",
    "DATE": "DATE", "TIME": "TIME(3)", "TIMESTAMP": "TIMESTAMP(3)",
    "TIMESTAMP_LTZ": "TIMESTAMP_LTZ(3)", "INTERVAL": "INTERVAL DAY TO SECOND(3)",
    "ARRAY": "ARRAY<INT>", "MULTISET": "MULTISET<STRING>", "MAP": "MAP<STRING, INT>",
    "ROW": "ROW<a INT, b STRING>", "RAW": "RAW('java.lang.String', 'AA==')",
}
# Synonyms in Flink's data type documentation, beyond seed 001's list.
TYPE_SYNONYMS = {
    "INT": "INT", "DEC": "DEC(10, 2)", "NUMERIC": "NUMERIC(10, 2)",
    "DOUBLE PRECISION": "DOUBLE PRECISION", "CHARACTER": "CHARACTER(3)",
    "CHARACTER VARYING": "CHARACTER VARYING(3)", "BINARY VARYING": "BINARY VARYING(3)",
    "TIME WITHOUT TIME ZONE": "TIME(0) WITHOUT TIME ZONE",
    "TIMESTAMP WITHOUT TIME ZONE": "TIMESTAMP(3) WITHOUT TIME ZONE",
    "TIMESTAMP WITH LOCAL TIME ZONE": "TIMESTAMP(3) WITH LOCAL TIME ZONE",
    "NULL": "NULL",
}


def seed_section(seed: Path, title: str) -> str:
    """The text of one seed-document section: the line that starts with `title`, up to the
    '父主题' (parent topic) footer."""
    for line in seed.read_text(encoding="utf-8").splitlines():
        if line.startswith(title):
            return line[len(title):].split("父主题")[0]
    raise SystemExit(f"{seed}: no section {title!r}")


def reserved_words_from_seed(seed: Path) -> list[str]:
    text = seed_section(seed, "保留关键字")
    # The list follows the sentence that ends with "例如 `value`, `count` 。".
    text = text.split("。")[-1]
    words = [w.strip() for w in text.split(",") if w.strip()]
    if len(words) < 500:
        raise SystemExit(f"{seed}: expected the ~553-word reserved list, found {len(words)}")
    return words


def types_from_seed(seed: Path) -> list[str]:
    return [w.strip() for w in seed_section(seed, "语法支持类型").split(",") if w.strip()]


def parses(session: FlinkSession, sql: str) -> bool:
    return session.parse_only(sql) is None


def classify_word(session: FlinkSession, word: str) -> str:
    contexts = [
        "SELECT {w} FROM t",
        "CREATE TABLE t ({w} INT) WITH ('connector' = 'datagen')",
        "SELECT a FROM t AS {w}",
    ]
    quoted = "`" + word.replace("`", "``") + "`"
    for template in contexts:
        if not parses(session, template.format(w=word)) and parses(
                session, template.format(w=quoted)):
            return "error"
    return "warning"


def callable_forms(session: FlinkSession, name: str) -> str | None:
    """A call form of `name` Flink's parser accepts in a SELECT list, or None."""
    candidates = [SYNTAX_SAMPLES[name]] if name in SYNTAX_SAMPLES else []
    candidates += [f"{name}(a)", f"{name}(a, b)", f"{name}(a, b, c)", f"{name}()", name]
    for expr in candidates:
        if parses(session, f"SELECT {expr} FROM t"):
            return expr
    if name in GROUP_WINDOW and parses(
            session, f"SELECT COUNT(*) FROM t GROUP BY {GROUP_WINDOW[name]}"):
        return GROUP_WINDOW[name]
    if name in WINDOW_TVF and parses(session, f"SELECT * FROM TABLE({WINDOW_TVF[name]})"):
        return WINDOW_TVF[name]
    if name in FROM_CLAUSE and parses(session, FROM_CLAUSE[name]):
        return FROM_CLAUSE[name]
    return None


def builtin_functions(session: FlinkSession) -> tuple[dict[str, set[str]], list[str]]:
    sources: dict[str, set[str]] = {}
    rejected: list[str] = []
    # 1. SHOW FUNCTIONS: names under which the core module resolves a function from SQL.
    #    A call with no arguments is planned: an unknown name fails with a bare "No match
    #    found for function signature x()" (Table-API-only names such as dateFormat, isNull);
    #    a known one plans, or fails on its arguments ("Supported signatures are: ...",
    #    "Invalid number of arguments"). Names that need special syntax fail to parse and are
    #    left to steps 2 and 3.
    for name in session.show_functions():
        upper = name.upper()
        if not IDENTIFIER.match(upper):
            continue
        error = session.plan_error(f"SELECT {name}()")
        if error is None or not (_UNKNOWN_FUNCTION.search(error) or _PARSE_ERROR.search(error)):
            sources.setdefault(upper, set()).add("show")
    # 2. The planner's operator table: functions with SQL syntax, window functions, etc.
    for name, syntax in session.sql_operators():
        upper = name.upper()
        if not IDENTIFIER.match(upper) or name != upper:
            continue  # $internal, operators such as '+' or 'IS NULL', 'Reinterpret'
        if syntax not in {"FUNCTION", "FUNCTION_ID", "FUNCTION_STAR", "SPECIAL"}:
            continue
        if syntax == "SPECIAL" and upper not in SYNTAX_SAMPLES:
            continue  # CASE-like operators (ITEM, DOT, LIKE, AS) are not functions
        if callable_forms(session, upper) is not None:
            sources.setdefault(upper, set()).add("operator")
        else:
            rejected.append(upper)
    # 3. Special-syntax built-ins, each verified with the parser.
    for name in list(SYNTAX_SAMPLES) + list(WINDOW_TVF) + list(FROM_CLAUSE):
        if callable_forms(session, name) is not None:
            sources.setdefault(name, set()).add("syntax")
        else:
            rejected.append(name)
    return sources, sorted(set(rejected))


def write_functions(path: Path, sources: dict[str, set[str]], version: str) -> None:
    lines = [
        f"# Flink {version} built-in functions, generated by scripts/gen_flink_data.py from "
        f"PyFlink {version}.",
        "# Format: one function per line, NAME<TAB>SOURCES, sorted by NAME (upper case).",
        "# SOURCES, comma-separated: show = listed by SHOW FUNCTIONS and callable by that name "
        "in SQL;",
        "#   operator = in the planner's SQL operator table (SHOW FUNCTIONS omits these);",
        "#   syntax = built-in with special SQL syntax (CAST(x AS t), EXTRACT(u FROM x), "
        "TUMBLE(TABLE t, ...)), checked with Flink's parser.",
    ]
    order = ("show", "operator", "syntax")
    for name in sorted(sources):
        lines.append(f"{name}\t{','.join(s for s in order if s in sources[name])}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=Path, default=DEFAULT_SEED,
                    help="seed 001 (Flink reserved words, supported types)")
    ap.add_argument("--out-dir", type=Path, default=REPO / "flinkx_build" / "data")
    ap.add_argument("--cache-dir", type=Path, default=REPO / ".flinkx-cache")
    args = ap.parse_args()

    reason = flink_available()
    if reason:
        print(f"gen_flink_data: {reason}", file=sys.stderr)
        return 2
    toolchain = jvmlib.find_toolchain()
    assert not isinstance(toolchain, str)
    version = toolchain.flink_version
    seed_name = args.seed.name
    words = reserved_words_from_seed(args.seed)
    types = types_from_seed(args.seed)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    with FlinkSession(Path(args.cache_dir) / "flink-logs") as session:
        sources, rejected = builtin_functions(session)
        write_functions(args.out_dir / "flink_builtin_functions.txt", sources, version)
        print(f"functions: {len(sources)} written; not callable as functions: "
              f"{', '.join(rejected) or '-'}")

        verdicts = {w.upper(): classify_word(session, w) for w in words}
        payload = {
            "generated_by": (
                f"scripts/gen_flink_data.py: the reserved-word list of {seed_name} "
                "(section 保留关键字), each word checked unquoted and backtick-quoted with "
                f"Flink {version}'s SQL parser as a column in SELECT, as a column in CREATE "
                "TABLE and as a table alias; error = rejected unquoted where the quoted form "
                "parses"),
            "flink_version": version,
            "words": dict(sorted(verdicts.items())),
        }
        (args.out_dir / "flink_reserved_words.json").write_text(
            json.dumps(payload, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        errors = sum(1 for v in verdicts.values() if v == "error")
        print(f"reserved words: {len(verdicts)} ({errors} error, {len(verdicts) - errors} "
              "warning)")

        accepted: list[str] = []
        refused: list[str] = []
        for name, source in [(t, "seed") for t in types] + [(t, "flink") for t in TYPE_SYNONYMS]:
            example = TYPE_SAMPLES.get(name) or TYPE_SYNONYMS.get(name) or name
            ddl = f"CREATE TABLE t (c {example}) WITH ('connector' = 'datagen')"
            if parses(session, ddl):
                accepted.append(f"{name}\t{example}\t{source}")
            else:
                refused.append(f"{name} ({example})")
        type_lines = [
            f"# SQL data types Flink {version}'s parser accepts in a column definition, "
            "generated by scripts/gen_flink_data.py.",
            "# Format: NAME<TAB>EXAMPLE<TAB>SOURCE (TAB-separated; NAME may contain spaces). "
            f"SOURCE seed = listed in {seed_name} (语法支持类型),",
            "#   flink = a synonym from Flink's data type documentation. Each EXAMPLE parsed as "
            "CREATE TABLE t (c EXAMPLE) WITH ('connector' = 'datagen').",
            "# Listed but refused by the DDL parser: " + (", ".join(refused) or "none") + ".",
        ] + accepted
        (args.out_dir / "flink_types.txt").write_text("\n".join(type_lines) + "\n",
                                                      encoding="utf-8")
        print(f"types: {len(accepted)} (refused in DDL: {', '.join(refused) or '-'})")

    print(f"done in {time.perf_counter() - began:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
