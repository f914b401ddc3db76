from flinkx_build.frontend.splitter import split_statements
from flinkx_build.frontend.splitter import strip_comments


def test_splits_at_top_level_semicolons_only():
    text = "SELECT 'a;b' FROM t; -- c;d\nSELECT `x;y` FROM u /* e;f */;\n"
    chunks = split_statements(text)
    # the comment after the first `;` is that statement's trailing comment, not the next one's
    assert [c.text for c in chunks] == ["SELECT 'a;b' FROM t", "SELECT `x;y` FROM u /* e;f */"]


def test_comment_lines_above_a_statement_stay_with_it():
    chunks = split_statements("SELECT 1;\n-- about the next one\nSELECT 2;")
    assert chunks[1].text == "-- about the next one\nSELECT 2"
    assert chunks[1].code_position == (3, 1)


def test_positions_are_exact():
    text = "\n\n  SET t.a = 'x';\nINSERT INTO s\nSELECT 1;"
    first, second = split_statements(text)
    assert (first.line, first.col, first.offset) == (3, 3, 4)
    assert text[first.offset : first.offset + len(first.text)] == first.text
    assert (second.line, second.col) == (4, 1)
    assert second.position(2, 8) == (5, 8)
    assert first.position(1, 5) == (3, 7)


def test_statement_set_markers_are_their_own_chunks():
    text = "BEGIN STATEMENT SET;\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND;"
    assert [c.kind for c in split_statements(text)] == ["begin_statement_set", "statement", "statement", "end"]


def test_escaped_quotes_and_comment_only_chunks():
    text = "SELECT 'it''s;' FROM t;\n-- only a comment;\n;"
    chunks = split_statements(text)
    assert [c.text for c in chunks] == ["SELECT 'it''s;' FROM t"]


def test_hints_are_not_comments_for_strip():
    assert strip_comments("a /*+ OPTIONS('k'='v') */ b -- c") == "a /*+ OPTIONS('k'='v') */ b     "


def test_double_slash_comments_are_comments_as_in_flink():
    # Calcite's lexer reads `//` to the end of the line as a comment (Flink's parser takes
    # `SELECT a // note`): its `;` and quotes do not split or open anything
    text = "SELECT a // don't; stop\nFROM t; // about t\nSELECT 'http://x' FROM u;"
    chunks = split_statements(text)
    assert [c.text for c in chunks] == ["SELECT a // don't; stop\nFROM t", "SELECT 'http://x' FROM u"]
    assert strip_comments("a // b;\nc") == "a      \nc"


def test_an_explained_statement_set_is_one_statement_as_in_flink():
    # Flink's parser takes `EXPLAIN STATEMENT SET BEGIN ...; END` as one statement: no stray END
    text = "EXPLAIN CHANGELOG_MODE STATEMENT SET BEGIN\nINSERT INTO a SELECT 1;\nINSERT INTO b SELECT 2;\nEND;\nINSERT INTO c SELECT 3;"
    chunks = split_statements(text)
    assert [(c.kind, c.line) for c in chunks] == [("statement", 1), ("statement", 5)]
    assert chunks[0].text == text[: text.index("END;") + 3]
