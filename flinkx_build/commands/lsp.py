"""`flinkx lsp`: the language server, over stdio (needs the `lsp` extra: pygls)."""
from __future__ import annotations

import sys

import click


@click.command("lsp")
@click.option("--stdio", is_flag=True, help="Talk LSP over stdin/stdout (the default and only transport).")
def command(stdio: bool) -> None:
    """Run the flinkx language server: diagnostics as you type, go to definition, hover, completion.

    Editors start it and talk to it over stdin/stdout; docs/editors.md shows the
    set-up for VS Code and Neovim.
    """
    try:
        from flinkx_build.lsp.server import serve
    except ImportError as exc:
        if "pygls" not in str(exc) and "lsprotocol" not in str(exc):
            raise
        click.echo("flinkx: error: the language server needs pygls: pip install 'flinkx-build[lsp]'", err=True)
        sys.exit(2)
    serve()
