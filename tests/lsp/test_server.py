"""`flinkx lsp` end to end: a real LSP client (pytest-lsp) drives the server over stdio.

The server runs as `python -m flinkx_build lsp` on a copy of the example
workspace; every answer is checked against the workspace's own files or
`flinkx explain`.
"""
from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp import ClientServerConfig  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402
from pytest_lsp import client_capabilities  # noqa: E402

from tests.conftest import EXAMPLE  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")

def make_client() -> LanguageClient:
    """pytest-lsp's client, keeping every publishDiagnostics in order (with its version)."""
    client = LanguageClient(converter_factory=default_converter)
    client.published = []

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(_: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.published.append(params)

    return client


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "flinkx_build", "lsp"], client_factory=make_client)
TASK = "projects/dwd/tasks/orders/enrich_orders.sql"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp") / "ws"
    shutil.copytree(EXAMPLE, root, ignore=shutil.ignore_patterns("build", ".flinkx-cache"))
    return root


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=from_fs_path(str(workspace)))
    )
    yield
    await lsp_client.shutdown_session()


def position_of(text: str, needle: str, shift: int = 0) -> types.Position:
    """LSP position (0-based) of `needle`'s first character, plus `shift` characters."""
    offset = text.index(needle) + shift
    line = text.count("\n", 0, offset)
    return types.Position(line, offset - (text.rfind("\n", 0, offset) + 1))


def line_of(path: Path, prefix: str) -> int:
    """0-based line of the first line of `path` that starts with `prefix` (after indentation)."""
    return next(i for i, line in enumerate(path.read_text().splitlines()) if line.strip().startswith(prefix))


