"""Helpers of the pre-commit and workflow tests (see conftest.py)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
MINI = HERE / "fixtures" / "shop-mini"
EXAMPLE = REPO / "example-workspace"
HOOK_IDS = ("flinkx-lint", "flinkx-fix", "flinkx-build")
IGNORED = shutil.ignore_patterns(".flinkx-cache", "build", "__pycache__", "*.pyc")

# (what, seconds) of every external command, printed at the end of the session
TIMINGS: list[tuple[str, float]] = []


@dataclass
class Run:
    cmd: list[str]
    returncode: int
    output: str  # stdout and stderr, interleaved as printed
    seconds: float

    @property
    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.output.splitlines() if line.strip()]

    def describe(self) -> str:
        return f"$ {' '.join(self.cmd)}  -> exit {self.returncode} ({self.seconds:.1f} s)\n{self.output}"


def run(cmd: list[str], cwd: Path, env: dict[str, str], label: str | None = None, timeout: float = 900) -> Run:
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
    seconds = time.perf_counter() - started
    TIMINGS.append((label or " ".join(cmd[:4]), seconds))
    return Run(list(cmd), proc.returncode, proc.stdout, seconds)


def git_env(base: Path) -> dict[str, str]:
    """This environment with git isolated from the machine's configuration (a config file in `base`)."""
    gitconfig = base / "gitconfig"
    gitconfig.write_text(
        "[user]\n\tname = flinkx tests\n\temail = tests@example.invalid\n"
        "[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[advice]\n\tdetachedHead = false\n",
        encoding="utf-8",
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRE_COMMIT", "GIT_", "FLINKX_"))}
    env.update(GIT_CONFIG_GLOBAL=str(gitconfig), GIT_CONFIG_NOSYSTEM="1", NO_COLOR="1")
    return env


def git(cwd: Path, env: dict[str, str], *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed in {cwd}:\n{proc.stdout}{proc.stderr}")
    return proc.stdout.strip()


@dataclass(frozen=True)
class HookRepo:
    path: Path
    rev: str


def snapshot_checkout(dest: Path, env: dict[str, str]) -> HookRepo:
    """Commit this checkout's working tree (tracked + untracked, not ignored) into a new repo."""
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=REPO, check=True, capture_output=True, text=True,
    ).stdout
    dest.mkdir(parents=True)
    for rel in filter(None, listing.split("\0")):
        src = REPO / rel
        if src.is_file() and "/.flinkx-cache/" not in f"/{rel}":
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    git(dest, env, "init", "-q")
    git(dest, env, "add", "-A")
    git(dest, env, "commit", "-q", "-m", "flinkx: snapshot of the working tree for the pre-commit tests")
    return HookRepo(dest, git(dest, env, "rev-parse", "HEAD"))


def config_text(hook_repo: HookRepo, hooks: list[dict] | None = None) -> str:
    """A .pre-commit-config.yaml using this project's hooks from the snapshot."""
    hooks = hooks if hooks is not None else [{"id": h} for h in HOOK_IDS]
    lines = ["repos:", f"  - repo: {hook_repo.path}", f"    rev: {hook_repo.rev}", "    hooks:"]
    for hook in hooks:
        lines.append(f"      - id: {hook['id']}")
        for key, value in hook.items():
            if key != "id":
                lines.append(f"        {key}: {value}")
    return "\n".join(lines) + "\n"


def copy_workspace(source: Path, dest: Path) -> Path:
    shutil.copytree(source, dest, ignore=IGNORED, dirs_exist_ok=True)
    return dest


@dataclass
class GitRepo:
    root: Path
    env: dict[str, str]

    def git(self, *args: str) -> str:
        return git(self.root, self.env, *args)

    def run(self, *cmd: str, label: str | None = None) -> Run:
        return run(list(cmd), self.root, self.env, label=label)

    def write(self, rel: str, text: str) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path

    def read(self, rel: str) -> str:
        return (self.root / rel).read_text(encoding="utf-8")

    def replace(self, rel: str, old: str, new: str) -> str:
        text = self.read(rel)
        assert old in text, f"{rel} no longer contains {old!r}: update the test's edit"
        text = text.replace(old, new, 1)
        self.write(rel, text)
        return text

    def commit_all(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "--no-verify", "--allow-empty", "-m", message)


def position(text: str, needle: str, occurrence: int = 1) -> tuple[int, int]:
    """1-based line and column of the n-th `needle` in `text`."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def has_line(result: Run, prefix: str) -> bool:
    return any(line.startswith(prefix) for line in result.lines)


def flinkx_exe() -> str:
    found = shutil.which("flinkx")
    return found or str(Path(sys.executable).with_name("flinkx"))


def passed(result: Run, hook_name: str) -> bool:
    """pre-commit printed `<hook name>....Passed`."""
    return any(line.startswith(hook_name + ".") and line.endswith("Passed") for line in result.lines)


def failed(result: Run, hook_name: str) -> bool:
    return any(line.startswith(hook_name + ".") and line.endswith("Failed") for line in result.lines)


@dataclass(frozen=True)
class Expected:
    """One diagnostic line flinkx must print: `path:line:col: CODE ...`."""

    path: str
    line: int
    col: int
    code: str

    @property
    def prefix(self) -> str:
        return f"{self.path}:{self.line}:{self.col}: {self.code} "


# The three mistakes of the issue, in the shop-mini workspace (relative to the workspace).
MINI_LOAD = "projects/dwd/tasks/load_orders.sql"
MINI_PEEK = "projects/ods/tasks/debug/peek_orders.sql"
MINI_REFUNDS = "projects/dwd/tasks/load_refunds.sql"
REFUNDS_SQL = """\
-- refunds -> dwd_orders (the table name is misspelled: ods has order_events)
INSERT INTO dwd_orders
SELECT order_id, user_id, amount, channel, order_time
FROM ods.order_refunds;
"""


def break_mini(repo: GitRepo, ws: str = "") -> dict[str, Expected]:
    """FX01 (unquoted `AS value`), FX02 ("print" in a task-local WITH), FX130 (unknown table)."""
    def rel(path: str) -> str:
        return f"{ws}/{path}" if ws else path

    text = repo.replace(rel(MINI_LOAD), "amount AS order_amount", "amount AS value")
    line, col = position(text, "AS value")
    fx01 = Expected(rel(MINI_LOAD), line, col + 3, "FX01")
    text = repo.replace(rel(MINI_PEEK), "'connector' = 'print'", "'connector' = \"print\"")
    fx02 = Expected(rel(MINI_PEEK), *position(text, '"print"'), "FX02")
    repo.write(rel(MINI_REFUNDS), REFUNDS_SQL)
    fx130 = Expected(rel(MINI_REFUNDS), *position(REFUNDS_SQL, "ods.order_refunds"), "FX130")
    return {"FX01": fx01, "FX02": fx02, "FX130": fx130}
