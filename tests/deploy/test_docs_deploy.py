"""docs/deploy.md: its CI workflow is valid YAML that applies only after merge; its codes exist."""
from __future__ import annotations

import re
from pathlib import Path

from ruamel.yaml import YAML

from flinkx_build.errors import CODES

DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def test_the_ci_workflow_applies_only_on_the_main_branch():
    text = DOC.read_text()
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.DOTALL) if "workflows/deploy.yml" in b]
    workflow = YAML(typ="safe").load(block)
    steps = workflow["jobs"]["deploy"]["steps"]
    apply = next(s for s in steps if "--apply" in s.get("run", ""))
    assert apply["if"] == "github.event_name == 'push' && github.ref == 'refs/heads/main'"
    assert workflow["concurrency"]["cancel-in-progress"] is False
    plan = next(s for s in steps if s.get("name") == "plan")
    assert "--plan" in plan["run"] and "if" not in plan


def test_every_code_the_page_names_is_registered():
    named = set(re.findall(r"\bFX6\d\d\b", DOC.read_text()))
    assert named and named <= set(CODES)
