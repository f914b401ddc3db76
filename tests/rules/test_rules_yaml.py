"""Run the YAML rule cases (FX01.yml ...) through sqlfluff's own rule-test helpers."""
from pathlib import Path

import pytest
from sqlfluff.utils.testing.rules import load_test_cases
from sqlfluff.utils.testing.rules import rules__test_helper

HERE = Path(__file__).parent
ids, test_cases = load_test_cases(str(HERE / "FX*.yml"))


@pytest.mark.parametrize("test_case", test_cases, ids=ids)
def test_rule_case(test_case):
    rules__test_helper(test_case)
