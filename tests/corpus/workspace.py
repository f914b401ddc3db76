"""The real-SQL corpus (tests/fixtures/corpus/) as one flinkx workspace: a project per source, a task per file.

Plain Flink SQL is valid Dataphin SQL (every table is task-local DDL), so the workspace must lint and
build clean. Shared by the corpus tests and `scripts/real_sql_corpus.py measure`.
"""
from __future__ import annotations

import shutil
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[1] / "fixtures" / "corpus"

# A file left out, with why: a task-local Python UDF makes Flink run Python to plan it (FX195 by design,
# tests/test_corpus_workspace.py::test_the_python_udf_is_the_one_refusal)
SKIPPED = {"flink-sql-cookbook": ("udfs__01_python_udfs.sql",)}

# FX480 (a literal password) and FX196 (an engine setting a task may not change, such as
# `SET 'execution.runtime-mode'`) are flinkx policies, not Flink verdicts, and FX123 (a deprecated
# option name, a warning) is advice Flink 1.20 does not share: it takes the old names. The corpus
# workspace turns them off as a team would, and test_real_sql_corpus checks that they still fire on it.
# The oceanbase tutorial leaves `${root_service_list}` for its reader to fill in, DataSQRL's runner fills
# `${POSTGRES_*}` from its environment: Dataphin's variables (and a secret, for the password) here.
FLINKX_YAML = """\
engine: flink
variables:
  root_service_list: '127.0.0.1:2882:2881'
  POSTGRES_AUTHORITY: 'localhost:5432/datasqrl'
  POSTGRES_USERNAME: postgres
secrets:
  - POSTGRES_PASSWORD
lint:
  FX480: off
  FX196: off
  FX123: off
  FX474: off
"""


def sources(corpus: Path = CORPUS) -> list[Path]:
    return sorted(p for p in corpus.iterdir() if p.is_dir())


def project_name(source: Path) -> str:
    return source.name.replace("-", "_")


def corpus_workspace(root: Path, corpus: Path = CORPUS, flinkx_yaml: str = FLINKX_YAML) -> Path:
    ws = root / "ws"
    (ws / "projects").mkdir(parents=True)
    (ws / "flinkx.yaml").write_text(flinkx_yaml)
    for source in sources(corpus):
        project = project_name(source)
        tasks = ws / "projects" / project / "tasks"
        tasks.mkdir(parents=True)
        (ws / "projects" / project / "project.yaml").write_text(f"name: {project}\n")
        for sql in source.glob("*.sql"):
            if sql.name not in SKIPPED.get(source.name, ()):
                shutil.copy(sql, tasks / sql.name)
    return ws
