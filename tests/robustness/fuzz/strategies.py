"""Hypothesis strategies: what a hostile pull request can do to a copy of the example workspace.

A `Mutation` is a list of edits, each a plain description (`Edit`) that
`apply` performs on a workspace folder and that prints readably when
hypothesis shrinks a failure. Kinds:
- bytes: flips, truncation, inserted brackets/quotes/comments/tags, text;
- tokens and statements of a task: one deleted, duplicated or swapped;
- YAML values: one value replaced by a hostile one (huge and hexadecimal
  integers, tags, lists where text is expected, unbalanced ROW types);
- encodings: the file re-encoded (UTF-16, Latin-1, a BOM, CRLF);
- the file tree: links to themselves, in a circle, out of the workspace or
  to nothing, a file replaced by a folder, deleted, emptied, or copied.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

INSERTS = [
    "(", ")", "((", "))", "[", "]", "{", "}", "'", '"', "`", "''", "/*", "*/", "/*+", "/*+ OPTIONS(", "--", "-- x\n",
    "${", "${x}", "${env}", "}", ";", ":", ": ", "- ", "? ", "&a ", "*a", "<<: *a\n", "!!python/object:os.system ",
    "!tag ", "---\n", "...\n", "|", ">", "#", "%", "@", "\t", "\r", "\r\n", "\n", "  ", "\x00", "\x1b", "é", "订单",
    "\ufeff", "\\", "\\u", "9" * 60, "SELECT", "INSERT INTO", "BEGIN STATEMENT SET;", "END;", "SET x.y = ", "AS", ",",
    "=", "true", "null", "~", "1e999", "<", ">", "ROW<", "ARRAY<", "`a", "``", "0x" + "f" * 40,
]
YAML_VALUES = [
    "", "~", "null", "[]", "{}", "[a, b]", "{a: 1}", "0", "-1", "1.5", "1e999", ".nan", "true", "yes",
    "0x" + "f" * 5000, "1" * 5000, "0b" + "1" * 2000, "0o" + "7" * 2000, "!!python/object/apply:os.system ['true']",
    "!custom x", "*nowhere", "&a x", "2024-01-01", "'${nope}'", "\"\\x00\"", "\"a\\nb\"", "'../../etc/passwd'", "/etc",
    "\"ROW<a STRING, `b BIGINT>\"", "\"ROW<a STRING, b BIGINT\"", "\"ARRAY<\"", "\"MAP<STRING>\"", "\"DECIMAL(99999999999999999999, 2)\"",
    "\"ROW<`a`` b` INT, c ROW<d INT>>\"", "\"ROW<a INT COMMENT 'x, y'>\"", "\"TIMESTAMP(3) WITH LOCAL TIME ZONE\"", "\"STRING NOT NULL\"",
    "|\n  block", "'" + "x" * 5000 + "'",
]
SECRET = "root-x-0-0-not-for-ci-logs"  # what a link out of the workspace leads to: never printed
ENCODINGS = ["utf-16", "utf-16-le", "latin-1", "bom", "crlf", "cr"]
TREE_KINDS = ["self_link", "link_loop", "link_outside", "dangling_link", "as_folder", "delete", "empty", "copy", "link_inside", "folder_link_loop",
              "parent_self_link"]


@dataclass(frozen=True)
class Edit:
    kind: str  # bytes | tokens | statements | yaml_value | encoding | tree
    target: str  # the file, relative to the workspace
    detail: tuple  # what exactly (positions, inserted text): enough to redo it


def byte_edits(draw, data: bytes) -> tuple[bytes, tuple]:
    """One to three edits of a file's bytes (the mutations of tests/robustness until issue 33)."""
    done = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["flip", "truncate", "insert", "duplicate_line", "delete_line", "indent", "text"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1:]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "insert":
            data = data[:at] + draw(st.sampled_from(INSERTS)).encode() + data[at:]
        elif kind == "text":
            data = data[:at] + draw(st.text(max_size=12)).encode("utf-8", "surrogatepass") + data[at:]
        elif kind in ("duplicate_line", "delete_line", "indent"):
            lines = data.split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            if kind == "duplicate_line":
                lines.insert(i, lines[i])
            elif kind == "delete_line":
                del lines[i]
            else:
                lines[i] = draw(st.sampled_from([b" ", b"  ", b"   ", b"\t"])) + lines[i]
            data = b"\n".join(lines)
        done.append((kind, at))
    return data, tuple(done)


def _pieces(data: bytes, separator: bytes) -> list[bytes]:
    return data.split(separator)


def token_edit(draw, data: bytes) -> bytes:
    """A whitespace-separated token of a task deleted, duplicated or swapped with its neighbour."""
    tokens = re.split(rb"(\s+)", data)  # (a split on a single class: linear)
    words = [i for i, t in enumerate(tokens) if t and not t.isspace()]
    if not words:
        return data
    i = draw(st.sampled_from(words))
    how = draw(st.sampled_from(["delete", "duplicate", "swap", "replace"]))
    if how == "delete":
        tokens[i] = b""
    elif how == "duplicate":
        tokens[i] = tokens[i] + b" " + tokens[i]
    elif how == "swap":
        j = draw(st.sampled_from(words))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    else:
        tokens[i] = draw(st.sampled_from(INSERTS)).encode()
    return b"".join(tokens)


