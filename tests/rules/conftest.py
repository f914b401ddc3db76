"""Make the flinkx_rules plugin visible to sqlfluff in the test process.

Once the project is pip-installed, sqlfluff finds the plugin through its
entry point; from a source checkout it is registered here by hand.
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "rules"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from flinkx_rules.plugin import ensure_registered  # noqa: E402

ensure_registered()
