#!/usr/bin/env python3
"""Gather, check and measure the real-SQL corpus (tests/fixtures/corpus/, issue 28 item 3).

    python scripts/real_sql_corpus.py gather --mirror DIR --raw DIR
    python scripts/real_sql_corpus.py check --raw DIR [--out tests/fixtures/corpus]
    python scripts/real_sql_corpus.py measure [--corpus tests/fixtures/corpus]

gather: one script per source file (a documentation page's `sql` blocks in order; nexmark's
  DDL, views and query concatenated as its runner submits them) from git mirrors of the public
  repositories in SOURCES (`DIR/<owner>+<name>/repo`, bare; e.g. `git clone --mirror`).
check: every script through Flink 1.20.5 (flinkx's validate engine: queries and INSERTs planned,
  DDL executed with the stand-in connector, so a missing connector jar never rejects a statement).
  A statement Flink rejects is dropped and the script checked again, until Flink accepts the rest;
  statements the engine can only parse here (SHOW, CALL, UPDATE, DELETE, another catalog's
  factory...) and the ones flinkx refuses by design (BY_DESIGN) are left out too. Writes the kept
  statements verbatim and a MANIFEST.json per source with every statement's origin and fate.
measure: lints the corpus as one workspace (a project per source, a task per file) and prints,
  per source, the statements with an error finding (a false alarm: Flink accepted each of them).

gather and check need the [flink] extra and a JDK (check only); measure runs flinkx in-process.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from flinkx_build.frontend.splitter import Chunk  # noqa: E402
from flinkx_build.frontend.splitter import split_statements  # noqa: E402
from flinkx_build.frontend.splitter import strip_comments  # noqa: E402
from tests.corpus.workspace import corpus_workspace  # noqa: E402

from tests.corpus.workspace import CORPUS  # noqa: E402
LICENSE = "Apache-2.0"
# source folder -> (repositories, the files to read: a regular expression on their path)
SOURCES: dict[str, tuple[tuple[str, ...], str]] = {
    "nexmark": (("nexmark/nexmark",), r"^nexmark-flink/src/main/resources/queries(-cep)?/q\d+\.sql$"),
    "flink-cdc-docs": (("apache/flink-cdc",), r"^docs/content/docs/connectors/flink-sources/.*\.md$"),
    "paimon-docs": (("apache/paimon",),
                    r"^docs/docs/(flink/.*|primary-key-table/.*|append-table/.*|concepts/.*|maintenance/.*|learn-paimon/.*|"
                    r"multimodal-table/.*|migration/.*|iceberg/.*|cdc-ingestion/.*)\.mdx?$"),
    "fluss-docs": (("apache/fluss",), r"^website/docs/(engine-flink|table-design|quickstart|streaming-lakehouse|install-deploy|maintenance)/.*\.mdx?$"),
    "flink-connector-docs": (("apache/flink-connector-jdbc", "apache/flink-connector-kafka", "apache/flink-connector-mongodb",
                              "apache/flink-connector-hbase", "apache/flink-connector-elasticsearch",
                              "apache/flink-connector-aws", "apache/flink-connector-opensearch", "apache/flink-connector-pulsar"),
                             r"^docs/content/docs/connectors/table/.*\.md$"),
    "iceberg-docs": (("apache/iceberg",), r"^docs/docs/flink.*\.md$"),
    "flink-blog": (("apache/flink-web",), r"^docs/content/posts/.*\.md$"),
    "flink-sql-runner": (("apache/flink-kubernetes-operator",), r"^examples/flink-sql-runner-example/sql-scripts/.*\.sql$"),
    "streamshub-examples": (("streamshub/flink-sql-examples",), r"^docs/.*\.md$"),
    "datasqrl-runner": (("DataSQRL/flink-sql-runner",), r"^flink-sql-runner/src/test/resources/sql/.*\.sql$"),
    # the plain-Flink examples and the SQL of Decodable's pipelines; the databases' own SQL left out (init
    # scripts, a MySQL dump, a page of MySQL session statements: Flink's parser takes some, none is Flink SQL)
    "decodable-examples": (("decodableco/examples",),
                           r"^(?!.*(/postgres/|/mysql/|/db/|commands\.sql|failover-slots|replication-config|inventory\.orig\.sql|"
                           r"tx-aware-cdc-buffering/))[^/]+/.*\.(sql|md)$"),
    "flink-faker": (("knaufk/flink-faker",), r"^README\.md$"),
    "lakesoul-docs": (("lakesoul-io/LakeSoul",), r"^website/docs/.*\.mdx?$"),
    "oceanbase-connector-docs": (("oceanbase/flink-connector-oceanbase",), r"^docs/sink/[^/]*(?<!_cn)\.md$"),  # not the Chinese copies
    # apache/flink is over the snapshot size `fetch` brings, so its files come one by one from the
    # code index: DIR/apache+flink/files/<path>, their commits in DIR/apache+flink/files.json
    "flink-docs": (("apache/flink",), r"^docs/content/docs/(dev|connectors)/table/.*\.md$"),
    "flink-sql-client-tests": (("apache/flink",), r"^flink-table/flink-sql-(client|gateway)/src/test/resources/sql/.*\.q$"),
}
# nexmark's QueryRunner replaces these before it submits a query (its ${VAR}s are not SQL)
NEXMARK_VARS = {"NEXMARK_TABLE": "datagen", "TPS": "10000000", "EVENTS_NUM": "0", "PERSON_PROPORTION": "1",
                "AUCTION_PROPORTION": "3", "BID_PROPORTION": "46", "BOOTSTRAP_SERVERS": "localhost:9092",
                "NEXMARK_DIR": "/opt/nexmark", "SUBMIT_TIME": "2026-01-01T00:00", "FLINK_HOME": "/opt/flink"}
# statements Flink accepts that flinkx refuses by design (docs/decisions.md, "Real SQL corpus")
BY_DESIGN = (
    (re.compile(r"^\s*RESET\b", re.I), "RESET is a SQL client statement flinkx refuses in a task (frontend/client_statements.py)"),
    (re.compile(r"^\s*SET\s+(spark|paimon)\.", re.I),
     "an unquoted SET of another system's key: Dataphin reads `SET t.option` as table t's option (FX130); quoted, "
     "it is an engine setting flinkx refuses (FX196)"),
)
# what the validate engine checks beyond parsing (planner/java/.../ScriptPlanner.java): planned, executed with the stand-in, or applied
CHECKED = {"RichSqlInsert", "SqlInsert", "SqlCreateTable", "SqlCreateTableLike", "SqlCreateTableAs", "SqlReplaceTableAs",
           "SqlCreateView", "SqlCreateDatabase", "SqlAlterDatabase", "SqlUseDatabase", "SqlUseCatalog", "SqlDropTable",
           "SqlDropView", "SqlDropDatabase", "SqlSet", "SetOperation", "SqlBeginStatementSet", "SqlEndStatementSet",
           "SqlExecute", "SqlAlterViewAs", "SqlAlterViewRename"}
QUERY_KINDS = {"SELECT", "UNION", "INTERSECT", "EXCEPT", "MINUS", "VALUES", "WITH", "ORDER_BY", "EXPLICIT_TABLE"}
JOB_CLASSES = {"RichSqlInsert", "SqlInsert", "SqlCreateTableAs", "SqlReplaceTableAs", "SqlExecute", "query"}
# Flink's messages for a name nobody defined in the script (the page assumes a table or catalog made
# elsewhere): valid SQL, left out because no check can run without that table
MISSING = re.compile(r"Object '[^']*' not found|Cannot find table|does not exist|doesn't exist|not found in catalog|No catalog", re.I)
# a job statement by its text (measure runs without Flink): a query, an INSERT, CTAS
JOB = re.compile(r"\s*(\(\s*)*(SELECT|WITH|VALUES|INSERT|TABLE\s|CREATE\s+(TEMPORARY\s+)?TABLE\s[^(]*?\bAS\s+(SELECT|WITH)\b)", re.I)
FENCE = re.compile(r"^\s*```+\s*([\w-]*)")
# the SQL client's and gateway's test scripts (*.q): a statement, its output, then the verdict line
Q_VERDICT = re.compile(r"^!(ok|info|error)\s*$")
FETCHED_ONE_BY_ONE = ("; the file was read through a code index at that commit (the repository is over the snapshot size the"
                      " fetch tool brings) and only the SQL gather reads was copied: a page's sql blocks, a test script's"
                      " statements with their verdict lines")
SET_BLOCK = re.compile(r"\s*(EXPLAIN|EXECUTE)\s+STATEMENT\s+SET\b", re.I)


# --- gather ---------------------------------------------------------------------------------------

def _git(mirror: Path, repo: str, *args: str) -> str:
    folder = mirror / repo.replace("/", "+")
    if not (folder / "repo").exists():  # fetched file by file: answer the three questions gather asks
        return _from_files(folder, *args)
    return subprocess.run(["git", "-C", str(folder / "repo"), *args], capture_output=True, text=True, check=True).stdout


def _from_files(folder: Path, *args: str) -> str:
    commits: dict[str, str] = json.loads((folder / "files.json").read_text())
    if args[0] == "ls-tree":
        return "\n".join(sorted(commits) if "-r" in args else ["LICENSE", "NOTICE"]) + "\n"
    if args[0] == "show":
        return (folder / "files" / args[1].split(":", 1)[1]).read_text(encoding="utf-8")
    raise ValueError(args)


def _commit(mirror: Path, repo: str, path: str) -> str:
    files = mirror / repo.replace("/", "+") / "files.json"
    return json.loads(files.read_text())[path] if files.exists() else _git(mirror, repo, "rev-parse", "HEAD").strip()


def q_statements(script: str) -> tuple[list[str], list[dict]]:
    """The statements of a SQL client or gateway test script that Flink ran without an error
    (`!ok` or `!info` after their output), and the `!error` cases with their line and message."""
    kept: list[str] = []
    dropped: list[dict] = []
    statement: list[str] = []
    output: list[str] | None = None
    start = 0
    for number, line in enumerate(script.splitlines(), 1):
        verdict = Q_VERDICT.match(line)
        if output is None and not statement and (line.startswith("#") or not line.strip()):
            continue
        if output is None:
            start = start if statement else number
            statement.append(line)
            # `EXPLAIN|EXECUTE STATEMENT SET BEGIN ... END;` is one statement of many lines ending in `;`
            in_set = SET_BLOCK.match(" ".join(statement)) is not None
            done = line.rstrip().endswith(";") and (not in_set or line.strip().upper() == "END;")
            output = [] if done else None
        elif verdict:
            text = "\n".join(statement)
            if verdict.group(1) == "error":
                # Flink's exception, not the client's "[ERROR] Could not execute SQL statement." before it
                message = next((o for o in output if o.strip() and o != "!output" and not o.startswith("[")), "")
                dropped.append({"line": start, "category": "an !error case of the test script", "reason": message[:300]})
            else:
                kept.append(text)
            statement, output = [], None
        else:
            output.append(line)
    return kept, dropped


def sql_blocks(markdown: str) -> list[str]:
    """The ```sql fenced blocks of a page, `Flink SQL>` prompts removed; a block's last statement
    without a `;` ends where the block does."""
    blocks: list[str] = []
    current: list[str] | None = None
    language = ""
    for line in markdown.splitlines():
        fence = FENCE.match(line)
        if current is None and fence:
            current, language = [], fence.group(1).lower()
        elif current is not None and fence:
            block = "\n".join(current).rstrip()
            if language == "sql" and block.strip():
                blocks.append(block if block.endswith(";") else block + ";")
            current = None
        elif current is not None:
            current.append(re.sub(r"^\s*Flink SQL>\s?", "", line))
    return blocks


def _copy_notices(mirror: Path, repo: str, folder: Path, suffix: str) -> None:
    """The repository's LICENSE and NOTICE, byte for byte (Apache-2.0 section 4 (a) and (d))."""
    folder.mkdir(parents=True, exist_ok=True)
    names = _git(mirror, repo, "ls-tree", "--name-only", "HEAD").split()
    files = mirror / repo.replace("/", "+") / "files"
    for name in ("LICENSE", "NOTICE"):
        if files.exists():
            (folder / f"{name}{suffix}").write_bytes((files / name).read_bytes())
        elif name in names:
            data = subprocess.run(["git", "-C", str(mirror / repo.replace("/", "+") / "repo"), "show", f"HEAD:{name}"],
                                  capture_output=True, check=True).stdout
            (folder / f"{name}{suffix}").write_bytes(data)


def gather(mirror: Path, raw: Path) -> None:
    origins: dict[str, dict[str, dict[str, str]]] = {}
    for source, (repos, pattern) in SOURCES.items():
        for repo in repos:
            _copy_notices(mirror, repo, raw / source, suffix=f"-{repo.split('/')[1]}" if len(repos) > 1 else "")
            for path in _git(mirror, repo, "ls-tree", "-r", "--name-only", "HEAD").splitlines():
                if not re.match(pattern, path):
                    continue
                commit, dropped = _commit(mirror, repo, path), []
                if path.endswith(".q"):
                    statements, dropped = q_statements(_git(mirror, repo, "show", f"HEAD:{path}"))
                    if not statements:
                        continue
                    text, where = "\n\n".join(statements) + "\n", path
                    name = re.sub(r"^flink-table/flink-sql-|src/test/resources/sql/", "", path).replace("/", "__")
                    name = re.sub(r"\.q$", ".sql", name)
                    note = "the statements the test script runs without an error (`!ok`/`!info`), in order; its `!error` cases left out"
                elif source == "nexmark":
                    folder = path.rsplit("/", 1)[0]
                    parts = [f"{folder}/ddl_gen.sql", f"{folder}/ddl_views.sql", path]
                    text = "\n\n".join(_git(mirror, repo, "show", f"HEAD:{p}").rstrip() for p in parts) + "\n"
                    for key, value in NEXMARK_VARS.items():
                        text = text.replace("${" + key + "}", value)
                    name, where = f"{folder.rsplit('/', 1)[1]}__{path.rsplit('/', 1)[1]}", " + ".join(parts)
                    note = "ddl_gen.sql, ddl_views.sql and the query concatenated, ${VAR}s rendered as nexmark's QueryRunner does"
                elif path.endswith(".sql"):
                    text, where, name = _git(mirror, repo, "show", f"HEAD:{path}"), path, path.rsplit("/", 1)[1]
                    note = "the file as it is"
                else:
                    blocks = sql_blocks(_git(mirror, repo, "show", f"HEAD:{path}"))
                    if not blocks:
                        continue
                    text, where = "\n\n".join(blocks) + "\n", path
                    stem = re.sub(r"^(docs/content/docs/connectors/|docs/content/docs/dev/|docs/content/posts/|docs/docs/|website/docs/|docs/)",
                                  "", path)
                    name = re.sub(r"\.mdx?$", ".sql", stem.replace("/", "__").replace(" ", "-"))
                    if len(repos) > 1:
                        name = f"{repo.split('/')[1]}__{name}"
                    note = "the page's sql blocks in order, `Flink SQL>` prompts removed; a block's unterminated last statement ends with the block"
                (raw / source).mkdir(parents=True, exist_ok=True)
                (raw / source / name).write_text(text, encoding="utf-8")
                if (mirror / repo.replace("/", "+") / "files.json").exists():
                    note += FETCHED_ONE_BY_ONE
                origins.setdefault(source, {})[name] = {"repo": repo, "path": where, "commit": commit, "license": LICENSE, "note": note,
                                                        **({"dropped_when_gathered": dropped} if dropped else {})}
    (raw / "origins.json").write_text(json.dumps(origins, indent=1, sort_keys=True))
    for source, files in sorted(origins.items()):
        print(f"{source}: {len(files)} files")


# --- check ----------------------------------------------------------------------------------------

def _classify(flink, chunk: Chunk) -> tuple[str, str | None]:
    """(the parsed statement's class or "query", why it is left out or None)."""
    if chunk.kind != "statement":
        return "statement set", None
    for pattern, reason in BY_DESIGN:
        if pattern.match(chunk.text):
            return "by design", reason
    try:
        node = flink._parse(chunk.text.rstrip().rstrip(";"))
    except Exception:  # noqa: BLE001 - validate reports the syntax error with Flink's message
        return "?", None
    name = str(node.getClass().getSimpleName())
    if name == "SqlCreateCatalog":
        safe = "generic_in_memory" in chunk.text
        return name, None if safe else "not checkable here: another catalog's factory (FX195)"
    if name in CHECKED or (name.startswith("SqlAlterTable") and name != "SqlAlterTableCompact"):
        return name, None
    try:
        if str(node.getKind()) in QUERY_KINDS:
            return "query", None
    except Exception:  # noqa: BLE001 - an Operation of the extended parser has no kind
        pass
    return name, f"not checkable here: {name} is only parsed by the validate engine"


def _without_empty_sets(chunks: list[Chunk], keep: list[int]) -> list[int]:
    out: list[int] = []
    pending: list[int] | None = None
    for i in keep:
        if chunks[i].kind == "begin_statement_set":
            pending = [i]
        elif pending is not None:
            pending.append(i)
            if chunks[i].kind == "end":
                out.extend(pending if len(pending) > 2 else [])
                pending = None
        else:
            out.append(i)
    return out + (pending if pending and len(pending) > 1 else [])


def _check_script(flink, key: str, chunks: list[Chunk], keep: list[int], dropped: dict[int, dict]) -> list[int]:
    from flinkx_build.validate.contract import CompiledStatement
    from flinkx_build.validate.contract import ScriptToValidate
    for _ in range(len(chunks) + 1):
        keep = _without_empty_sets(chunks, keep)
        statements = tuple(CompiledStatement("BEGIN STATEMENT SET" if chunks[i].kind == "begin_statement_set" else chunks[i].text,
                                             chunks[i].line, chunks[i].col, chunks[i].kind) for i in keep)
        findings = flink.validate(ScriptToValidate(key, key, statements))
        if not findings:
            return keep
        for finding in findings:
            index = keep[finding.statement_index if finding.statement_index >= 0 else 0]
            missing = MISSING.search(finding.message) is not None
            dropped.setdefault(index, {"line": chunks[index].line, "category": "missing table or catalog" if missing else "rejected by Flink",
                                       "reason": finding.message[:300]})
        keep = [i for i in keep if i not in dropped]
    return []


def _joined(chunks: list[Chunk], keep: list[int]) -> str:
    """The kept statements verbatim, one blank line apart (EXECUTE STATEMENT SET BEGIN takes no `;`)."""
    parts = []
    for i in keep:
        head = chunks[i].kind == "begin_statement_set" and chunks[i].text.lstrip().upper().startswith("EXECUTE")
        parts.append(chunks[i].text + ("\n" if head else ";\n\n"))
    return "".join(parts).rstrip("\n") + "\n"


def check(raw: Path, out: Path) -> None:
    from flinkx_build.planner.session import open_planner
    origins = json.loads((raw / "origins.json").read_text())
    with open_planner("1.20", fetch=True) as flink:
        for source, files in sorted(origins.items()):
            target = out / source
            shutil.rmtree(target, ignore_errors=True)
            target.mkdir(parents=True)
            for notice in (raw / source).glob("[LN][IO][CT]*"):  # LICENSE*, NOTICE*
                shutil.copy(notice, target / notice.name)
            entries = []
            for name, origin in sorted(files.items()):
                chunks = split_statements((raw / source / name).read_text(encoding="utf-8"))
                dropped: dict[int, dict] = {}
                classes: dict[int, str] = {}
                for i, chunk in enumerate(chunks):
                    classes[i], reason = _classify(flink, chunk)
                    if reason:
                        category = "flinkx by design" if classes[i] == "by design" else "not checkable here"
                        dropped[i] = {"line": chunk.line, "category": category, "reason": reason}
                keep = _check_script(flink, f"{source}/{name}", chunks, [i for i in range(len(chunks)) if i not in dropped], dropped)
                if keep:
                    (target / name).write_text(_joined(chunks, keep), encoding="utf-8")
                earlier = origin.pop("dropped_when_gathered", [])
                entries.append({"file": name if keep else None, **origin, "statements_in_source": len(chunks) + len(earlier),
                                "kept": [classes[i] for i in keep], "dropped": earlier + [dropped[i] for i in sorted(dropped)]})
                print(f"{source}/{name}: {len(chunks)} -> {len(keep)}", flush=True)
            (target / "MANIFEST.json").write_text(json.dumps(_manifest(source, entries), indent=1) + "\n")


def _manifest(source: str, entries: list[dict]) -> dict:
    kept = [c for e in entries for c in e["kept"]]
    categories: dict[str, int] = {}
    for entry in entries:
        for drop in entry["dropped"]:
            categories[drop["category"]] = categories.get(drop["category"], 0) + 1
    return {"source": source, "license": LICENSE, "checked_with": "Apache Flink 1.20.5 (flinkx's planner driver), stand-in connectors",
            "totals": {"statements_in_source": sum(e["statements_in_source"] for e in entries), "kept": len(kept),
                       "kept_job_statements": sum(1 for c in kept if c in JOB_CLASSES), "dropped": categories},
            "files": entries}


# --- measure --------------------------------------------------------------------------------------

def measure(corpus: Path) -> None:
    from click.testing import CliRunner

    from flinkx_build.cli import main
    with tempfile.TemporaryDirectory() as tmp:
        ws = corpus_workspace(Path(tmp), corpus)
        result = CliRunner().invoke(main, ["lint", str(ws), "--format", "json"], catch_exceptions=False)
        findings = json.loads(result.stdout)
        flagged: dict[str, set[tuple[str, int]]] = {}
        for finding in findings:
            if finding.get("severity", "error") != "error":
                continue
            path = Path(finding["path"])
            source = path.parts[path.parts.index("projects") + 1]
            chunks = split_statements((ws / "projects" / source / "tasks" / path.name).read_text())
            index = max((i for i, c in enumerate(chunks) if c.line <= finding["line"]), default=0)
            flagged.setdefault(source, set()).add((path.name, index))
        print("| source | statements | job statements | statements with a false error |")
        print("|---|---|---|---|")
        for project in sorted(p.name for p in (ws / "projects").iterdir()):
            chunks = [c for t in (ws / "projects" / project / "tasks").glob("*.sql") for c in split_statements(t.read_text())]
            jobs = sum(1 for c in chunks if c.kind == "statement" and JOB.match(strip_comments(c.text)))
            print(f"| {project} | {len(chunks)} | {jobs} | {len(flagged.get(project, ()))} |")
        for finding in findings:
            print(f"{finding['path']}:{finding['line']}:{finding['col']}: {finding['code']} {finding['message']}", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("gather")
    g.add_argument("--mirror", type=Path, required=True)
    g.add_argument("--raw", type=Path, required=True)
    c = sub.add_parser("check")
    c.add_argument("--raw", type=Path, required=True)
    c.add_argument("--out", type=Path, default=CORPUS)
    m = sub.add_parser("measure")
    m.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    if args.command == "gather":
        gather(args.mirror, args.raw)
    elif args.command == "check":
        check(args.raw, args.out)
    else:
        measure(args.corpus)


if __name__ == "__main__":
    main()
