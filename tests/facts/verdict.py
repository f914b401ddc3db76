"""Flink itself, with its real connectors and no flinkx in between: tests/fixtures/flink_targets/Verdict.java on a
target's jars, for the tests that compare flinkx's answers (types, connector options, ...) with Flink's."""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from tests.facts.jars import flink_lib
from tests.facts.jars import java_args

VERDICT = Path(__file__).parents[1] / "fixtures" / "flink_targets" / "Verdict.java"
_COMPILED: dict[Path, Path] = {}


def verdicts(version: str, cases: dict[str, list[str]], mode: str = "") -> dict[str, str]:
    """Each case's statements (the last one judged: EXPLAINed, or with `mode` "--schema" / "--execute") -> the
    answer: "OK", "ERROR <the exception chain>", "TYPE <type>", "JOB" or "RESULT <text>"."""
    lib = flink_lib(version)
    assert lib is not None, f"no Flink {version} jars"
    if lib not in _COMPILED:
        classes = Path(tempfile.mkdtemp(prefix="flinkx-verdict-"))
        subprocess.run(["javac", "-nowarn", "-d", str(classes), "-cp", f"{lib}/*", str(VERDICT)], check=True, capture_output=True)
        _COMPILED[lib] = classes
    folder = Path(tempfile.mkdtemp(prefix="flinkx-cases-"))
    files = []
    for name, statements in cases.items():
        path = folder / f"{name}.sql"
        path.write_text("".join(s.rstrip().rstrip(";") + ";\n" for s in statements), encoding="utf-8")
        files.append(str(path))
    done = subprocess.run(["java", *java_args(version), "-cp", f"{_COMPILED[lib]}:{lib}/*", "Verdict", *([mode] if mode else []), *files],
                          capture_output=True, text=True, timeout=900)
    answers = {}
    for line in done.stdout.splitlines():
        path, _, answer = line.partition("\t")
        if path.endswith(".sql"):
            answers[Path(path).stem] = answer
    assert set(answers) == set(cases), done.stderr[-2000:]
    return answers
