"""YAML mistakes read in plain words, one line, at the place to fix (issue 16, bullet 2)."""
import pytest

from flinkx_build.load.yaml_io import load_yaml

JARGON = ("<block", "<stream", "while scanning", "while parsing", "expected <", "found character", "\n")

CASES = [
    # (YAML, line, col, words the message must hold)
    ("name: a\ncolumns:\n  - name: x\n    type: INT\n   - name: y\n", 5, 4, "line 5 is indented differently from the lines above it"),
    ("a:\n  - 1\n  b: 2\n", 3, 3, "line 3 is indented differently"),
    ("a: 1\nb: 2\na: 3\n", 3, 1, "key 'a' is given twice: lines 1 and 3"),
    ("a:\n\tb: 1\n", 2, 1, "a tab cannot indent YAML"),
    ("a: 'abc\nb: 1\n", 1, 4, "the quoted text that starts here is never closed"),
    ("a: [1, 2\nb: 3\n", 1, 4, "the '[' list that opens here is not closed"),
    ("a: {x: 1\n", 1, 4, "the '{' mapping that opens here is not closed"),
    ("a: b: c\n", 1, 5, "a ':' here cannot start a value"),
    ("a: *nope\n", 1, 4, "alias *nope has no anchor &nope before it"),
    ('a: "\\q"\n', 1, 6, "'\\q' is not an escape sequence"),
    ("a: 1\n---\nb: 2\n", 2, 1, "a second YAML document starts here"),
    ("a: @x\n", 1, 4, "'@' cannot start a value"),
    ("a: &\n", 1, 4, "an anchor (&) or alias (*) needs a name"),
    ("a: |x\n  t\n", 1, 4, "after '|' or '>' only an indentation number"),
    ("1: x\n", 1, 1, "key '1' is a number, not a name"),
    ("a: !!python/object/apply:os.system ['true']\n", 1, 4, "YAML tag '!!python/object/apply:os.system' is not allowed"),
    ("a: 1\x00\n", 1, 5, "U+0000 (NUL) is not allowed"),
]


@pytest.mark.parametrize("text,line,col,words", CASES)
def test_one_plain_line_at_the_mistake(tmp_path, text, line, col, words):
    path = tmp_path / "t.yaml"
    path.write_text(text, encoding="utf-8")
    data, [diag] = load_yaml(path, "t.yaml")
    assert data is None
    assert (diag.line, diag.col) == (line, col), diag.format()
    assert words in diag.message, diag.format()
    assert not any(j in diag.format() for j in JARGON), diag.format()


def test_an_alias_bomb_is_refused_fast_and_small(tmp_path):
    import time
    import tracemalloc

    levels = "".join(f"l{i}: &a{i + 1} [" + ", ".join([f"*a{i}"] * 9) + "]\n" for i in range(9))
    path = tmp_path / "t.yaml"
    path.write_text('l: &a0 ["lol"]\n' + levels + "description: *a9\n")  # 9**9 = 387 million values
    tracemalloc.start()
    started = time.perf_counter()
    data, [diag] = load_yaml(path, "t.yaml")
    seconds, peak = time.perf_counter() - started, tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert data is None and diag.code == "FX183"
    # the memory peak is the measure (expanded, the bomb is 387 million values); the time is only a
    # hang guard, ten times the 1 s the refusal was first given (0.03 s measured on a quiet machine)
    assert peak < 5_000_000
    assert seconds < 10
