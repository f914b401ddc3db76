"""The restore suite's edits: a base job and an edited job per edit kind, to be judged by Flink itself.

Each case is one ordinary edit to a stateful task. `scripts/restore_suite.py` runs the base job on a live
cluster, takes a savepoint, restores the edited job from it (non-restored state not allowed) and records what
Flink did in `outcomes.json`; nothing here says whether an edit restores. `meaning` is what the edit does to
the state it would keep, read from the SQL: "same" (the state means what it meant: a filter before the
aggregate, a comment) or "other" (the state is read under another rule: a window size, a key expression, a
Top-N limit, an aggregate function). It matters only where Flink restores; the suite checks the classifier's
"restores with another meaning" against it.

Cases that share a base share its savepoint (a savepoint can be restored any number of times).
"""
from __future__ import annotations

from dataclasses import dataclass

from flinkx_build.deploy.identity import Statement

# Endless generators: jobs keep RUNNING and build state. Timestamps are the current time, so event-time
# windows and joins advance. The columns cover every edit: same-type and other-type keys, a proc-time field.
SOURCES = """
CREATE TABLE clicks (
  user_id BIGINT, page STRING, amount BIGINT, bonus BIGINT, region INT, ts TIMESTAMP(3),
  pt AS PROCTIME(),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen', 'rows-per-second' = '10',
  'fields.user_id.min' = '1', 'fields.user_id.max' = '50', 'fields.page.length' = '2',
  'fields.amount.min' = '1', 'fields.amount.max' = '100', 'fields.bonus.min' = '1', 'fields.bonus.max' = '9',
  'fields.region.min' = '1', 'fields.region.max' = '5');

CREATE TABLE orders (
  order_id BIGINT, user_id BIGINT, price BIGINT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen', 'rows-per-second' = '10',
  'fields.order_id.min' = '1', 'fields.order_id.max' = '300', 'fields.user_id.min' = '1', 'fields.user_id.max' = '50',
  'fields.price.min' = '1', 'fields.price.max' = '100');

CREATE TABLE payments (
  order_id BIGINT, user_id BIGINT, paid BIGINT, ts TIMESTAMP(3),
  WATERMARK FOR ts AS ts - INTERVAL '1' SECOND
) WITH ('connector' = 'datagen', 'rows-per-second' = '10',
  'fields.order_id.min' = '1', 'fields.order_id.max' = '300', 'fields.user_id.min' = '1', 'fields.user_id.max' = '50',
  'fields.paid.min' = '1', 'fields.paid.max' = '100');

CREATE TABLE users_dim (id BIGINT, name STRING, level INT) WITH ('connector' = 'suite-dim');
"""

SINKS = """
CREATE TABLE agg_out (k BIGINT, c BIGINT, s BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE agg_out_s (k STRING, c BIGINT, s BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE win_out (ws TIMESTAMP(3), we TIMESTAMP(3), k BIGINT, c BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE win_out_s (ws TIMESTAMP(3), we TIMESTAMP(3), k STRING, c BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE join_out (order_id BIGINT, price BIGINT, paid BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE top_out (region INT, user_id BIGINT, amount BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE top_out_rn (region INT, user_id BIGINT, amount BIGINT, rn BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE dedup_out (user_id BIGINT, page STRING, amount BIGINT) WITH ('connector' = 'blackhole');
CREATE TABLE lookup_out (user_id BIGINT, name STRING, level INT) WITH ('connector' = 'blackhole');
CREATE TABLE copy_out (user_id BIGINT, page STRING) WITH ('connector' = 'blackhole');
"""


@dataclass(frozen=True)
class Case:
    name: str
    family: str  # the stateful operator the edit touches
    edit: str  # what changed, in a reader's words
    base: str  # the key of the base job in BASES
    edited: str  # the edited task's statements (after SOURCES and SINKS)
    meaning: str  # "same" or "other": what the kept state would mean (see the module's doc)


def split(sql: str) -> list[str]:
    """Statements of a script written here: each ends with ';' at the end of a line."""
    out, current = [], []
    for line in sql.strip().splitlines():
        current.append(line)
        if line.rstrip().endswith(";"):
            text = "\n".join(current).strip().rstrip(";").strip()
            if text:
                out.append(text)
            current = []
    return out


def _kind(text: str) -> str:
    words = " ".join(line for line in text.splitlines() if not line.strip().startswith("--")).split()
    head = [w.upper() for w in words[:2]]
    if head[:1] == ["SET"]:
        return "set"
    if head[:1] == ["INSERT"]:
        return "insert"
    if head == ["CREATE", "TABLE"]:
        return "create_table"
    if head == ["CREATE", "VIEW"] or head[:2] == ["CREATE", "TEMPORARY"]:
        return "create_view"
    return "other"


