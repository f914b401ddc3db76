"""The check registry (flinkx_build/checks/: one `Check` object per check) is the one list of the
semantic checks: errors.CODES, docs/checks.md and the index in docs/error-codes.md agree with it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from flinkx_build.checks import CHECKS
from flinkx_build.checks import REGISTRY
from flinkx_build.errors import CODES

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
CHECK_CODES = [code for check in REGISTRY for code in check.codes]


def _sections(page: str) -> dict[str, str]:
    """`## FXnnn` -> the section's text up to the next heading of that level."""
    parts = re.split(r"^## (FX\d+)\n", (DOCS / page).read_text(), flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_every_check_module_is_in_the_registry():
    modules = {p.stem for p in (ROOT / "flinkx_build" / "checks").glob("*.py")} - {"__init__", "check"}
    registered = {check.run.__module__.rsplit(".", 1)[1] for check in REGISTRY if check.run is not None} | {"workspace"}
    assert modules == registered


def test_each_code_has_one_check_and_a_row_in_codes():
    codes = [c.code for c in CHECK_CODES]
    assert len(codes) == len(set(codes)), "a code belongs to one check"
    assert not [code for code in codes if code not in CODES]


def test_every_semantic_check_code_is_registered():
    # FX4xx are the semantic checks' codes (errors.CODES, docs/error-codes.md)
    registered = {c.code for c in CHECK_CODES}
    assert not sorted(code for code in CODES if code.startswith("FX4") and code not in registered)


def test_the_checks_that_run_are_the_registered_ones_in_order():
    assert CHECKS == tuple(check.run for check in REGISTRY if check.run is not None)


@pytest.mark.parametrize("check", REGISTRY, ids=lambda check: check.name)
def test_each_code_is_documented_on_its_checks_page(check):
    sections = _sections(check.page)
    for code in check.codes:
        assert code.code in sections, f"docs/{check.page} has no section ## {code.code}"


def test_checks_md_has_a_section_for_each_code_of_the_checks_on_it_and_no_other():
    on_page = {c.code for check in REGISTRY if check.page == "checks.md" for c in check.codes}
    assert set(_sections("checks.md")) == on_page


@pytest.mark.parametrize("code", [c for check in REGISTRY if check.page == "checks.md" for c in check.codes], ids=lambda c: c.code)
def test_checks_md_names_each_code_with_its_name_and_severity(code):
    first = _sections("checks.md")[code.code].strip().splitlines()[0]  # **Title** (`name`, severity...).
    assert f"(`{code.name}`, {code.severity}" in first, first


def test_the_error_codes_index_is_errors_codes():
    rows = re.findall(r"^\| \[(FX\d+)\]\(#fx\d+\) \| (\w+) \| (.*) \|$", (DOCS / "error-codes.md").read_text(), flags=re.M)
    assert {code: (severity, title) for code, severity, title in rows} == CODES
