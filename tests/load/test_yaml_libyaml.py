"""load/yaml_io.py reads YAML with libyaml's events when ruamel.yaml.clib is installed:
the documents, positions and findings must be those of ruamel's pure-Python parser.

Compared over every YAML file of the example workspace and of the tests (the bad-input
corpus's broken and hostile files among them), and over forms where libyaml and ruamel
could differ. The one known difference (where an empty value is placed) is pinned below; the
comparison leaves it aside.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from flinkx_build.load import yaml_io
from flinkx_build.load.yaml_cache import encode

ROOT = Path(__file__).resolve().parents[2]
FORMS = [
    "a: yes\nb: 0o10\nc: 010\nd: 2024-01-01T10:00:00Z\ne: !!str 1\nf: ~\ng: 1_000\nh: .inf\n",
    "x: &a [1, {k: v}]\ny: *a\nz:\n  <<: {m: 1}\n  n: 2\n",
    "s: |\n  line 1\n  line 2\nt: >-\n  folded\n  text\n\nu: 'it''s'\nv: \"tab\\tx\"\n",
    "%YAML 1.1\n---\na: yes\nb: 010\n",  # a 1.1 document: yes is true, 010 is eight
    "k: v\nk: w\n",  # a key twice
    "a: !!python/object:os.system ls\n",
    "[unclosed\n",
    "a: 1\n---\nb: 2\n",
    "- " * 200 + "x\n",  # deeper than the limit
]


def _files() -> list[Path]:
    found = sorted((ROOT / "example-workspace").rglob("*.yaml")) + sorted((ROOT / "tests").rglob("*.y*ml"))
    return [f for f in found if f.is_file() and not f.is_symlink()]


def _read(text: str, parser: object) -> object:
    saved = yaml_io._CParser
    yaml_io._CParser = parser
    try:
        return encode(yaml_io._parse(text))
    except Exception as exc:  # noqa: BLE001 - the error is part of what is compared
        return type(exc).__name__, str(exc)
    finally:
        yaml_io._CParser = saved


def test_libyaml_is_installed_here():
    assert yaml_io._CParser is not None  # a dependency on CPython: the comparisons below are not vacuous


CASES = [(f.relative_to(ROOT).as_posix(), f.read_text(encoding="utf-8", errors="replace")) for f in _files()]
CASES += [(f"form{i}", form) for i, form in enumerate(FORMS)]


def _empty_values_unplaced(value: object) -> object:
    """The reading with the position of every empty value left out (the difference pinned below)."""
    if isinstance(value, dict):
        return {k: _empty_values_unplaced(v) for k, v in value.items()}
    if isinstance(value, list):
        if len(value) == 3 and value[1] is None and isinstance(value[2], list) and len(value[2]) == 4:
            return [value[0], None, value[2][:2]]  # [key, empty value, [key line, key col]]
        return [_empty_values_unplaced(v) for v in value]
    return value


@pytest.mark.parametrize("text", [text for _, text in CASES], ids=[name for name, _ in CASES])
def test_libyaml_reads_as_ruamel_does(text):
    assert _empty_values_unplaced(_read(text, yaml_io._CParser)) == _empty_values_unplaced(_read(text, None))


def test_an_empty_value_is_placed_after_its_key():
    # ruamel places an empty value at the start of the next line, libyaml right after `key:`
    # (flinkx reports an empty value at its key, so no finding moves)
    libyaml = _read("a:\nb: 1\n", yaml_io._CParser)
    ruamel = _read("a:\nb: 1\n", None)
    assert libyaml["map"][0] == ["a", None, [0, 0, 0, 2]] and ruamel["map"][0] == ["a", None, [0, 0, 1, 0]]
    assert libyaml["map"][1] == ruamel["map"][1]


def test_a_yaml_11_document_is_read_by_ruamel():
    assert _read("%YAML 1.1\n---\na: yes\n", yaml_io._CParser)["map"][0][1] is True
