"""Issue 26 item 6: every regular expression flinkx runs on workspace or editor text is linear.

Each case runs the function that applies a pattern (or the pattern as its module applies it)
to a 50,000-character string built to make a backtracking pattern try every split of a run.
A linear pass takes milliseconds; the guard allows ten times a generous half second, while the
quadratic patterns these replace took from 10 s to minutes on such strings.
"""
from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable

import pytest

from flinkx_build import credentials
from flinkx_build import engine_settings
from flinkx_build import limits
from flinkx_build.errors import Diagnostic
from flinkx_build.flink_types import FlinkType
from flinkx_build.flink_types import row_fields
from flinkx_build.frontend.hints import parse_hint
from flinkx_build.frontend.splitter import split_statements
from flinkx_build.load.yaml_messages import _found
from flinkx_build.lsp import complete
from flinkx_build.noqa import suppressed
from flinkx_build.resolve import reads
from flinkx_build.resolve.effective import flink_watermark_expression
from flinkx_build.resolve.effective import parse_watermark
from flinkx_build.testing.values import parse_type as fixture_type

N = 50_000
EXPECTED_SECONDS = 0.5
GUARD_SECONDS = 10 * EXPECTED_SECONDS

SPACES = " " * N
RUN = "a" * N


def _raises(call: Callable[[], object]) -> None:
    try:
        call()
    except ValueError:
        pass


def _diag() -> Diagnostic:
    return Diagnostic("t.sql", 1, 1, "FX01", "m")


CASES: dict[str, Callable[[], object]] = {
    # SET statements that flinkx test and deploy hand to Flink, and fixture column types
    "set_pair: spaces inside the value": lambda: engine_settings.set_pair("SET a = x" + SPACES + "y"),
    "set_pair: quoted key, spaces": lambda: engine_settings.set_pair("SET 'a' = 'x'" + SPACES + "y"),
    "set_pair: comment openers": lambda: engine_settings.set_pair("/*" * (N // 2) + " SET a = b"),
    "set_pair: comment lines": lambda: engine_settings.set_pair("--\n" * (N // 3) + "SET a = b"),
    "fixture type: spaces then junk": lambda: _raises(lambda: fixture_type("ROW<" + SPACES + "!")),
    # credential masking: a long key run, with and without a credential word, dotted, quoted
    "mask_text: key run": lambda: credentials.mask_text("password" + RUN),
    "mask_text: dotted run": lambda: credentials.mask_text("password" + "x.y." * (N // 4)),
    "mask_text: run then spaces": lambda: credentials.mask_text("password" + RUN + SPACES + "!"),
    "mask_text: quotes": lambda: credentials.mask_text("key: '" + "password: '" * (N // 11)),
    "mask_text: nested quoted values": lambda: credentials.mask_text("a: \"b: 'c: \"" * (N // 12) + "password=x"),
    "literal_credentials: key run": lambda: credentials.literal_credentials("password" + "a-" * (N // 2)),
    "mask_in_context: key run": lambda: credentials.mask_in_context("token " + RUN, "token" + RUN),
    "is_credential_key: long key": lambda: credentials.is_credential_key("aB." * (N // 3)),
    "is_placeholder: spaces": lambda: credentials.is_placeholder(SPACES + "x"),
    # lint suppression comments
    "noqa: spaces after codes": lambda: suppressed("SELECT 1 -- noqa: FX01" + SPACES + "!", _diag()),
    "noqa: many comments": lambda: suppressed("-- noqa: a " * (N // 11) + "!", _diag()),
    # watermarks and ROW types (semantic model)
    "watermark: spaces in the expression": lambda: parse_watermark("WATERMARK FOR ts AS ts" + SPACES + "x"),
    "watermark: spaces after AS": lambda: parse_watermark("WATERMARK FOR ts AS" + SPACES),
    "withOffset: many calls": lambda: flink_watermark_expression("withOffset(" * (N // 11), "flink"),
    "withOffset: spaces": lambda: flink_watermark_expression("withOffset(" + SPACES + "x", "flink"),
    "withOffset: spaces before the comma": lambda: flink_watermark_expression("withOffset(ts" + SPACES + "x, 1", "flink"),
    "ROW field comment: spaces": lambda: row_fields(FlinkType("ROW", (), True, "ROW<a INT" + SPACES + "x>")),
    "cdc server-id range: spaces": lambda: reads._RANGE.fullmatch(("1" + SPACES + "x").strip()),
    # the language server's completion looks at the line before the cursor
    "complete: word": lambda: complete._WORD.search(RUN + "!"),
    "complete: project call": lambda: complete._PROJECT_CALL.search(RUN + "!"),
    "complete: project call after a colon": lambda: complete._PROJECT_CALL.search("a:" + RUN + "!"),
    "complete: qualifier": lambda: complete._QUALIFIER.search(RUN + "!"),
    "complete: variable": lambda: complete._VARIABLE_START.search("${" + "a" * N + "}"),
    # YAML error messages, SQL limits, the splitter, hints
    "yaml message: quotes": lambda: _found("'" * N + "x"),
    "sql limits: unclosed comments": lambda: limits.sql_limit_problem("/*" * (N // 2)),
    "sql limits: unclosed quotes": lambda: limits.sql_limit_problem("'\\" * (N // 2)),
    "position: many lines": lambda: limits.position("\r\n" * N, 2 * N),
    "splitter: quotes and comments": lambda: split_statements("'" + "--" * N),
    "hint: spaces": lambda: parse_hint("/*+ OPTIONS(" + SPACES + "x */"),
}


def _run(name: str) -> None:
    CASES[name]()


@pytest.mark.parametrize("name", list(CASES))
def test_user_text_patterns_are_linear(name):
    # in a child process, so a pattern that backtracks for minutes is stopped at the guard
    child = multiprocessing.get_context("fork").Process(target=_run, args=(name,))
    started = time.perf_counter()
    child.start()
    child.join(GUARD_SECONDS)
    elapsed = time.perf_counter() - started
    if child.is_alive():
        child.kill()
        child.join()
    assert child.exitcode == 0 and elapsed < GUARD_SECONDS, f"{name}: {elapsed:.1f} s on {N:,} characters (exit {child.exitcode})"


def test_masking_still_finds_what_it_found():
    """The linear patterns mask what the old ones did (the behaviour, not only the speed)."""
    assert credentials.mask_text("x password=hunter22 y") == f"x password={credentials.MASK} y"
    assert credentials.mask_text("'a.password' = 'v'") == f"'a.password' = '{credentials.MASK}'"
    assert credentials.mask_text("cannot parse: \"WITH ('user-info' = 'u:p'\"") == f"cannot parse: \"WITH ('user-info' = '{credentials.MASK}'\""
    assert parse_watermark("WATERMARK FOR `ts` AS ts - INTERVAL '5' SECOND  ") == ("ts", "ts - INTERVAL '5' SECOND", 22)
    assert flink_watermark_expression("withOffset(f(a, b), 1500)", "flink") == "f(a, b) - INTERVAL '1.5' SECOND"
    assert suppressed("SELECT 1 -- noqa: FX01, FX02  ", _diag()) and not suppressed("SELECT 1 -- noqa: FX02", _diag())
    assert suppressed("SELECT '--' -- noqa", _diag()) and not suppressed("SELECT 1 -- noqa:", _diag())
    assert _found("found 'x' here: 'a'b'") == "x' here: 'a'b" and _found("no quote") == ""
    assert complete._WORD.search("SELECT ab").group(0) == "ab" and complete._PROJECT_CALL.search("x dim:pa").group(1) == "dim"
