from flinkx_build.frontend.hints import parse_hint


def test_seed_hint_grammar_forms():
    # seed 000: hint_item : hint_name | hint_name(k1=v1, ...) | hint_name(hint_opt, ...)
    parsed = parse_hint("/*+ OPTIONS('scan.startup.mode'='latest-offset'), primarykey(id), index(f1, f2), plain */")
    assert parsed.error is None
    names = [i.name for i in parsed.items]
    assert names == ["OPTIONS", "primarykey", "index", "plain"]
    assert parsed.items[0].options == (("scan.startup.mode", "latest-offset"),)
    assert parsed.items[0].quoted_keys
    assert parsed.items[2].args == ("f1", "f2")


def test_dataphincolumns_keeps_family_qualifiers():
    parsed = parse_hint("/*+dataphincolumns(rowkey,family2.q2,family2.q3)*/")
    assert parsed.items[0].args == ("rowkey", "family2.q2", "family2.q3")


def test_unclosed_hint_is_an_error():
    parsed = parse_hint("/*+ primarykey(id */")
    assert parsed.error is not None


def test_hints_without_a_comma_between_them_are_an_error():
    # Flink rejects the first form (tests/frontend/test_flink_grammar.py asks its parser)
    parsed = parse_hint("/*+ BROADCAST(t1) SHUFFLE_HASH(t1) */")
    assert parsed.error is not None and parsed.error.message == "hints are separated by commas: add ',' before 'SHUFFLE_HASH'"
    assert parsed.error.offset == len("/*+ BROADCAST(t1) ")
    assert parse_hint("/*+ BROADCAST(t1), SHUFFLE_HASH(t1) */").error is None


def test_a_non_name_after_a_hint_is_not_a_missing_comma():
    assert parse_hint("/*+ primarykey(id) ) */").error.message == "expected a hint name, found ')'"
