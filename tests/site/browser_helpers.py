"""Small helpers for driving the site in Chromium."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Callable


def open_page(driver, path: Path, fragment: str = "") -> None:
    driver.get(path.resolve().as_uri() + fragment)
    wait_for(driver, lambda: driver.execute_script("return document.readyState") == "complete")


def wait_for(driver, condition: Callable[[], object], timeout: float = 60.0) -> object:
    """Poll `condition` until it is truthy (a guard against hangs, far above the expected time)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting on {driver.current_url}")
        time.sleep(0.05)


def console_problems(driver) -> list[dict]:
    """The browser console's warnings and errors since the last call (CSP violations included)."""
    return [entry for entry in driver.get_log("browser") if entry.get("level") in ("SEVERE", "WARNING")]


def lineage_ids(driver) -> set[str]:
    return set(driver.execute_script("return Array.from(document.querySelectorAll('#lineage .lnode')).map(n => n.dataset.id)"))
