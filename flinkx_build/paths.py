"""A path relative to a folder it is below, by string operations.

The build meets every file of the workspace (graph node sources, summary-key
places) and of the build folder (the replay's signature): `os.path.relpath`
splits and compares both paths on every call, which adds up over a
thousand tasks. A path below the folder needs only its prefix cut off.
"""
from __future__ import annotations

import os


def below(path: str, folder: str) -> str | None:
    """`path` (made absolute) relative to `folder` (absolute and normalised), or None when it is not below it."""
    absolute = os.path.abspath(path)
    inside = folder.rstrip(os.sep) + os.sep
    return absolute[len(inside):] if absolute.startswith(inside) else None
