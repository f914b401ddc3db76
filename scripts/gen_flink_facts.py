#!/usr/bin/env python3
"""Write one Flink version's facts from that version's own jars.

    python scripts/gen_flink_facts.py [--version V ...] [--lib DIR ...] [--out-root DIR]

`--version V`: a version flinkx supports, its jars as flinkx fetches them (planner/jars.py, once into the
user cache). Each DIR is a lib folder of a Flink release: `pyflink/lib` of an `apache-flink-libraries`
wheel (2.x: `pip download --no-deps --only-binary=:all: apache-flink-libraries==X` and unzip
`pyflink/lib/*`), `deps/lib` of its source archive (1.x), or `lib/` of a Flink distribution. For each, the planner's inner
flink-table-planner.jar is taken out of flink-table-planner-loader, scripts/flink_facts/
FlinkFacts.java is compiled with javac against the jars and run, and its answer is written to
flinkx_build/data/flink/<major.minor>/:

* keywords.json  - every keyword of the SQL parser (its generated token images, via Calcite's
  parser metadata), "error" when the parser rejects it bare as a column or alias while the
  backtick-quoted form parses, else "warning" (a non-reserved keyword).
* functions.json - the names SQL can call (the planner's operator table and the built-in
  function definitions that have a runtime implementation), each with its argument count range
  where every definition of the name states one, the definitions' signatures, and whether it
  is an aggregate (an operator that is an aggregator, a definition of aggregate kind) or a
  function only an OVER window takes (ROW_NUMBER, LAG: the operator requires OVER).
* types.json     - LogicalTypeRoot, the type-string parser's keywords, and which SQL type
  names the DDL parser accepts (TYPE_SAMPLES below, each parsed as a column type).
* options.json   - every ConfigOption declared in a *Options class of the jars: type, enum
  values, default, fallback and deprecated keys, whether the field is @Deprecated.
* factories.json - the table factories the jars ship (connectors and formats) with their
  required and optional options (type and enum values each).
* sink_casts.json - for each pair of column type roots, whether the planner casts a query column
  of the one into a sink column of the other by itself ("yes"), refuses ("no"), or decides by the
  written form ("depends"), each pair planned as `INSERT INTO snk (c) SELECT c FROM src`
  (SINK_CAST_FORMS below, one or more forms per root).
* return_types.json - the result type of the built-in functions whose type does not depend on
  their arguments' types: each name's probe calls (RETURN_TYPE_PROBES below, over columns of
  several types) validated by the planner; a name is written only when every probe gave the same
  type (nullability aside, which is written as the planner gave it for nullable arguments).
* removed.json   - options of the previous generated version that this one no longer knows
  (and, for 2.0, the release notes' list: scripts/flink_facts/release_notes_removed.txt), with
  the replacement where the older jars name one; types and keywords this version adds.

The output depends only on the jars: running it again on the same jars gives the same files
(tests/facts/test_generator.py checks the committed files are current when the jars are here).
Needs a JDK (javac, java).
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from flinkx_build.planner import jars  # noqa: E402
from flinkx_build.targets import TARGETS  # noqa: E402

JAVA_SOURCE = REPO / "scripts" / "flink_facts" / "FlinkFacts.java"
RELEASE_NOTES = REPO / "scripts" / "flink_facts" / "release_notes_removed.txt"
OUT_ROOT = REPO / "flinkx_build" / "data" / "flink"
WORD = re.compile(r"^[A-Z][A-Z0-9_]*$")
GENERATED_BY = "scripts/gen_flink_facts.py from the jars of Apache Flink {version}"

# Candidate type names, each written as a column type: the SQL parser keeps no list of the type
# names it accepts, so each is tried; only those that parse are written.
# One or more written forms per type root; the roots' verdicts must not depend on the form.
SINK_CAST_FORMS = {
    "TINYINT": ["TINYINT"], "SMALLINT": ["SMALLINT"], "INT": ["INT"], "BIGINT": ["BIGINT"],
    "DECIMAL": ["DECIMAL(10, 2)", "DECIMAL(38, 10)", "DECIMAL(5, 0)"], "FLOAT": ["FLOAT"], "DOUBLE": ["DOUBLE"],
    "BOOLEAN": ["BOOLEAN"], "CHAR": ["CHAR(5)", "CHAR(30)"], "VARCHAR": ["VARCHAR(10)", "STRING"],
    "BINARY": ["BINARY(4)"], "VARBINARY": ["VARBINARY(10)", "BYTES"], "DATE": ["DATE"], "TIME": ["TIME(0)"],
    "TIMESTAMP": ["TIMESTAMP(3)", "TIMESTAMP(9)"], "TIMESTAMP_LTZ": ["TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(6)"],
}
# Calls whose result type the planner is asked, over t(s STRING, s2 STRING, i INT, b BIGINT,
# d DOUBLE, n DECIMAL(10, 2), ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), dt DATE, bo BOOLEAN,
# arr ARRAY<INT>, m MAP<STRING, STRING>) (FlinkFacts.returnTypes). Several probes of one name use
# arguments of different types: the name's type is kept only when they agree. These are the
# questions; the answers are the version's.
RETURN_TYPE_PROBES = {
    "LOWER": ["LOWER(s)"], "UPPER": ["UPPER(s)"], "TRIM": ["TRIM(s)"], "LTRIM": ["LTRIM(s)"], "RTRIM": ["RTRIM(s)"],
    "CONCAT": ["CONCAT(s, s2)"], "CONCAT_WS": ["CONCAT_WS('-', s, s2)"], "SUBSTRING": ["SUBSTRING(s, 1, 2)"],
    "SUBSTR": ["SUBSTR(s, 1, 2)"], "REPLACE": ["REPLACE(s, 'a', 'b')"], "REGEXP_REPLACE": ["REGEXP_REPLACE(s, 'a', 'b')"],
    "REGEXP_EXTRACT": ["REGEXP_EXTRACT(s, 'a', 0)"], "DATE_FORMAT": ["DATE_FORMAT(ts, 'yyyy')", "DATE_FORMAT(s, 'yyyy')"],
    "FROM_UNIXTIME": ["FROM_UNIXTIME(b)", "FROM_UNIXTIME(i)"], "MD5": ["MD5(s)"], "SHA1": ["SHA1(s)"],
    "SHA256": ["SHA256(s)"], "LPAD": ["LPAD(s, 2, 'x')"], "RPAD": ["RPAD(s, 2, 'x')"], "INITCAP": ["INITCAP(s)"],
    "REVERSE": ["REVERSE(s)"], "SPLIT_INDEX": ["SPLIT_INDEX(s, ',', 0)"], "JSON_VALUE": ["JSON_VALUE(s, '$.a')"],
    "JSON_QUERY": ["JSON_QUERY(s, '$.a')"], "JSON_STRING": ["JSON_STRING(s)", "JSON_STRING(i)"],
    "JSON_OBJECT": ["JSON_OBJECT('a' VALUE s)", "JSON_OBJECT('a' VALUE i)"], "JSON_ARRAY": ["JSON_ARRAY(s)", "JSON_ARRAY(i)"],
    "UUID": ["UUID()"], "OVERLAY": ["OVERLAY(s PLACING 'x' FROM 1)"], "LEFT": ["LEFT(s, 1)"], "RIGHT": ["RIGHT(s, 1)"],
    "REPEAT": ["REPEAT(s, 2)"], "TO_BASE64": ["TO_BASE64(s)"], "FROM_BASE64": ["FROM_BASE64(s)"], "HEX": ["HEX(s)", "HEX(b)"],
    "PARSE_URL": ["PARSE_URL(s, 'HOST')"], "ELT": ["ELT(1, s, s2)"], "TRANSLATE": ["TRANSLATE(s, 'a', 'b')"],
    "BTRIM": ["BTRIM(s)"], "LISTAGG": ["LISTAGG(s)"], "JSON_OBJECTAGG": ["JSON_OBJECTAGG(KEY s VALUE s2)", "JSON_OBJECTAGG(KEY s VALUE i)"],
    "JSON_ARRAYAGG": ["JSON_ARRAYAGG(s)", "JSON_ARRAYAGG(i)"],
    "CHAR_LENGTH": ["CHAR_LENGTH(s)"], "CHARACTER_LENGTH": ["CHARACTER_LENGTH(s)"], "POSITION": ["POSITION('a' IN s)"],
    "LOCATE": ["LOCATE('a', s)"], "INSTR": ["INSTR(s, 'a')"], "HASH_CODE": ["HASH_CODE(s)", "HASH_CODE(i)"], "ASCII": ["ASCII(s)"],
    "COUNT": ["COUNT(s)", "COUNT(i)"], "ROW_NUMBER": ["ROW_NUMBER() OVER (PARTITION BY s ORDER BY ts)"],
    "RANK": ["RANK() OVER (PARTITION BY s ORDER BY ts)"], "DENSE_RANK": ["DENSE_RANK() OVER (PARTITION BY s ORDER BY ts)"],
    "APPROX_COUNT_DISTINCT": ["APPROX_COUNT_DISTINCT(s)", "APPROX_COUNT_DISTINCT(i)"],
    "UNIX_TIMESTAMP": ["UNIX_TIMESTAMP()", "UNIX_TIMESTAMP(s)"], "TIMESTAMPDIFF": ["TIMESTAMPDIFF(SECOND, ts, ts)", "TIMESTAMPDIFF(DAY, dt, dt)"],
    "EXTRACT": ["EXTRACT(YEAR FROM ts)", "EXTRACT(DAY FROM dt)"], "YEAR": ["YEAR(ts)", "YEAR(dt)"], "MONTH": ["MONTH(ts)", "MONTH(dt)"], "DAYOFMONTH": ["DAYOFMONTH(ts)", "DAYOFMONTH(dt)"],
    "HOUR": ["HOUR(ts)"], "MINUTE": ["MINUTE(ts)"], "SECOND": ["SECOND(ts)"], "QUARTER": ["QUARTER(ts)", "QUARTER(dt)"],
    "WEEK": ["WEEK(ts)", "WEEK(dt)"], "DAYOFYEAR": ["DAYOFYEAR(ts)", "DAYOFYEAR(dt)"], "DAYOFWEEK": ["DAYOFWEEK(ts)", "DAYOFWEEK(dt)"],
    "POWER": ["POWER(d, 2)", "POWER(i, 2)"], "SQRT": ["SQRT(d)", "SQRT(i)"], "EXP": ["EXP(d)", "EXP(i)"], "LN": ["LN(d)", "LN(i)"],
    "LOG": ["LOG(d)", "LOG(i)"], "LOG10": ["LOG10(d)", "LOG10(i)"], "LOG2": ["LOG2(d)", "LOG2(i)"], "SIN": ["SIN(d)", "SIN(i)"],
    "COS": ["COS(d)", "COS(i)"], "TAN": ["TAN(d)", "TAN(i)"], "RAND": ["RAND()"], "RADIANS": ["RADIANS(d)", "RADIANS(i)"],
    "DEGREES": ["DEGREES(d)", "DEGREES(i)"], "STDDEV_POP": ["STDDEV_POP(d)", "STDDEV_POP(i)"],
    "STDDEV_SAMP": ["STDDEV_SAMP(d)", "STDDEV_SAMP(i)"], "VAR_POP": ["VAR_POP(d)", "VAR_POP(i)"],
    "VAR_SAMP": ["VAR_SAMP(d)", "VAR_SAMP(i)"], "PI": ["PI()"], "E": ["E()"],
    "IS_ALPHA": ["IS_ALPHA(s)"], "IS_DECIMAL": ["IS_DECIMAL(s)"], "IS_DIGIT": ["IS_DIGIT(s)"], "REGEXP": ["REGEXP(s, 'a')"],
    "JSON_EXISTS": ["JSON_EXISTS(s, '$.a')"], "ARRAY_CONTAINS": ["ARRAY_CONTAINS(arr, 1)"],
    "TO_DATE": ["TO_DATE(s)", "TO_DATE(s, 'yyyy-MM-dd')"], "CURRENT_DATE": ["CURRENT_DATE"],
    "TO_TIMESTAMP": ["TO_TIMESTAMP(s)", "TO_TIMESTAMP(s, 'yyyy-MM-dd')"], "NOW": ["NOW()"],
    "CURRENT_TIMESTAMP": ["CURRENT_TIMESTAMP"], "CURRENT_ROW_TIMESTAMP": ["CURRENT_ROW_TIMESTAMP()"],
    "LOCALTIMESTAMP": ["LOCALTIMESTAMP"], "TO_TIMESTAMP_LTZ": ["TO_TIMESTAMP_LTZ(b, 3)", "TO_TIMESTAMP_LTZ(i, 0)"],
}
TYPE_SAMPLES = {
    "CHAR": "CHAR(10)", "VARCHAR": "VARCHAR(10)", "STRING": "STRING", "BOOLEAN": "BOOLEAN",
    "BINARY": "BINARY(8)", "VARBINARY": "VARBINARY(8)", "BYTES": "BYTES",
    "DECIMAL": "DECIMAL(10, 2)", "DEC": "DEC(10, 2)", "NUMERIC": "NUMERIC(10, 2)",
    "TINYINT": "TINYINT", "SMALLINT": "SMALLINT", "INT": "INT", "INTEGER": "INTEGER", "BIGINT": "BIGINT",
    "FLOAT": "FLOAT", "DOUBLE": "DOUBLE", "DOUBLE PRECISION": "DOUBLE PRECISION",
    "DATE": "DATE", "TIME": "TIME(3)", "TIMESTAMP": "TIMESTAMP(3)", "TIMESTAMP_LTZ": "TIMESTAMP_LTZ(3)",
    "TIME WITHOUT TIME ZONE": "TIME(0) WITHOUT TIME ZONE",
    "TIMESTAMP WITHOUT TIME ZONE": "TIMESTAMP(3) WITHOUT TIME ZONE",
    "TIMESTAMP WITH LOCAL TIME ZONE": "TIMESTAMP(3) WITH LOCAL TIME ZONE",
    "CHARACTER": "CHARACTER(3)", "CHARACTER VARYING": "CHARACTER VARYING(3)",
    "BINARY VARYING": "BINARY VARYING(3)",
    "INTERVAL": "INTERVAL DAY TO SECOND(3)", "ARRAY": "ARRAY<INT>", "MULTISET": "MULTISET<STRING>",
    "MAP": "MAP<STRING, INT>", "ROW": "ROW<a INT, b STRING>", "RAW": "RAW('java.lang.String', 'AA==')",
    "NULL": "NULL", "VARIANT": "VARIANT", "BITMAP": "BITMAP",
    "STRUCTURED": "STRUCTURED<'com.example.Point', x INT, y INT>",
}
# Operator-table entries written with special syntax that are not functions a query calls by
# name (an alias, a field access, an index, a pattern match, an internal cast).
NOT_CALLED_BY_NAME = {"AS", "DOT", "ITEM", "LIKE", "REINTERPRET"}
CALL_SYNTAX = {"FUNCTION", "FUNCTION_ID", "FUNCTION_STAR", "ORDERED_FUNCTION", "SPECIAL"}
# Calcite names the two null-handling variants of these aggregates; SQL calls the base name.
VARIANT_SUFFIXES = ("_NULL_ON_NULL", "_ABSENT_ON_NULL")
# Functions that exist only as parser syntax (no operator-table entry of that name).
PARSER_FUNCTIONS = ("UNNEST",)


# ------------------------------------------------------------------ running the jars
def planner_jar(lib: Path, work: Path) -> Path:
    loaders = sorted(lib.glob("flink-table-planner-loader-*.jar"))
    if not loaders:
        raise SystemExit(f"gen_flink_facts: {lib} has no flink-table-planner-loader jar")
    with zipfile.ZipFile(loaders[0]) as jar:
        target = work / "flink-table-planner.jar"
        with jar.open("flink-table-planner.jar") as src, target.open("wb") as dst:
            shutil.copyfileobj(src, dst)
    return target


def class_path(lib: Path, work: Path) -> str:
    jars = [str(planner_jar(lib, work))]
    jars += [str(p) for p in sorted(lib.glob("*.jar")) if "planner-loader" not in p.name]
    return ":".join(jars)


def jvm_args(lib: Path) -> tuple[str, ...]:
    """The JVM options of the target whose release the lib folder's flink-dist is (targets.py), else none."""
    for dist in lib.glob("flink-dist*-*.jar"):
        found = re.search(r"-(\d+)\.(\d+)\.", dist.name)
        target = TARGETS.get(f"{found[1]}.{found[2]}") if found else None
        if target is not None:
            return target.jvm_args
    return ()


