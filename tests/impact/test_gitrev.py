"""`gitrev.checkout`: the workspace at a revision, hard-linked from the working tree where it can be."""
from __future__ import annotations

import os

import pytest

from flinkx_build.impact import gitrev
from flinkx_build.impact.gitrev import checkout
from flinkx_build.impact.gitrev import resolve_revision
from tests.graph.gitrepo import git

ORDERS = "projects/ods/tables/orders.yaml"


@pytest.fixture
def hashed(monkeypatch) -> list[str]:
    """The working-tree files whose bytes the checkout hashed (the rest it took from git's index)."""
    seen = []
    same_blob = gitrev._same_blob

    def counting(path, obj):
        seen.append(path.name)
        return same_blob(path, obj)

    monkeypatch.setattr(gitrev, "_same_blob", counting)
    return seen


def _files(folder) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_unchanged_files_are_linked_without_reading_them(shop, hashed):
    base = git(shop.root, "show", f"HEAD:{shop.repo_path(ORDERS)}")
    shop.edit(ORDERS, "{name: channel, type: STRING", "{name: sales_channel, type: STRING")
    with checkout(shop.root, resolve_revision(shop.root, "HEAD"), shop.prefix) as folder:
        got = _files(folder)
        assert got[ORDERS].decode() == base + "\n"  # the revision's bytes, not the working tree's
        assert os.stat(folder / ORDERS).st_ino != os.stat(shop.path(ORDERS)).st_ino
        linked = [rel for rel in got if rel != ORDERS and os.stat(folder / rel).st_ino == os.stat(shop.path(rel)).st_ino]
        assert len(linked) == len(got) - 1 > 10
    assert hashed == ["orders.yaml"]  # only the file git's index does not vouch for
    # the links changed every linked file's ctime: the next checkout still trusts the index
    with checkout(shop.root, resolve_revision(shop.root, "HEAD"), shop.prefix) as folder:
        assert _files(folder) == got
    assert hashed == ["orders.yaml"] * 2


def test_a_file_not_in_the_index_is_hashed_and_still_exact(shop, hashed):
    """An index that knows nothing (a file removed from it but left on disk) falls back to the bytes."""
    git(shop.root, "rm", "-q", "--cached", shop.repo_path(ORDERS))
    with checkout(shop.root, resolve_revision(shop.root, "HEAD"), shop.prefix) as folder:
        assert (folder / ORDERS).read_bytes() == shop.path(ORDERS).read_bytes()
        assert os.stat(folder / ORDERS).st_ino == os.stat(shop.path(ORDERS)).st_ino  # same bytes: linked
    assert hashed == ["orders.yaml"]


def test_a_link_in_the_working_tree_is_never_linked(shop, tmp_path):
    outside = tmp_path / "outside.yaml"
    outside.write_bytes(shop.path(ORDERS).read_bytes())
    shop.path(ORDERS).unlink()
    shop.path(ORDERS).symlink_to(outside)
    with checkout(shop.root, resolve_revision(shop.root, "HEAD"), shop.prefix) as folder:
        assert not (folder / ORDERS).is_symlink()
        assert os.stat(folder / ORDERS).st_ino != outside.stat().st_ino
        assert (folder / ORDERS).read_bytes() == outside.read_bytes()


def test_a_sigterm_while_the_folder_is_made_still_removes_it(shop_root, tmp_path):
    """impact's child turns SIGTERM into SystemExit: one that lands right after `mkdir` (here sent
    from inside mkdtemp, as if it came during the system call) must not leave the folder behind."""
    import subprocess
    import sys

    made = tmp_path / "made"
    made.mkdir()
    probe = (
        "import os, signal, sys, tempfile\n"
        "from pathlib import Path\n"
        "from flinkx_build.impact.gitrev import checkout, resolve_revision\n"
        "signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))\n"
        f"tempfile.tempdir = {str(made)!r}\n"
        "real = tempfile.mkdtemp\n"
        "def mkdtemp(*args, **kwargs):\n"
        "    folder = real(*args, **kwargs)\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    return folder\n"
        "tempfile.mkdtemp = mkdtemp\n"
        f"repo = Path({str(shop_root.root)!r})\n"
        "try:\n"
        "    with checkout(repo, resolve_revision(repo, 'HEAD'), '') as folder:\n"
        "        print('entered')\n"
        "except SystemExit:\n"
        "    print('stopped')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "stopped", done.stdout + done.stderr
    assert list(made.iterdir()) == []
