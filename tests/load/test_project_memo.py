"""Project headers (`project.yaml`) through the load memo (`flinkx_build/load/project_memo.py`).

Real files and the real loader; a warm load must equal a cold one, findings included.
"""
from __future__ import annotations

import json

import pytest

from flinkx_build.cache_entries import write_entry
from flinkx_build.cache_version import versioned_cache_root
from flinkx_build.load import memo as memo_module
from flinkx_build.load.workspace import load_workspace

FILES = {
    "projects/ods/project.yaml": "name: ods\ndescription: raw data\nvariables:\n  topic: orders\n",
    "projects/folder/project.yaml": "name: renamed\nflavour: sour\n",  # FX103, and a name that is not the folder's
    "projects/bad name/project.yaml": "description: x\n",  # FX186 at the folder: never stored
    "projects/nohead/tasks/t.sql": "SELECT 1;\n",
    "projects/ods/tasks/t.sql": "SELECT 1;\n",
}


@pytest.fixture
def ws(make_workspace):
    return make_workspace(FILES)


def _headers(root, use_cache=True):
    workspace, diags = load_workspace(root, use_cache)
    headers = {name: (p.directory.name, p.description, p.variables) for name, p in workspace.projects.items()}
    return headers, sorted((d.path, d.line, d.col, d.code, d.message) for d in diags)


def _yaml_entries(root):
    return list((versioned_cache_root(root, ".flinkx-cache") / "yaml").rglob("*.json"))


def test_a_warm_load_reads_every_header_from_the_memo(ws):
    cold = _headers(ws, use_cache=False)
    assert {"ods", "renamed", "nohead"} == set(cold[0]) and any(d[3] == "FX103" for d in cold[1])
    assert any(d[3] == "FX186" for d in cold[1])
    assert _headers(ws) == cold  # fills the memo
    for entry in _yaml_entries(ws):
        entry.unlink()
    assert _headers(ws) == cold
    # only the header whose finding names the folder (not project.yaml) could not be stored: parsed again
    assert len(_yaml_entries(ws)) == 1


def test_an_edited_project_yaml_is_read_again(ws):
    _headers(ws)
    (ws / "projects/ods/project.yaml").write_text("name: ods\nvariables:\n  topic: refunds\n")
    warm = _headers(ws)
    assert warm == _headers(ws, use_cache=False)
    assert warm[0]["ods"][2] == {"topic": "refunds"}


def test_a_stored_header_of_the_wrong_shape_is_a_miss(ws):
    cold = _headers(ws, use_cache=False)
    _headers(ws)
    path = versioned_cache_root(ws, ".flinkx-cache") / "load" / memo_module.HEADERS_FILE
    data = json.loads(path.read_bytes())["data"]
    for entry in data["entries"].values():
        payload = entry[1]
        if isinstance(payload, list) and len(payload) == 2 and isinstance(payload[0], list) and len(payload[0]) == 3:
            payload[0] = ["../x", 1, {"k": 2}]  # a name the loader refuses, wrong types
    write_entry(path, memo_module.FORMAT, memo_module.VERSION, memo_module.salt(), data)  # signed: only the shape is wrong
    assert _headers(ws) == cold