def run_java(lib: Path) -> dict[str, Any]:
    if not shutil.which("javac") or not shutil.which("java"):
        raise SystemExit("gen_flink_facts: needs a JDK (javac and java on PATH)")
    with tempfile.TemporaryDirectory(prefix="flink-facts-") as tmp:
        work = Path(tmp)
        cp = class_path(lib, work)
        classes = work / "classes"
        classes.mkdir()
        subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", cp, str(JAVA_SOURCE)],
                       check=True, capture_output=True, text=True)
        samples = work / "types.tsv"
        samples.write_text("".join(f"{k}\t{v}\n" for k, v in TYPE_SAMPLES.items()), encoding="utf-8")
        forms = work / "sink_cast_forms.tsv"
        forms.write_text("".join(f"{root}\t{form}\n" for root, written in SINK_CAST_FORMS.items() for form in written),
                         encoding="utf-8")
        probes = work / "return_type_probes.tsv"
        probes.write_text("".join(f"{name}\t{call}\n" for name, calls in RETURN_TYPE_PROBES.items() for call in calls),
                          encoding="utf-8")
        done = subprocess.run(["java", "-Xmx1g", *jvm_args(lib), "-cp", f"{classes}:{cp}", "FlinkFacts", str(samples), str(forms), str(probes)],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise SystemExit(f"gen_flink_facts: FlinkFacts failed:\n{done.stderr[-2000:]}")
        return json.loads(done.stdout)


# ------------------------------------------------------------------ shaping the answer
def keywords(raw: dict[str, Any]) -> dict[str, str]:
    return {word: ("error" if entry["rejected_in"] else "warning") for word, entry in sorted(raw.items())}


def callable_names(name: str) -> list[str]:
    """The names SQL calls an operator-table entry by (none for an operator symbol)."""
    if name.startswith("$"):
        return []  # internal forms; the group-window ones ($TUMBLE) are folded in by `functions`
    for suffix in VARIANT_SUFFIXES:
        if name.endswith(suffix):
            return [name, name[: -len(suffix)]]  # SHOW FUNCTIONS lists the variant, SQL calls the base
    return [name] if WORD.match(name) else []


def functions(raw: dict[str, Any]) -> dict[str, dict[str, Any]]:
    forms: dict[str, list[dict[str, Any]]] = {}
    for name, entry in raw.items():
        for form in entry["entries"]:
            if form["source"] == "operator":
                for called in callable_names(name):
                    if form["syntax"] in CALL_SYNTAX and called not in NOT_CALLED_BY_NAME:
                        forms.setdefault(called, []).append(form)
            elif not form["internal"] and form["runtime"] and WORD.match(name):
                forms.setdefault(name, []).append(form)
    # the group-window form of a window function ($TUMBLE(ts, size)) counts towards TUMBLE's arguments
    for name, entry in raw.items():
        if name.startswith("$") and name[1:] in forms:
            forms[name[1:]].extend(f for f in entry["entries"] if f.get("syntax") == "FUNCTION")
    out: dict[str, dict[str, Any]] = {}
    for name in sorted(set(forms) | set(PARSER_FUNCTIONS)):
        found = forms.get(name, [])
        signatures = sorted({s for form in found for s in form.get("signatures", [])})
        over_only = any(form.get("requires_over") for form in found)
        out[name] = {"arity": arity(found), "signatures": signatures,
                     # ROW_NUMBER, RANK, LAG ... are aggregators to Calcite, but only over a window
                     "aggregate": not over_only and any(form.get("aggregate") for form in found),
                     "over_only": over_only}
    return out


def arity(forms: list[dict[str, Any]]) -> list[int | None] | None:
    """[min, max] over every form of a name (max None: any number), None when one form has no
    fixed range or the name has special call syntax (the parser rewrites its arguments)."""
    if not forms or any(f.get("min") is None or f.get("syntax") == "SPECIAL" for f in forms):
        return None
    low = min(f["min"] for f in forms)
    high = None if any(f.get("max") is None for f in forms) else max(f["max"] for f in forms)
    return [low, high]


def types(raw: dict[str, Any], keyword_set: set[str]) -> dict[str, Any]:
    # the DDL parser reads any bare name as a user-defined type, so a sample counts only when its
    # first word is a type name this version knows (a parser keyword or a type-string keyword)
    known = keyword_set | set(raw["type_string_keywords"])
    sql = {name: entry["sample"] for name, entry in raw["sql"].items()
           if entry["parses"] and name.split()[0] in known}
    return {"logical_type_roots": raw["logical_type_roots"],
            "type_string_keywords": sorted(raw["type_string_keywords"]),
            "sql_types": dict(sorted(sql.items())),
            "refused_samples": sorted(set(raw["sql"]) - set(sql))}


def return_types(raw: dict[str, list[str | None]]) -> dict[str, str]:
    """name -> the type every probe gave (nullability: the first probe's), the names whose probes
    disagree or that the planner refused left out: their type is unknown, never guessed."""
    out = {}
    for name, found in raw.items():
        bare = {t.removesuffix(" NOT NULL") for t in found if t is not None}
        if None not in found and len(bare) == 1:
            out[name] = found[0]
    return out


def factories(raw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, entry in sorted(raw.items()):
        identifier = name.split(" ", 1)[0]
        kinds = entry["kinds"]
        if not any(k.endswith(("TableSourceFactory", "TableSinkFactory", "FormatFactory")) for k in kinds):
            continue
        kind = "connector" if any("Table" in k for k in kinds) else "format"
        merged = out.setdefault(f"{kind}:{identifier}", {"kind": kind, "name": identifier, "kinds": [],
                                                          "required": {}, "optional": {}})
        merged["kinds"] = sorted(set(merged["kinds"]) | set(kinds))
        for part in ("required", "optional"):
            for key, option in entry[part].items():
                merged[part][key] = {k: v for k, v in option.items() if k != "declared_in"}
    return out


def options(raw: dict[str, Any]) -> dict[str, Any]:
    return dict(sorted(raw.items()))


def every_key(opts: dict[str, Any]) -> dict[str, str]:
    """Each key a version reads -> the option's main key (itself for a main key)."""
    keys = {}
    for key, option in opts.items():
        keys[key] = key
        for other in option["fallback_keys"] + option["deprecated_keys"]:
            keys.setdefault(other, key)
    return keys


def removed(previous: dict[str, Any] | None, previous_version: str, current: dict[str, Any],
            version: str, notes: dict[str, str]) -> dict[str, Any]:
    """What moving from `previous_version` to `version` takes away (options) and adds (types, keywords)."""
    out: dict[str, Any] = {"from": previous_version, "options": {}, "types_added": [], "keywords_added": [],
                           "functions_added": []}
    if previous is None:
        return out
    old_keys = every_key(previous["options"])
    new_keys = every_key(current["options"])
    major = version.split(".")[0]
    for key in sorted(set(old_keys) | {k for k, since in notes.items() if since.split(".")[0] == major}):
        if key in new_keys:
            continue
        main = old_keys.get(key)
        replacement = main if main and main != key and main in new_keys else None
        in_notes = key in notes and notes[key].split(".")[0] == major
        evidence = ["jars"] if key in old_keys else []
        evidence += ["release-notes"] if in_notes else []
        out["options"][key] = {"removed_in": notes[key] if in_notes else version,
                               "replacement": replacement, "evidence": evidence}
    out["types_added"] = sorted(set(current["types"]["sql_types"]) - set(previous["types"]["sql_types"]))
    out["keywords_added"] = sorted(w for w, v in current["keywords"].items()
                                   if v == "error" and previous["keywords"].get(w) != "error")
    out["functions_added"] = sorted(set(current["functions"]) - set(previous["functions"]))
    return out


def release_notes() -> dict[str, str]:
    notes: dict[str, str] = {}
    since = ""
    for line in RELEASE_NOTES.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("removed_in "):
            since = line.split()[1]
        else:
            notes[line] = since
    return notes


# ------------------------------------------------------------------ writing
def dump(path: Path, version: str, key: str, value: Any) -> None:
    """One JSON object; each entry of `value` on its own line (readable diffs, no indentation bulk)."""
    lines = [json.dumps(k) + ": " + json.dumps(v, sort_keys=True, ensure_ascii=False)
             for k, v in value.items()]
    head = {"generated_by": GENERATED_BY.format(version=version), "flink_version": version}
    body = ",\n".join(lines)
    text = json.dumps(head, ensure_ascii=False)[:-1] + f', "{key}": {{\n{body}\n}}}}\n'
    path.write_text(text, encoding="utf-8")


def generate(lib: Path, out_root: Path) -> tuple[str, dict[str, Any]]:
    raw = run_java(lib)
    version = raw["flink_version"]
    facts = {"keywords": keywords(raw["keywords"]), "functions": functions(raw["functions"]),
             "types": types(raw["types"], set(raw["keywords"])), "options": options(raw["options"]),
             "factories": factories(raw["factories"]), "sink_casts": raw["sink_casts"],
             "return_types": return_types(raw["return_types"])}
    folder = out_root / ".".join(version.split(".")[:2])
    folder.mkdir(parents=True, exist_ok=True)
    for name, value in facts.items():
        dump(folder / f"{name}.json", version, name if name != "types" else "types", value)
    return version, facts


def load_generated(folder: Path) -> dict[str, Any]:
    facts = {}
    for name in ("keywords", "functions", "types", "options", "factories", "sink_casts", "return_types"):
        facts[name] = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))[name]
    return facts