def statements(task_sql: str) -> list[Statement]:
    """A job's statements: the shared tables, then the task's own."""
    return [Statement(_kind(s), s) for s in split(SOURCES) + split(SINKS) + split(task_sql)]


GROUP = "INSERT INTO agg_out SELECT user_id, COUNT(*), SUM(amount) FROM clicks GROUP BY user_id;"
WINDOW = """INSERT INTO win_out SELECT window_start, window_end, user_id, COUNT(*)
FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end, user_id;"""
JOIN = """INSERT INTO join_out SELECT o.order_id, o.price, p.paid
FROM orders AS o JOIN payments AS p ON o.order_id = p.order_id;"""
INTERVAL = """INSERT INTO join_out SELECT o.order_id, o.price, p.paid
FROM orders AS o JOIN payments AS p
ON o.order_id = p.order_id AND p.ts BETWEEN o.ts AND o.ts + INTERVAL '10' SECOND;"""
LOOKUP = """INSERT INTO lookup_out SELECT c.user_id, d.name, d.level
FROM clicks AS c JOIN users_dim FOR SYSTEM_TIME AS OF c.pt AS d ON c.user_id = d.id;"""
ASYNC_LOOKUP = LOOKUP.replace("SELECT c.user_id", "SELECT /*+ LOOKUP('table'='d', 'async'='true', "
                              "'output-mode'='ordered') */ c.user_id")
TOPN = """INSERT INTO top_out SELECT region, user_id, amount FROM (
  SELECT region, user_id, amount, ROW_NUMBER() OVER (PARTITION BY region ORDER BY amount DESC) AS rn FROM clicks
) WHERE rn <= 3;"""
DEDUP = """INSERT INTO dedup_out SELECT user_id, page, amount FROM (
  SELECT user_id, page, amount, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY pt ASC) AS rn FROM clicks
) WHERE rn = 1;"""
COPY = "INSERT INTO copy_out SELECT user_id, page FROM clicks;"

BASES: dict[str, str] = {
    "group": GROUP,
    "window": WINDOW,
    "join": JOIN,
    "interval": INTERVAL,
    "lookup": LOOKUP,
    "async_lookup": ASYNC_LOOKUP,
    "topn": TOPN,
    "dedup": DEDUP,
    "two_inserts": GROUP + "\n" + WINDOW,
}


def _swap(text: str, old: str, new: str) -> str:
    assert old in text, (old, text)
    return text.replace(old, new)