class Buffer:
    """One open document: open it, replace its text, wait for its diagnostics."""

    def __init__(self, client: LanguageClient, path: Path, language: str = "sql") -> None:
        self.client, self.path, self.uri = client, path, from_fs_path(str(path))
        self.version = 1
        self.text = path.read_text()
        self.seen = len(client.published)
        client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(self.uri, language, self.version, self.text)))

    def change(self, text: str) -> None:
        self.version += 1
        self.text = text
        self.seen = len(self.client.published)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=self.version, uri=self.uri),
                [types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    async def diagnostics(self, timeout: float = 60) -> list[types.Diagnostic]:
        """The next diagnostics published for this buffer's current version."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            for n, params in enumerate(self.client.published[self.seen:], self.seen):
                if params.uri == self.uri and params.version == self.version:
                    self.seen = n + 1
                    return list(params.diagnostics)
            await asyncio.sleep(0.02)
        raise AssertionError(f"no diagnostics for version {self.version} of {self.uri} in {timeout} s")

    def close(self) -> None:
        self.client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(self.uri)))

    def identifier(self) -> types.TextDocumentIdentifier:
        return types.TextDocumentIdentifier(self.uri)


async def test_typo_in_a_table_name_is_a_diagnostic_with_did_you_mean(client: LanguageClient, workspace: Path):
    buf = Buffer(client, workspace / TASK)
    assert await buf.diagnostics() == []  # the example workspace lints clean
    buf.change(buf.text.replace("FROM ods.kafka_orders AS o", "FROM ods.kafka_ordres AS o"))
    diags = await buf.diagnostics()
    buf.close()
    assert len(diags) == 1, diags
    diag = diags[0]
    assert diag.code == "FX130" and diag.source == "flinkx"
    assert diag.severity == types.DiagnosticSeverity.Error
    assert "unknown table 'kafka_ordres'" in diag.message and "did you mean 'kafka_orders'?" in diag.message
    start = position_of(buf.text, "ods.kafka_ordres")
    assert diag.range.start == start
    assert diag.range.end == types.Position(start.line, start.character + len("ods.kafka_ordres"))


async def test_definition_of_a_meta_table_a_function_and_a_variable(client: LanguageClient, workspace: Path):
    buf = Buffer(client, workspace / TASK)

    async def goto(needle: str, shift: int = 0) -> types.Location:
        result = await client.text_document_definition_async(types.DefinitionParams(buf.identifier(), position_of(buf.text, needle, shift)))
        assert isinstance(result, types.Location), (needle, result)
        return result

    table = await goto("ods.kafka_orders AS o", shift=6)
    yaml = workspace / "projects/ods/tables/kafka_orders.yaml"
    assert table.uri == from_fs_path(str(yaml))
    assert table.range.start.line == line_of(yaml, "name:")  # the mapping starts below the file's comment
    through_variable = await goto("${dim_project}.dim_user FOR", shift=len("${dim_project}.d"))
    assert through_variable.uri == from_fs_path(str(workspace / "projects/dim/tables/dim_user.yaml"))
    function = await goto("dim:parse_ua(o.user_agent)", shift=5)
    assert function.uri == from_fs_path(str(workspace / "projects/dim/functions/parse_ua.yaml"))
    column = await goto("  u.user_name,", shift=4)
    dim_user = workspace / "projects/dim/tables/dim_user.yaml"
    assert column.uri == from_fs_path(str(dim_user)) and column.range.start.line == line_of(dim_user, "- {name: user_name")
    variable = await goto("${dim_project}.dim_user FOR", shift=3)
    assert variable.uri == from_fs_path(str(workspace / "flinkx.yaml"))
    assert variable.range.start.line == line_of(workspace / "flinkx.yaml", "dim_project:")
    buf.close()
    views = workspace / "projects/dws/tasks/category_user_stats.sql"
    buf = Buffer(client, views)
    view = await goto("FROM valid_lines", shift=6)  # a task-local view: its CREATE statement
    assert view.uri == buf.uri and view.range.start.line == line_of(views, "CREATE TEMPORARY VIEW valid_lines")
    buf.close()


async def test_hover_on_a_table_shows_what_explain_shows(client: LanguageClient, workspace: Path):
    buf = Buffer(client, workspace / TASK)
    result = await client.text_document_hover_async(types.HoverParams(buf.identifier(), position_of(buf.text, "ods.kafka_orders AS o", 4)))
    buf.close()
    assert result is not None and result.contents.kind == types.MarkupKind.Markdown
    hover = result.contents.value
    explained = subprocess.run(
        [sys.executable, "-m", "flinkx_build", "explain", str(workspace), "dwd/orders/enrich_orders"],
        capture_output=True, text=True, check=True,
    ).stdout
    block = explained.split("\nods.kafka_orders as kafka_orders", 1)[1].split("\n\n", 1)[0]
    for line in block.splitlines()[1:]:
        assert line in hover, line
    # the task's SET computed column, with the task line it comes from
    assert "line_amount" in hover and f"{TASK}:21" in hover


async def test_hover_on_a_variable_a_column_and_a_function(client: LanguageClient, workspace: Path):
    buf = Buffer(client, workspace / TASK)

    async def hover(needle: str, shift: int) -> str:
        result = await client.text_document_hover_async(types.HoverParams(buf.identifier(), position_of(buf.text, needle, shift)))
        assert result is not None, needle
        return result.contents.value

    variable = await hover("${dim_project}.dim_user FOR", 3)
    assert "`${dim_project}` = `dim`" in variable
    assert f"flinkx.yaml:{line_of(workspace / 'flinkx.yaml', 'dim_project:') + 1}" in variable
    computed = await hover("  o.line_amount,", 5)  # a column the task's SET adds
    assert "`line_amount` `AS CAST(quantity * unit_price AS DECIMAL(12, 2))` of **ods.kafka_orders**" in computed
    assert f"<- set {workspace / TASK}:21" in computed  # the workspace is outside the cwd: absolute paths
    function = await hover("dim:parse_ua(o.user_agent)", 5)
    assert "**dim:parse_ua**" in function and "functions/parse_ua.yaml:1" in function
    buf.close()


async def test_completion_of_columns_and_tables(client: LanguageClient, workspace: Path):
    buf = Buffer(client, workspace / TASK)

    async def labels(text: str, marker: str = "|") -> list[str]:
        buf.change(text.replace(marker, "", 1))
        result = await client.text_document_completion_async(types.CompletionParams(buf.identifier(), position_of(text, marker)))
        assert result is not None
        return [item.label for item in (result.items if isinstance(result, types.CompletionList) else result)]

    original = buf.text
    ods_columns = await labels(original.replace("  o.line_no,", "  o.|", 1))  # half typed: the statement does not parse
    assert {"order_id", "line_no", "user_agent", "line_amount", "proc_time"} <= set(ods_columns)
    assert "user_name" not in ods_columns  # a column of u (dim.dim_user), not of o
    dim_user_columns = await labels(original.replace("  u.user_name,", "  u.user_n|ame,", 1))
    assert "user_name" in dim_user_columns and "order_id" not in dim_user_columns
    select_list = await labels(original.replace("  o.line_no,", "  o.line_no, |", 1))
    assert {"order_id", "user_name", "product_name", "line_amount"} <= set(select_list)  # o, u and p
    assert "src_topic" not in select_list  # a column of the INSERT target (dwd.dwd_orders) only
    projects = await labels(original.replace("FROM ods.kafka_orders AS o", "FROM | AS o"))
    assert {"ods", "dim", "dwd", "dws", "dwd_orders"} <= set(projects)  # projects, and dwd's own tables
    set_target = await labels(original.replace("SET ods.kafka_orders.procTime", "SET ods.|kafka_orders.procTime"))
    assert "kafka_orders" in set_target and "users" in set_target
    tables = await labels(original.replace("FROM ods.kafka_orders AS o", "FROM ods.|kafka_orders AS o"))
    assert set(tables) == {p.stem for p in (workspace / "projects/ods/tables").glob("*.yaml")}
    functions = await labels(original.replace("dim:parse_ua(", "dim:|(", 1))
    assert {"parse_ua", "mask_phone"} <= set(functions)
    variables = await labels(original.replace("LEFT JOIN ${dim_project}", "LEFT JOIN ${|", 1))
    assert "dim_project" in variables
    buf.close()


async def test_unsaved_yaml_buffer_is_linted(client: LanguageClient, workspace: Path):
    yaml = workspace / "projects/dim/tables/dim_user.yaml"
    buf = Buffer(client, yaml, "yaml")
    assert await buf.diagnostics() == []
    buf.change(buf.text.replace("primary_key:", "primary_kye:"))
    diags = await buf.diagnostics()
    buf.close()
    assert yaml.read_text().count("primary_kye") == 0  # nothing written to the file
    codes = {d.code: d for d in diags}
    assert "FX103" in codes and "did you mean 'primary_key'?" in codes["FX103"].message
    assert codes["FX103"].range.start == types.Position(line_of(yaml, "primary_key:"), 0)


async def test_a_saved_meta_table_relints_open_tasks(client: LanguageClient, workspace: Path):
    buf = Buffer(client, workspace / TASK)
    assert await buf.diagnostics() == []
    yaml = workspace / "projects/dim/tables/dim_product.yaml"
    original = yaml.read_text()
    saved = types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(from_fs_path(str(yaml))))
    try:
        yaml.write_text(original.replace("name: dim_product\n", "name: dim_products\n", 1))
        client.text_document_did_save(saved)
        diags = await buf.diagnostics()
        assert [d.code for d in diags] == ["FX130"]
        assert "did you mean 'dim_products'?" in diags[0].message
        assert diags[0].range.start == position_of(buf.text, "dim.dim_product FOR")
    finally:
        yaml.write_text(original)
        client.text_document_did_save(saved)
    assert await buf.diagnostics() == []
    buf.close()