def minor(version: str) -> tuple[int, int]:
    major, minor_, *_ = (int(p) for p in version.split("."))
    return major, minor_


def write_removed(out_root: Path) -> None:
    """removed.json for every generated version, against the one generated before it."""
    folders = sorted((p for p in out_root.iterdir() if p.is_dir() and re.match(r"^\d+\.\d+$", p.name)),
                     key=lambda p: minor(p.name))
    notes = release_notes()
    previous: dict[str, Any] | None = None
    previous_version = ""
    for folder in folders:
        current = load_generated(folder)
        version = json.loads((folder / "keywords.json").read_text(encoding="utf-8"))["flink_version"]
        result = removed(previous, previous_version, current, folder.name, notes)
        dump(folder / "removed.json", version, "removed", result)
        previous, previous_version = current, folder.name


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", type=Path, action="append", default=[], help="a Flink lib folder (flink-dist-*.jar and the rest)")
    ap.add_argument("--version", action="append", default=[],
                    help="a version flinkx supports: its jars as flinkx fetches them (planner/jars.py)")
    ap.add_argument("--out-root", type=Path, default=OUT_ROOT)
    args = ap.parse_args()
    if not args.lib and not args.version:
        ap.error("give --lib or --version")
    libs = [jars.jars_lib(TARGETS[version]) for version in args.version] + args.lib
    for lib in libs:
        version, facts = generate(lib, args.out_root)
        print(f"gen_flink_facts: Flink {version}: {len(facts['keywords'])} keywords, "
              f"{len(facts['functions'])} functions, {len(facts['options'])} options, "
              f"{len(facts['factories'])} factories")
    write_removed(args.out_root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