def statement_edit(draw, data: bytes) -> bytes:
    """A `;`-separated statement of a task deleted, duplicated or moved."""
    parts = _pieces(data, b";")
    i = draw(st.integers(0, len(parts) - 1))
    how = draw(st.sampled_from(["delete", "duplicate", "move", "unterminate"]))
    if how == "delete":
        del parts[i]
    elif how == "duplicate":
        parts.insert(i, parts[i])
    elif how == "move":
        parts.insert(draw(st.integers(0, len(parts) - 1)), parts.pop(i))
    else:
        return b";".join(parts[:i]) + b"".join(parts[i:])
    return b";".join(parts)


_YAML_VALUE = re.compile(rb"^(\s*(?:- )?\{?[A-Za-z_][\w.-]*: )(.*)$")  # `key: value` at a line's start


def yaml_value_edit(draw, data: bytes) -> bytes:
    """The value of one `key: value` line replaced by a hostile one."""
    lines = data.split(b"\n")
    keyed = [i for i, line in enumerate(lines) if _YAML_VALUE.match(line)]
    if not keyed:
        return data
    i = draw(st.sampled_from(keyed))
    m = _YAML_VALUE.match(lines[i])
    assert m is not None
    value = draw(st.sampled_from(YAML_VALUES)).encode()
    if b"\n" in value:
        value = value.replace(b"\n", b"\n" + b" " * (len(m.group(1)) + 2))
    rest = m.group(2)
    tail = b"}" if rest.rstrip().endswith(b"}") and m.group(1).lstrip().startswith((b"{", b"- {")) else b""
    lines[i] = m.group(1) + value + tail
    return b"\n".join(lines)


def encoding_edit(how: str, data: bytes) -> bytes:
    text = data.decode("utf-8", "replace")
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "crlf":
        return data.replace(b"\n", b"\r\n")
    if how == "cr":
        return data.replace(b"\n", b"\r")
    return text.encode(how, "replace")


@st.composite
def mutations(draw, ws: Path, files: list[str]) -> list[Edit]:
    """One to two edits, each of one file of the workspace (`ws`: the untouched copy)."""
    edits = []
    for _ in range(draw(st.integers(1, 2))):
        target = draw(st.sampled_from(files))
        data = (ws / target).read_bytes()
        kinds = ["bytes", "encoding", "tree"] + (["tokens", "statements"] if target.endswith(".sql") else ["yaml_value"])
        kind = draw(st.sampled_from(kinds))
        if kind == "bytes":
            new, _ = byte_edits(draw, data)
        elif kind == "tokens":
            new = token_edit(draw, data)
        elif kind == "statements":
            new = statement_edit(draw, data)
        elif kind == "yaml_value":
            new = yaml_value_edit(draw, data)
        elif kind == "encoding":
            new = encoding_edit(draw(st.sampled_from(ENCODINGS)), data)
        else:
            edits.append(Edit("tree", target, (draw(st.sampled_from(TREE_KINDS)), draw(st.sampled_from(files)))))
            continue
        edits.append(Edit(kind, target, (new,)))
    return edits


def apply(ws: Path, outside: Path, edits: list[Edit], touched: list[str]) -> None:
    """Make the edits in `ws`, adding to `touched` (first) each path that must be put back or removed."""
    for edit in edits:
        touched.append(edit.target)
        try:
            _apply_one(ws, outside, edit, touched)
        except OSError:  # an earlier edit made the place unreachable (its folder links to itself): the tree stays so
            pass


def _apply_one(ws: Path, outside: Path, edit: Edit, touched: list[str]) -> None:
    path = ws / edit.target
    if edit.kind != "tree":
        _replace_with_file(path)
        path.write_bytes(edit.detail[0])
        return
    how, other = edit.detail
    parent = Path(edit.target).parent
    if how == "parent_self_link" and parent != Path("."):  # the file's folder (tasks/, tables/, a project) becomes a link to itself
        touched.append(parent.as_posix())
        _remove(ws / parent)
        (ws / parent).symlink_to(parent.name)
        return
    if how == "copy":  # another file's content under this name: duplicates, wrong kinds
        source = ws / other
        data = source.read_bytes() if source.is_file() and not source.is_symlink() else b""
        _replace_with_file(path)
        path.write_bytes(data)
        return
    _remove(path)
    if how in ("self_link", "parent_self_link"):  # (flinkx.yaml's folder is the workspace: the file itself then)
        path.symlink_to(path.name)
    elif how == "link_loop":
        partner = path.with_name(path.name + ".loop")
        touched.append(edit.target + ".loop")
        _remove(partner)
        path.symlink_to(partner.name)
        partner.symlink_to(path.name)
    elif how == "link_outside":
        (outside / "secret.txt").write_text(f"name: {SECRET}\nSELECT '{SECRET}';\n")
        path.symlink_to(outside / "secret.txt")
    elif how == "dangling_link":
        path.symlink_to(path.name + ".missing")
    elif how == "link_inside":
        path.symlink_to(os.path.relpath(ws / other, path.parent))
    elif how == "folder_link_loop":
        path.mkdir()
        (path / "loop").symlink_to(".", target_is_directory=True)
    elif how == "as_folder":
        path.mkdir()
    elif how == "empty":
        path.write_bytes(b"")
    # delete: nothing more


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def _replace_with_file(path: Path) -> None:
    if path.is_symlink() or path.is_dir():
        _remove(path)
