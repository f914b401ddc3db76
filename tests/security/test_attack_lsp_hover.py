"""Issue 26 item 7 in the language server: hover shows no credential the old key list missed.

The real server (`python -m flinkx_build lsp`, over stdio) hovers a meta table whose options
hold a schema-registry user-info, a PEM key and its passphrase, and a variable whose name
says it is a user-info; none of the values may appear.
"""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pygls")
pytest_lsp = pytest.importorskip("pytest_lsp")

from lsprotocol import types  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pytest_lsp import LanguageClient  # noqa: E402
from pytest_lsp import client_capabilities  # noqa: E402

from tests.lsp.test_server import SERVER  # noqa: E402
from tests.lsp.test_server import Buffer  # noqa: E402
from tests.lsp.test_server import position_of  # noqa: E402
from tests.security.test_attack_credentials import LITERALS  # noqa: E402
from tests.security.test_attack_credentials import WORKSPACE  # noqa: E402

pytestmark = pytest.mark.asyncio(loop_scope="module")
VARIABLE_LITERAL = "UserInfoVar555"
TASK = "projects/ods/tasks/copy.sql"


@pytest.fixture(scope="module")
def workspace(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("lsp-attack") / "ws"
    files = {**WORKSPACE, "flinkx.yaml": f"engine: flink\nvariables:\n  registry_user_info: \"reg:{VARIABLE_LITERAL}\"\n",
             TASK: "CREATE TEMPORARY TABLE sink_t (id STRING) WITH ('connector' = 'blackhole');\n"
                   "INSERT INTO sink_t SELECT id FROM orders WHERE id <> '${registry_user_info}';\n"}
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest_lsp.fixture(scope="module", config=SERVER)
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=client_capabilities("visual-studio-code"), root_uri=from_fs_path(str(workspace)))
    )
    yield
    await lsp_client.shutdown_session()


async def test_hover_on_the_table_and_the_variable_shows_no_credential(client: LanguageClient, workspace: Path):
    buf = Buffer(client, workspace / TASK)

    async def hover(needle: str, shift: int) -> str:
        result = await client.text_document_hover_async(types.HoverParams(buf.identifier(), position_of(buf.text, needle, shift)))
        assert result is not None, needle
        return result.contents.value

    table = await hover("FROM orders", 6)
    variable = await hover("${registry_user_info}", 3)
    buf.close()
    assert "avro-confluent.basic-auth.user-info" in table and "USER_INFO" in table, table
    leaked = [literal for literal in [*LITERALS, VARIABLE_LITERAL] if literal in table + variable]
    assert not leaked, f"hover shows {leaked}:\n{table}\n{variable}"
    assert "registry_user_info" in variable and "******" in variable, variable
