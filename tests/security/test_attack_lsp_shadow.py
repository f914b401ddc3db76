"""The language server never writes an unsaved buffer through a link a pull request committed.

An unsaved YAML buffer is checked on a shadow copy of it. The copy used to be written to
`.flinkx-cache/lsp/<file name>`, so a workspace that committed that path as a symlink to any file
the editor's user can write had it replaced by the buffer's text as soon as the file was edited.
A real LSP client (pytest-lsp) drives `flinkx lsp` here.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp import ClientServerConfig  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402
from pytest_lsp import client_capabilities  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="function")

SINK = "name: snk\ntype: print\ncolumns:\n  - {name: id, type: BIGINT}\nwith: {connector: print}\n"
VICTIM_TEXT = "the victim's own text\n"
BOUND_SECONDS = 60  # diagnostics of a one-table buffer come in well under a second


def make_client() -> LanguageClient:
    client = LanguageClient()
    client.published = []

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(_: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.published.append(params)

    return client


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "flinkx_build", "lsp"], client_factory=make_client)


@pytest.fixture
def hostile(tmp_path) -> tuple[Path, Path]:
    """A workspace whose committed cache folder holds `lsp/snk.yaml` -> a file outside it."""
    ws = tmp_path / "ws"
    for rel, text in {"flinkx.yaml": "engine: flink\n", "projects/p/project.yaml": "name: p\n",
                      "projects/p/tables/snk.yaml": SINK}.items():
        (ws / rel).parent.mkdir(parents=True, exist_ok=True)
        (ws / rel).write_text(text, encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text(VICTIM_TEXT, encoding="utf-8")
    (ws / ".flinkx-cache" / "lsp").mkdir(parents=True)
    (ws / ".flinkx-cache" / "lsp" / "snk.yaml").symlink_to(victim)
    return ws, victim


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient, hostile: tuple[Path, Path]):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=from_fs_path(str(hostile[0]))))
    yield
    await lsp_client.shutdown_session()


async def _diagnostics(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BOUND_SECONDS
    while loop.time() < deadline:
        for params in client.published:
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)
        await asyncio.sleep(0.02)
    raise AssertionError(f"no diagnostics for version {version} of {uri} in {BOUND_SECONDS} s")


async def test_an_unsaved_yaml_buffer_never_reaches_a_planted_link(client: LanguageClient, hostile: tuple[Path, Path]):
    ws, victim = hostile
    path = ws / "projects/p/tables/snk.yaml"
    uri = from_fs_path(str(path))
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "yaml", 1, SINK)))
    assert await _diagnostics(client, uri, 1) == []
    edited = SINK.replace("type: print\n", "type: print\nprimary_kye: [id]\n")  # unsaved, with a typo
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=2, uri=uri), [types.TextDocumentContentChangeWholeDocument(text=edited)]))
    diags = await _diagnostics(client, uri, 2)
    assert [d.code for d in diags] == ["FX103"], diags  # the buffer is still checked, as in a clean workspace
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert path.read_text(encoding="utf-8") == SINK
    assert (ws / ".flinkx-cache" / "lsp" / "snk.yaml").is_symlink()
