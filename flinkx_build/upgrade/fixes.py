"""`flinkx fix --to VERSION`: the mechanical fixes of an upgrade, written in place.

Only fixes that keep the job's meaning on the target are made (docs/decisions.md):
* FX01: a word the target reserves is backtick-quoted (the rule's own fix, run as the target);
* FX122: a removed option whose replacement Flink's jars name is renamed to it, in the SET.
Not made: ON CONFLICT (DO DEDUPLICATE, NOTHING or ERROR each change which row wins: the
author chooses), deprecated names that still work, types and functions a version lacks.
"""
from __future__ import annotations

import re
from pathlib import Path

from flinkx_build.errors import Diagnostic
from flinkx_build.flink_data import facts_for
from flinkx_build.lint.run import lint_workspace
from flinkx_build.lint.select import CodeFilter
from flinkx_build.lint.write import FileFix
from flinkx_build.upgrade.report import session_as

SAFE_CODES = ("FX01", "FX122")


def upgrade_fixes(root: Path, to_version: str) -> list[FileFix]:
    """The file changes that move the workspace's tasks to `to_version` (nothing is written)."""
    target = facts_for(to_version)
    session = session_as(root, target.version)
    findings, fixes = lint_workspace(session, [], fix=True, codes=CodeFilter(select=("FX01",)))
    texts = {fix.display_path: fix for fix in fixes}
    renames, _ = lint_workspace(session_as(root, target.version), [], codes=CodeFilter(select=("FX122",)))
    tasks = {t.display_path: t for p in session.workspace.projects.values() for t in p.tasks.values()}
    for diag in renames:
        task = tasks.get(diag.path)
        replacement = target.removed.get(_quoted_key(diag.message))
        if task is None or replacement is None or not replacement.replacement:
            continue
        current = texts.get(diag.path) or FileFix(task.path, task.display_path, task.text, task.text, [])
        after = rename_option(current.after, diag, replacement.key, replacement.replacement)
        if after != current.after:
            texts[diag.path] = FileFix(current.path, current.display_path, current.before, after, current.fixed + [diag])
    return sorted(texts.values(), key=lambda f: f.display_path)


def _quoted_key(message: str) -> str:
    return message.split("'", 2)[1] if message.count("'") >= 2 else ""


def rename_option(text: str, at: Diagnostic, key: str, replacement: str) -> str:
    """`key` -> `replacement` in the SET statement that starts at the finding's line (the key is a
    literal string, so the first exact occurrence from there is the SET's)."""
    lines = text.splitlines(keepends=True)
    start = sum(len(line) for line in lines[: at.line - 1]) + at.col - 1
    match = re.compile(re.escape(key) + r"(?![\w.-])").search(text, start)
    if match is None or ";" in text[start:match.start()]:
        return text
    return text[: match.start()] + replacement + text[match.end():]
