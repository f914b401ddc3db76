"""Names and paths read from the workspace: plain names only, nothing outside the workspace.

Project, table and function names become folder names in the build and
identifiers in compiled SQL; a name like `../../x` or `/etc` would write
outside the build folder, and a control character would break the
one-line message format. Files reached through a symlink that leaves the
workspace, or leads into its `.git`, are not read: a pull request could otherwise make CI read (and
print parts of) any file on the machine.
"""
from __future__ import annotations

import errno
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flinkx_build.errors import Diagnostic

_PLAIN = re.compile(r"\w[\w$-]*")  # letters (any script), digits, `_`, `$`, `-`; not starting with `-`
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def plain_name_problem(name: str) -> str | None:
    """Why `name` is not a plain name, or None."""
    if not name.strip():
        return "is empty"
    if _PLAIN.fullmatch(name):
        return None
    if has_control(name):
        return "holds a control character"
    if "/" in name or "\\" in name or ".." in name:
        return "is a path, not a name"
    return "is not a plain name"


def has_control(text: str) -> bool:
    """YAML's double-quoted escapes ("\\n", "\\x00") can put any character into a value."""
    return bool(_CONTROL.search(text))


def name_diagnostic(name: str, what: str, shown: str, line: int, col: int, code: str = "FX186") -> Diagnostic | None:
    problem = plain_name_problem(name)
    if problem is None:
        return None
    return Diagnostic(shown, line, col, code, f"{what} {name!r} {problem}", "use letters, digits, '_' and '-' only")


def is_inside(path: Path, root: Path) -> bool:
    """True when `path`, with every symlink followed, is `root` or below it."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):  # a symlink loop
        return False


def outside_diagnostic(path: Path, root: Path, shown: str, code: str = "FX187") -> Diagnostic | None:
    """FX187 when `path` is (or passes through) a symlink that leaves the workspace or leads into
    its `.git`: git's own files (config, objects, hooks) are no source, and a task's syntax error
    would quote the start of one (FX120)."""
    if not is_inside(path, root):
        return Diagnostic(shown, 1, 1, code, "is a symbolic link that leads outside the workspace; flinkx does not read it", "copy the file into the workspace")
    if _into_git(path, root):
        return Diagnostic(shown, 1, 1, code, "is a symbolic link that leads into .git; flinkx does not read it",
                          "link to a source file of the workspace instead")
    return None


def entry_outside_diagnostic(path: Path, root: Path, shown: Callable[[], str], code: str = "FX187") -> Diagnostic | None:
    """`outside_diagnostic` for an entry of a folder already found inside `root` and outside `.git`.

    Only a symlink, or an entry named `.git`, can then lead out, so a plain entry costs one
    lstat instead of resolving every component of its path twice (at 400 projects the
    resolves of each project's folders were a sixth of a build that changed one task).
    `shown` is called only for a finding."""
    if path.name != ".git" and not os.path.islink(path):
        return None
    return outside_diagnostic(path, root, shown(), code)


def _into_git(path: Path, root: Path) -> bool:
    """True when `path` resolves to `.git` or below it (`path` resolves inside `root`)."""
    try:
        return ".git" in path.resolve().relative_to(root.resolve()).parts
    except (OSError, RuntimeError, ValueError):
        return True  # is_inside just resolved it inside; a change in between is not trusted


def loop_diagnostic(path: Path, shown: str) -> Diagnostic | None:
    """FX171 when `path` is a symbolic link that leads back to itself (directly or in a circle)."""
    if not os.path.islink(path):
        return None
    try:
        os.stat(path)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return Diagnostic(shown, 1, 1, "FX171", "is a symbolic link that leads back to itself", "remove the link or point it at a file")
    return None


def yaml_name(data: Any, path: Path, shown: str, what: str, diags: list[Diagnostic]) -> str | None:
    """The `name:` of a table or function file (the file's stem when absent), if it is a plain name."""
    from flinkx_build.load.yaml_io import value_loc

    value = data.get("name") if isinstance(data, dict) else None
    if value is None or value == "":
        bad = name_diagnostic(path.stem, f"{what} file name", shown, 1, 1)
        name = path.stem
    else:
        loc = value_loc(data, "name", shown)
        if not isinstance(value, str):  # never str() it: a number may be too long to print
            diags.append(Diagnostic(shown, loc.line, loc.col, "FX104", f"{what} name must be text", "quote it"))
            return None
        name = value
        bad = name_diagnostic(name, f"{what} name", shown, loc.line, loc.col)
    if bad:
        diags.append(bad)
        return None
    return name
