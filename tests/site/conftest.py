"""The docs site built by a real `flinkx docs` process, and a real headless Chromium to read it."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import EXAMPLE

SOURCE_URL = "https://git.example.test/shop/blob/main/{path}#L{line}"


def flinkx_docs(workspace: Path, out: Path, *extra: str, timeout: float = 600) -> subprocess.CompletedProcess:
    """`flinkx docs WORKSPACE --out OUT` as a real process."""
    return subprocess.run([sys.executable, "-m", "flinkx_build", "docs", str(workspace), "--out", str(out), *extra],
                          capture_output=True, text=True, timeout=timeout)


def copy_example(target: Path, docs_config: str = f'docs:\n  source_url: "{SOURCE_URL}"\n') -> Path:
    """The example workspace copied to `target` (the site never lands in the repository), with a
    `docs:` section."""
    shutil.copytree(EXAMPLE, target, ignore=shutil.ignore_patterns(".flinkx-cache", "build", "site"))
    config = target / "flinkx.yaml"
    config.write_text(config.read_text(encoding="utf-8") + "\n" + docs_config, encoding="utf-8")
    return target


@pytest.fixture(scope="session")
def example_site(tmp_path_factory) -> Path:
    """The example workspace's site (built once a session)."""
    base = tmp_path_factory.mktemp("example-site")
    ws = copy_example(base / "ws")
    done = flinkx_docs(ws, base / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    return base / "site"


def artifacts_dir() -> Path:
    """Where browser tests keep screenshots: `$FLINKX_TEST_ARTIFACTS`, else a temporary folder."""
    folder = Path(os.environ.get("FLINKX_TEST_ARTIFACTS") or Path(tempfile.gettempdir()) / "flinkx-test-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _chromium() -> tuple[str, str] | None:
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@pytest.fixture(scope="session")
def browser():
    """A headless Chromium driven by chromedriver (Debian's `chromium` and `chromium-driver`,
    which `.ci/run` installs); the tests skip, saying why, when they are missing."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip("selenium is not installed (pip install -e '.[test]')")
    found = _chromium()
    if found is None:
        pytest.skip("chromium and chromedriver are not installed (apt-get install chromium chromium-driver; .ci/run does it)")
    options = Options()
    options.binary_location = found[0]
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,900",
                "--no-first-run", "--disable-extensions", "--disable-background-networking"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(found[1]))
    driver.set_page_load_timeout(120)
    yield driver
    driver.quit()
