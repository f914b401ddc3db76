"""The Flink settings a task's SET may give the engine: the allow-list, in this one place.

A task comes from a pull request, and `flinkx test`, `validate` and `deploy` hand its SETs to a
Flink environment on the machine that runs them. Flink reads far more from that configuration
than planner options: where to send the job (`rest.*`, `execution.target`), which jars and
classes to load (`pipeline.jars`, `*.class`, `python.*`), where to write (`*.dir`, `*.path`,
`state.backend.rocksdb.localdir`). So a task may SET only the table and execution options below
(FX196 for any other), and flinkx's own settings are applied after the task's, so they always win.
docs/security.md lists the same allow-list.
"""
from __future__ import annotations

CODE = "FX196"

# Planner, optimizer and runtime options of the Table API (mini-batch, state TTL, idle timeout,
# join and aggregate strategies, sink behaviour, ...), except the few below that name paths or classes.
ALLOWED_PREFIXES: tuple[str, ...] = ("table.exec.", "table.optimizer.", "table.display.")
ALLOWED_KEYS: frozenset[str] = frozenset({
    "table.local-time-zone", "table.sql-dialect", "table.dynamic-table-options.enabled",
    "table.generated-code.max-length", "table.plan.force-recompile",
    "parallelism.default", "pipeline.name", "pipeline.max-parallelism", "pipeline.auto-watermark-interval",
    "pipeline.object-reuse", "pipeline.operator-chaining.enabled",
    # checkpointing: how often and how, never where
    "execution.checkpointing.interval", "execution.checkpointing.mode", "execution.checkpointing.timeout",
    "execution.checkpointing.min-pause", "execution.checkpointing.max-concurrent-checkpoints",
    "execution.checkpointing.tolerable-failed-checkpoints", "execution.checkpointing.unaligned",
    "execution.checkpointing.unaligned.enabled", "execution.checkpointing.aligned-checkpoint-timeout",
    "execution.buffer-timeout", "execution.buffer-timeout.enabled", "execution.buffer-timeout.interval",
    "restart-strategy.type", "restart-strategy",
    "restart-strategy.fixed-delay.attempts", "restart-strategy.fixed-delay.delay",
    "restart-strategy.failure-rate.max-failures-per-interval", "restart-strategy.failure-rate.failure-rate-interval",
    "restart-strategy.failure-rate.delay", "restart-strategy.exponential-delay.initial-backoff",
    "restart-strategy.exponential-delay.max-backoff", "restart-strategy.exponential-delay.backoff-multiplier",
    "restart-strategy.exponential-delay.reset-backoff-threshold", "restart-strategy.exponential-delay.jitter-factor",
})
# Catalog types whose factory is Flink's own class in flink-table-api: the in-memory catalog keeps
# tables in the session, loads no outside code and connects nowhere, so CREATE CATALOG of this
# type is planned like any DDL (FX195 for every other type: its factory is a plugin's code).
SAFE_CATALOG_TYPES: frozenset[str] = frozenset({"generic_in_memory"})

# Words that, as a part of an allowed key, still choose a path, an address, code or a state location.
_REFUSED_PARTS = frozenset({"dir", "dirs", "path", "paths", "localdir", "jar", "jars", "classpaths", "class", "classes",
                            "address", "port", "host", "url", "python", "listeners", "download-dir"})
REFUSED_PARTS = _REFUSED_PARTS  # the planner driver applies the same rule to the same words (planner/protocol.py)

# Allowed settings that make planning super-linear past a size, each with the largest value a task may give
# (issue 41): the bushy join reorder is exhaustive over the joined inputs up to this threshold, so a task
# that enables join reordering and raises it past Flink's own default (12) made the planner run for hours on
# an 18-table join (measured: 16 tables, a star, over 600 s; at 12 the same task plans in 13 s). Above the
# threshold Flink reorders left-deep, which is polynomial. The driver also forces the cap (Policy.java), so a
# value that reaches the engine some other way is capped too.
CAPS: dict[str, int] = {"table.optimizer.bushy-join-reorder-threshold": 12}


def refusal(key: str, value: str | None = None) -> str:
    """Why a task may not SET `key` (to `value`, when given): a one-line message without the code, or ''."""
    lowered = key.strip().lower()
    parts = set(lowered.replace("-", ".").split(".")) | set(lowered.split("."))
    allowed = lowered in ALLOWED_KEYS or lowered.startswith(ALLOWED_PREFIXES)
    if not allowed or parts & _REFUSED_PARTS:
        return (f"SET '{key}' is not an engine setting a task may change: flinkx applies only planner and "
                f"execution options (docs/security.md, allowed engine settings)")
    cap = CAPS.get(lowered)
    if cap is not None and value is not None and not _within(value, cap):
        return (f"SET '{key}' = '{value.strip()[:40]}' is over flinkx's cap of {cap}: past it, planning a join "
                f"takes exponential time (docs/security.md, allowed engine settings)")
    return ""


def _within(value: str, cap: int) -> bool:
    text = value.strip().strip("'").strip()
    return text.isdigit() and len(text) <= 6 and int(text) <= cap


HINT = "remove the SET; addresses, paths, jars, classes and state locations are the operator's, not the task's"


def hint(key: str) -> str:
    """The fix for a refused SET of `key`."""
    cap = CAPS.get(key.strip().lower())
    return HINT if cap is None else f"set it to {cap} or less, or remove the SET (Flink's default is 12)"


def _after_comments(text: str) -> str:
    """`text` from its first token on: leading blanks, `-- ...` lines and `/* ... */` blocks skipped."""
    i = 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if text.startswith("--", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                return text[i:]
            i = end + 2
        else:
            return text[i:]


def _quoted(text: str, start: int) -> tuple[str, int] | None:
    """The SQL string literal opening at `text[start]` (`''` is a quote) and the index after it."""
    out, i = [], start + 1
    while i < len(text):
        if text[i] == "'":
            if text.startswith("''", i):
                out.append("'")
                i += 2
                continue
            return "".join(out), i + 1
        out.append(text[i])
        i += 1
    return None


def set_pair(text: str) -> tuple[str, str] | None:
    """(key, value) of `SET 'key' = 'value'` or `SET key = value` as the compiled script writes
    it, or None. One left-to-right scan: a regex with a lazy value before trailing spaces was
    quadratic on a long run of spaces (issue 26, item 6). The comments a task wrote above its SET
    travel with the statement and are skipped: a SET behind a comment was dropped before (issue 46)."""
    text = _after_comments(text).strip()
    if len(text) < 4 or text[:3].upper() != "SET" or not text[3].isspace():
        return None
    i = len(text[3:]) - len(text[3:].lstrip()) + 3
    if text.startswith("'", i):
        found = _quoted(text, i)
        if found is None:
            return None
        key, i = found
    else:
        end = i
        while end < len(text) and not text[end].isspace() and text[end] != "=":
            end += 1
        key, i = text[i:end], end
    rest = text[i:].lstrip()
    if not key or not rest.startswith("="):
        return None
    value = rest[1:].strip()
    if value.startswith("'"):
        found = _quoted(value, 0)
        if found is not None and found[1] == len(value):
            return key, found[0]
    return key, value
