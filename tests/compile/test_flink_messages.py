"""FX301's translation table covers the messages Flink gives most (issue 44 case 13): the 25 most frequent in the
real-SQL corpus (every statement Flink rejected when the corpus was gathered, tests/fixtures/corpus/*/MANIFEST.json)
and the differential suite (every mutant the planner rejects, tests/differential/planner_messages.json, written by
`scripts/differential.py --messages`). The shapes themselves are held to each target's planner in
tests/planner/test_flink_messages.py."""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

from flinkx_build.compile.flink_messages import shape_of

REPO = Path(__file__).resolve().parents[2]
MOST_FREQUENT = 25
FLINK_CATEGORIES = ("rejected by Flink", "missing table or catalog", "an !error case of the test script")


def _kind(message: str) -> str:
    """A message with its names, numbers and lists taken out: the messages of one kind count together."""
    message = re.sub(r"^(?:[\w$]+\.)+[\w$]*(?:Exception|Error): ", "", message)
    return re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`|\[[^\]]*\]|<[^>]*>|\d+", "?", message)[:80]


def _messages() -> Counter[str]:
    found: Counter[str] = Counter()
    for manifest in sorted((REPO / "tests" / "fixtures" / "corpus").glob("*/MANIFEST.json")):
        for entry in json.loads(manifest.read_text(encoding="utf-8"))["files"]:
            found.update(d["reason"] for d in entry.get("dropped", []) if d["category"] in FLINK_CATEGORIES)
    recorded = json.loads((REPO / "tests" / "differential" / "planner_messages.json").read_text(encoding="utf-8"))
    found.update(recorded["messages"])
    return found


def test_the_most_frequent_flink_messages_are_said_with_their_fix():
    by_kind: Counter[str] = Counter()
    example: dict[str, str] = {}
    for message, count in _messages().items():
        by_kind[_kind(message)] += count
        example.setdefault(_kind(message), message)
    assert sum(by_kind.values()) > 1000 and len(by_kind) > 100  # both sources were read
    missing = []
    for kind, count in by_kind.most_common(MOST_FREQUENT):
        known = shape_of(example[kind])
        if known is None or not known[0].words(known[1]).hint:
            missing.append(f"{count}: {example[kind][:120]}")
    assert missing == []


def test_a_message_no_shape_knows_keeps_flinks_words():
    assert shape_of("Something Flink says that no shape of the table has seen before") is None


def test_the_hint_names_a_fix_not_the_switch():
    for message in _messages():
        known = shape_of(message)
        if known is not None:
            assert "--no-planner" not in known[0].words(known[1]).hint