CASES: list[Case] = [
    # --- group aggregate
    Case("group_filter_before", "group aggregate", "a WHERE filter before the aggregate", "group",
         _swap(GROUP, "FROM clicks", "FROM clicks WHERE amount > 10"), "same"),
    Case("group_output_expression", "group aggregate", "an expression on the aggregate's output", "group",
         _swap(GROUP, "SUM(amount)", "SUM(amount) * 2"), "same"),
    Case("group_having", "group aggregate", "a HAVING filter after the aggregate", "group",
         _swap(GROUP, "GROUP BY user_id;", "GROUP BY user_id HAVING COUNT(*) > 1;"), "same"),
    Case("group_aggregate_added", "group aggregate", "an aggregate added (MAX)", "group",
         _swap(GROUP, "SUM(amount)", "SUM(amount) + MAX(amount)"), "other"),
    Case("group_aggregate_removed", "group aggregate", "an aggregate removed (SUM)", "group",
         _swap(GROUP, "SUM(amount)", "CAST(NULL AS BIGINT)"), "other"),
    Case("group_function_same_type", "group aggregate", "SUM -> MAX of the same column", "group",
         _swap(GROUP, "SUM(amount)", "MAX(amount)"), "other"),
    Case("group_argument_changed", "group aggregate", "SUM of another column of the same type", "group",
         _swap(GROUP, "SUM(amount)", "SUM(bonus)"), "other"),
    Case("group_distinct", "group aggregate", "COUNT(*) -> COUNT(DISTINCT page)", "group",
         _swap(GROUP, "COUNT(*)", "COUNT(DISTINCT page)"), "other"),
    Case("group_key_expression", "group aggregate", "grouping key expression of the same type", "group",
         _swap(_swap(GROUP, "SELECT user_id,", "SELECT user_id + 1,"), "GROUP BY user_id", "GROUP BY user_id + 1"),
         "other"),
    Case("group_key_added", "group aggregate", "a second grouping key", "group",
         _swap(GROUP, "GROUP BY user_id", "GROUP BY user_id, region"), "other"),
    Case("group_key_type", "group aggregate", "grouping key of another type (BIGINT -> STRING)", "group",
         "INSERT INTO agg_out_s SELECT page, COUNT(*), SUM(amount) FROM clicks GROUP BY page;", "other"),
    # the kept counts now expire: a user idle for an hour starts again from zero
    Case("group_state_ttl", "group aggregate", "SET table.exec.state.ttl (state TTL switched on)", "group",
         "SET 'table.exec.state.ttl' = '1 h';\n" + GROUP, "other"),
    Case("group_mini_batch", "group aggregate", "SET mini-batch on (local/global aggregation)", "group",
         "SET 'table.exec.mini-batch.enabled' = 'true';\nSET 'table.exec.mini-batch.allow-latency' = '1 s';\n"
         "SET 'table.exec.mini-batch.size' = '100';\n" + GROUP, "same"),
    Case("group_parallelism", "group aggregate", "SET parallelism.default 1 -> 2 (rescale)", "group",
         "SET 'parallelism.default' = '2';\n" + GROUP, "same"),
    Case("group_unrelated_set", "group aggregate", "a SET that does not change the plan", "group",
         "SET 'table.exec.sink.not-null-enforcer' = 'DROP';\n" + GROUP, "same"),
    Case("group_comment", "group aggregate", "comments only", "group",
         "-- clicks per user\n" + _swap(GROUP, "FROM clicks", "/* every click */ FROM clicks"), "same"),
    Case("group_formatting", "group aggregate", "formatting only (line breaks, keyword case)", "group",
         "insert into agg_out\nselect user_id,\n       count(*),\n       sum(amount)\nfrom clicks\ngroup by user_id;",
         "same"),
    Case("group_via_view", "group aggregate", "the query moved into a CREATE VIEW", "group",
         "CREATE TEMPORARY VIEW per_user AS SELECT user_id, COUNT(*) AS c, SUM(amount) AS s FROM clicks GROUP BY user_id;\n"
         "INSERT INTO agg_out SELECT user_id, c, s FROM per_user;", "same"),
    # --- window aggregate
    Case("window_size", "window aggregate", "tumbling window 10 s -> 20 s", "window",
         _swap(WINDOW, "INTERVAL '10' SECOND", "INTERVAL '20' SECOND"), "other"),
    Case("window_type", "window aggregate", "TUMBLE -> HOP of the same size", "window",
         _swap(WINDOW, "TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND)",
               "HOP(TABLE clicks, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)"), "other"),
    Case("window_aggregate_added", "window aggregate", "an aggregate added (SUM)", "window",
         _swap(WINDOW, "COUNT(*)", "COUNT(*) + SUM(amount)"), "other"),
    Case("window_key_type", "window aggregate", "window key of another type (BIGINT -> STRING)", "window",
         _swap(_swap(_swap(WINDOW, "win_out SELECT", "win_out_s SELECT"), "window_end, user_id, COUNT",
                     "window_end, page, COUNT"), "window_end, user_id;", "window_end, page;"), "other"),
    Case("window_key_expression", "window aggregate", "window key expression of the same type", "window",
         _swap(_swap(WINDOW, "window_end, user_id, COUNT", "window_end, user_id + 1, COUNT"),
               "window_end, user_id;", "window_end, user_id + 1;"), "other"),
    Case("window_proctime", "window aggregate", "event time -> processing time", "window",
         _swap(WINDOW, "DESCRIPTOR(ts)", "DESCRIPTOR(pt)"), "other"),
    Case("window_filter_before", "window aggregate", "a WHERE filter before the window (through a view)", "window",
         "CREATE TEMPORARY VIEW big_clicks AS SELECT * FROM clicks WHERE amount > 10;\n"
         + _swap(WINDOW, "TABLE clicks,", "TABLE big_clicks,"), "same"),
    # --- regular join
    Case("join_filter", "regular join", "a filter on one side (same rows kept per key)", "join",
         _swap(JOIN, "ON o.order_id = p.order_id;", "ON o.order_id = p.order_id WHERE o.price > 10;"), "same"),
    Case("join_key_same_type", "regular join", "join key changed to another column of the same type", "join",
         _swap(JOIN, "ON o.order_id = p.order_id", "ON o.user_id = p.user_id"), "other"),
    Case("join_left_outer", "regular join", "INNER JOIN -> LEFT JOIN", "join",
         _swap(JOIN, "AS o JOIN", "AS o LEFT JOIN"), "other"),
    Case("join_column_kept", "regular join", "one more column of a side used after the join", "join",
         _swap(JOIN, "o.price, p.paid", "o.price + o.user_id, p.paid"), "same"),
    # --- interval join
    Case("interval_bounds", "interval join", "interval bounds 10 s -> 20 s", "interval",
         _swap(INTERVAL, "INTERVAL '10' SECOND", "INTERVAL '20' SECOND"), "other"),
    Case("interval_filter", "interval join", "a filter on one side", "interval",
         _swap(INTERVAL, "INTERVAL '10' SECOND;", "INTERVAL '10' SECOND WHERE o.price > 10;"), "same"),
    # --- lookup join
    Case("lookup_column_added", "lookup join", "one more dimension column used (proc-time lookup)", "lookup",
         _swap(LOOKUP, "d.name, d.level", "d.name, d.level + 1"), "same"),
    Case("lookup_sync_to_async", "lookup join", "a LOOKUP hint makes the lookup async", "lookup", ASYNC_LOOKUP, "same"),
    Case("lookup_async_filter", "lookup join", "async lookup: a filter before the lookup", "async_lookup",
         _swap(ASYNC_LOOKUP, "ON c.user_id = d.id;", "ON c.user_id = d.id WHERE c.amount > 10;"), "same"),
    # --- Top-N
    Case("topn_limit", "Top-N", "Top-N limit 3 -> 5", "topn", _swap(TOPN, "rn <= 3", "rn <= 5"), "other"),
    Case("topn_partition_type", "Top-N", "PARTITION BY a column of another type (INT -> BIGINT)", "topn",
         _swap(TOPN, "PARTITION BY region", "PARTITION BY user_id"), "other"),
    Case("topn_order_direction", "Top-N", "ORDER BY amount DESC -> ASC", "topn",
         _swap(TOPN, "ORDER BY amount DESC", "ORDER BY amount ASC"), "other"),
    Case("topn_order_column", "Top-N", "ORDER BY another column of the same type", "topn",
         _swap(TOPN, "ORDER BY amount DESC", "ORDER BY bonus DESC"), "other"),
    Case("topn_row_number_out", "Top-N", "the rank number added to the output", "topn",
         _swap(TOPN, "top_out SELECT region, user_id, amount FROM", "top_out_rn SELECT region, user_id, amount, rn FROM"),
         "same"),
    # --- deduplication
    Case("dedup_keep_last", "deduplication", "keep first row -> keep last row", "dedup",
         _swap(DEDUP, "ORDER BY pt ASC", "ORDER BY pt DESC"), "other"),
    Case("dedup_key_type", "deduplication", "deduplication key of another type (BIGINT -> STRING)", "dedup",
         _swap(DEDUP, "PARTITION BY user_id", "PARTITION BY page"), "other"),
    Case("dedup_proctime_renamed", "deduplication", "the proc-time field renamed (same type)", "dedup",
         _swap(_swap(DEDUP, "FROM clicks", "FROM (SELECT user_id, page, amount, pt AS arrival FROM clicks)"),
               "ORDER BY pt ASC", "ORDER BY arrival ASC"), "same"),
    Case("dedup_rowtime", "deduplication", "ORDER BY proc time -> event time", "dedup",
         _swap(DEDUP, "ORDER BY pt ASC", "ORDER BY ts ASC"), "other"),
    # --- statements of a task
    Case("insert_added_after", "statements", "a second INSERT (stateless) added after an unchanged GROUP BY", "group",
         GROUP + "\n" + COPY, "same"),
    Case("insert_added_before", "statements", "a second INSERT (stateless) added before an unchanged GROUP BY", "group",
         COPY + "\n" + GROUP, "same"),
    Case("stateful_insert_added", "statements", "a second stateful INSERT (a window) added after the GROUP BY", "group",
         GROUP + "\n" + WINDOW, "same"),
    Case("insert_removed", "statements", "the second of two stateful INSERTs removed", "two_inserts", GROUP, "same"),
    Case("inserts_reordered", "statements", "two stateful INSERTs swapped", "two_inserts", WINDOW + "\n" + GROUP, "same"),
    Case("insert_of_two_changed", "statements", "the window of the second INSERT changed, the first unchanged",
         "two_inserts", GROUP + "\n" + _swap(WINDOW, "INTERVAL '10' SECOND", "INTERVAL '20' SECOND"), "other"),
]
