"""The plugin on its own: the real `sqlfluff` CLI, a plain `.sqlfluff`, FX01-FX03.

Two ways in:

* installed (`pip install -e .`): sqlfluff finds the plugin by its entry
  point; `python -m sqlfluff lint` is run exactly as a user would;
* source checkout: the same CLI is run in a subprocess that first registers
  the plugin by hand (`flinkx_rules.plugin.ensure_registered`).

Also: the Ververica cookbook corpus must raise no FX01/FX02/FX03 errors.
"""
from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.conftest import COOKBOOK as CORPUS

ROOT = Path(__file__).resolve().parents[2]

SQLFLUFF_CONFIG = textwrap.dedent(
    r"""
    [sqlfluff]
    dialect = dataphin
    rules = FX01,FX02,FX03
    templater = placeholder

    [sqlfluff:templater:placeholder]
    param_regex = \$\{(?P<param_name>[A-Za-z_][A-Za-z0-9_.]*)\}
    """
).lstrip()

# One problem of each kind, on known lines.
BAD_SQL = textwrap.dedent(
    """\
    SET sls_stream.`watermark` = WATERMARK FOR ts AS withOffset(ts, 1000);

    CREATE TABLE sls_stream (
      value BIGINT,
      ts TIMESTAMP(3)
    ) WITH (
      'connector' = 'datagen',
      'rows-per-second' = 1
    );

    INSERT INTO sink
    SELECT value, ts FROM ${project_name}.sls_stream;
    """
)
EXPECTED = {("FX03", 1), ("FX01", 4), ("FX02", 8), ("FX01", 12)}

FIXED_SQL = textwrap.dedent(
    """\
    SET sls_stream.`watermark` = 'WATERMARK FOR ts AS withOffset(ts, 1000)';

    CREATE TABLE sls_stream (
      `value` BIGINT,
      ts TIMESTAMP(3)
    ) WITH (
      'connector' = 'datagen',
      'rows-per-second' = '1'
    );

    INSERT INTO sink
    SELECT `value`, ts FROM ${project_name}.sls_stream;
    """
)

_BOOTSTRAP = (
    "import sys; "
    "from flinkx_rules.plugin import ensure_registered; ensure_registered(); "
    "from sqlfluff.cli.commands import cli; "
    "sys.argv[0] = 'sqlfluff'; cli()"
)


def _installed() -> bool:
    return any(ep.name == "flinkx" for ep in importlib.metadata.entry_points(group="sqlfluff"))


def _env() -> dict[str, str]:
    env = dict(os.environ)
    extra = [str(ROOT), str(ROOT / "rules")]
    env["PYTHONPATH"] = os.pathsep.join(extra + [p for p in [env.get("PYTHONPATH")] if p])
    return env


def _sqlfluff(mode: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    if mode == "installed":
        command = [sys.executable, "-m", "sqlfluff", *args]
    else:
        command = [sys.executable, "-c", _BOOTSTRAP, *args]
    return subprocess.run(command, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=300)


@pytest.fixture(params=["installed", "source"])
def mode(request):
    if request.param == "installed" and not _installed():
        pytest.skip(
            "flinkx is not installed (no 'flinkx' entry point in group 'sqlfluff'); "
            "run `pip install -e .` to test plain `python -m sqlfluff`"
        )
    return request.param


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".sqlfluff").write_text(SQLFLUFF_CONFIG, encoding="utf-8")
    (tmp_path / "task.sql").write_text(BAD_SQL, encoding="utf-8")
    return tmp_path


def _violations(result: subprocess.CompletedProcess) -> list[dict]:
    assert result.stdout.strip(), result.stderr
    report = json.loads(result.stdout)
    return [v for entry in report for v in entry["violations"]]


def test_lint_reports_all_three_rules(mode, project):
    result = _sqlfluff(mode, "lint", "task.sql", "--format", "json", "--nofail", cwd=project)
    violations = _violations(result)
    found = {(v["code"], v["start_line_no"]) for v in violations}
    assert found == EXPECTED, result.stdout + result.stderr
    assert not any(v["code"] in ("PRS", "LXR", "TMP") for v in violations)


def test_fix_then_lint_is_clean(mode, project):
    fixed = _sqlfluff(mode, "fix", "task.sql", cwd=project)
    assert fixed.returncode in (0, 1), fixed.stdout + fixed.stderr
    assert (project / "task.sql").read_text(encoding="utf-8") == FIXED_SQL, fixed.stdout + fixed.stderr
    again = _sqlfluff(mode, "lint", "task.sql", cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr


def test_fix_unquotes_for_dataphin_3_6(mode, project):
    (project / ".sqlfluff").write_text(
        SQLFLUFF_CONFIG + "\n[sqlfluff:rules:FX03]\ndataphin_version = 3.6\n", encoding="utf-8"
    )
    (project / "task.sql").write_text(
        "SET sls_stream.`watermark`= 'WATERMARK FOR ts AS withOffset(ts, 1000)';\n", encoding="utf-8"
    )
    _sqlfluff(mode, "fix", "task.sql", cwd=project)
    assert (project / "task.sql").read_text(encoding="utf-8") == (
        "SET sls_stream.`watermark`= WATERMARK FOR ts AS withOffset(ts, 1000);\n"
    )
    again = _sqlfluff(mode, "lint", "task.sql", cwd=project)
    assert again.returncode == 0, again.stdout + again.stderr


# ---------------------------------------------------------------- corpus


def _corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("**/*.sql"))


def test_cookbook_corpus_has_no_fx_errors():
    """No FX01/FX02/FX03 errors on real Flink SQL, statement by statement.

    Warning-class FX01 words (``include_warnings``) are off, as by default.
    Statements sqlfluff cannot fully parse are still checked where they parse.
    """
    from sqlfluff.core import FluffConfig
    from sqlfluff.core import Linter

    from flinkx_build.frontend.splitter import split_statements
    from flinkx_build.variables import VARIABLE_REGEX

    config = FluffConfig(
        configs={
            "core": {"dialect": "dataphin", "rules": "FX01,FX02,FX03", "templater": "placeholder"},
            "templater": {"placeholder": {"param_regex": VARIABLE_REGEX}},
        }
    )
    linter = Linter(config=config)
    statements = parsed = 0
    problems = []
    for path in _corpus_files():
        text = path.read_text(encoding="utf-8")
        for chunk in split_statements(text):
            if chunk.kind != "statement":
                continue
            statements += 1
            result = linter.lint_string(chunk.text)
            codes = [v.rule_code() for v in result.get_violations()]
            if not any(c in ("PRS", "LXR", "TMP") for c in codes):
                parsed += 1
            for v in result.get_violations():
                if v.rule_code().startswith("FX"):
                    line, col = chunk.position(v.line_no, v.line_pos)
                    problems.append(f"{path.name}:{line}:{col} {v.rule_code()} {v.desc()}")
    print(f"corpus: {statements} statements, {parsed} parse cleanly with dialect dataphin")
    assert statements > 100
    assert problems == []
