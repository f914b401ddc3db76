"""`flinkx lsp` as a command: help, the missing-extra hint, a clean shutdown."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

SERVER_COMMAND = [sys.executable, "-m", "flinkx_build", "lsp"]


def test_help():
    result = subprocess.run([*SERVER_COMMAND, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "language server" in result.stdout


def test_without_pygls_one_line_install_hint(tmp_path):
    # an importable `pygls` that fails the way an absent one does
    (tmp_path / "pygls").mkdir()
    (tmp_path / "pygls" / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'pygls'\", name='pygls')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run(SERVER_COMMAND, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == ["flinkx: error: the language server needs pygls: pip install 'flinkx-build[lsp]'"]


@pytest.mark.asyncio
async def test_shutdown_then_exit_ends_the_process_with_code_0():
    pytest.importorskip("pytest_lsp")
    from lsprotocol import types
    from pytest_lsp import ClientServerConfig
    from pytest_lsp import client_capabilities

    client = await ClientServerConfig(SERVER_COMMAND).start()
    try:
        result = await client.initialize_session(types.InitializeParams(capabilities=client_capabilities("neovim")))
        assert result.server_info.name == "flinkx"
        await client.shutdown_session()  # shutdown, exit, then waits for the process
        assert client._server.returncode == 0  # pygls's client keeps the process there
    finally:
        await client.stop()
