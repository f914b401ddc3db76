"""Caches for `flinkx lint`: the sqlfluff rule pass of each file, and a whole unchanged run.

The rule pass (sqlfluff's FX01-FX03 over every statement, which is also the
parse) is most of lint's time. Its result depends only on the task's text,
the variables it renders with, the rules that run and their configuration,
the path shown in messages: that is the key; flinkx's code is the cache
folder's version (`cache_version.py`). What depends on meta tables, functions and the other tasks (the
resolver's and the semantic checks' findings, the workspace checks) is NOT
cached here and runs on every lint, so a meta-table change re-checks every
task that reads it and nothing can go stale.

A whole run (the same files, options, and every input byte: see
`flinkx_build.run_memo`) is replayed from its stored findings.
Entries are data-only JSON, checked like every cache entry.
"""
from __future__ import annotations

from dataclasses import asdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flinkx_build import run_memo
from flinkx_build.errors import Diagnostic
from flinkx_build.frontend.statements import ParsedStatement
from flinkx_build.hashing import canonical_hash
from flinkx_build.incremental.facts import RULE_PASS
from flinkx_build.incremental.store import FactStore
from flinkx_build.workspace_model import LintConfig

FACT = RULE_PASS


@dataclass(frozen=True)
class RulePass:
    """What sqlfluff's rules found in one task, and the parse they made on the way."""

    diagnostics: list[Diagnostic]
    parsed: list[ParsedStatement]

    def to_json(self) -> dict[str, Any]:
        return {"diagnostics": run_memo.diagnostics_to_json(self.diagnostics), "parsed": [p.to_json() for p in self.parsed]}

    @classmethod
    def from_json(cls, data: Any) -> "RulePass | None":
        try:
            diags = run_memo.diagnostics_from_json(data["diagnostics"])
            parsed = [ParsedStatement.from_json(item) for item in data["parsed"]]
        except Exception:  # well-formed JSON of the wrong shape: lint again
            return None
        return None if diags is None else cls(diags, parsed)


class RuleCache:
    def __init__(self, cache_root: Path | None) -> None:
        self.root = cache_root
        self.store = FactStore(cache_root)

    @staticmethod
    def key(text: str, context: dict[str, str], shown_path: str, rules: tuple[str, ...], dataphin_version: str,
            lint_cfg: LintConfig) -> str:
        settings = [list(rules), dataphin_version, asdict(lint_cfg)]
        return canonical_hash([FACT.format, FACT.version, text, context, shown_path, settings])

    def get(self, key: str) -> RulePass | None:
        data = self.store.get(FACT, key)
        return None if data is None else RulePass.from_json(data)

    def put(self, key: str, result: RulePass) -> dict[str, Any]:
        """Store `result`; its JSON, which the parse cache and a worker's answer reuse (encoding a
        task's parse is as long as the rest of storing it: once, not three times)."""
        data = result.to_json()
        self.store.put(FACT, key, data)
        return data


@dataclass(frozen=True)
class LintMemo:
    """A whole `flinkx lint` of one workspace (with its files and code filter), for replay."""

    root: Path
    cache_dir: str
    key: run_memo.Fingerprint

    @classmethod
    def open(cls, workspace: Path, files: list[Path], select: tuple[str, ...], ignore: tuple[str, ...],
             planner: str = "", changed_since: str = "") -> "LintMemo | None":
        """`planner`: what the planner pass can do this run (off, or why not, or the target): a run
        without it is not replayed for one with it. `changed_since`: the base commit of a
        `--changed-since` lint (what it reaches follows from it and the inputs)."""
        found = run_memo.workspace_config(workspace)
        if found is None:
            return None
        root, config = found
        options = {"command": "lint", "files": [str(f.resolve()) for f in files], "select": list(select),
                   "ignore": list(ignore), "planner": planner}
        if changed_since:
            options["changed_since"] = changed_since
        return cls(root, config.cache_dir, run_memo.fingerprint(root, options))

    def replay(self) -> list[Diagnostic] | None:
        data = run_memo.load(self.root, self.cache_dir, self.key)
        return None if data is None else run_memo.diagnostics_from_json(data.get("findings"))

    def remember(self, findings: list[Diagnostic]) -> None:
        run_memo.store(self.root, self.cache_dir, self.key, {"findings": run_memo.diagnostics_to_json(findings)})
