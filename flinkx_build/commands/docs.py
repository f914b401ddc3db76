"""`flinkx docs [WS] [--out DIR] [--serve [--port N]]`: a static site of the whole workspace."""
from __future__ import annotations

from pathlib import Path

import click

from flinkx_build.commands.common import echo_diagnostics
from flinkx_build.commands.common import mode_option
from flinkx_build.commands.common import open_session
from flinkx_build.commands.common import workspace_argument
from flinkx_build.commands.console import echo_progress
from flinkx_build.commands.console import echo_spans
from flinkx_build.commands.console import echo_summary
from flinkx_build.errors import UsageError

DEFAULT_OUT = "site"


@click.command("docs")
@workspace_argument
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help=f"Write the site here (default: {DEFAULT_OUT}/ in the workspace). Replaced whole, only if flinkx made it.")
@click.option("--serve", is_flag=True, help="Then serve it on http://127.0.0.1:PORT until interrupted.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="With --serve: the port (0: any free one).")
@mode_option
def command(workspace: Path, out_dir: Path | None, serve: bool, port: int, mode: str | None) -> None:
    """Write a browsable static site of WORKSPACE (default: .): a page per project, meta table,
    task, view and function, column lineage, a lineage view and search. Works from file://."""
    from flinkx_build.commands.graph import workspace_name
    from flinkx_build.site.build import collect
    from flinkx_build.site.build import render_site
    from flinkx_build.site.build import write_site

    session = open_session(workspace, mode)
    ws = session.workspace
    out = out_dir if out_dir is not None else ws.root / DEFAULT_OUT
    title = workspace_name(session)
    echo_progress("flinkx: collecting the workspace's pages")
    site = collect(session, title)
    files = render_site(site, _description(ws.root))
    stats = write_site(out, files, ws.root)
    diags = [*session.load_diagnostics, *(d for s in site.summaries.values() for d in s.diagnostics)]
    echo_diagnostics(diags)  # the pages show them too; the exit code says the workspace has errors
    echo_summary(f"flinkx: wrote {stats.pages} pages ({stats.bytes / 1e6:.1f} MB) to {out}; open {out / 'index.html'}",
                 ok=not any(d.is_error for d in diags))
    if serve:
        _serve(out, port)
    if any(d.is_error for d in diags):
        raise SystemExit(1)


def _description(root: Path) -> str:
    from flinkx_build.load.yaml_io import load_yaml

    data, _ = load_yaml(root / "flinkx.yaml", "flinkx.yaml")
    value = data.get("description") if isinstance(data, dict) else None
    return value if isinstance(value, str) else ""


def _serve(folder: Path, port: int) -> None:
    """Python's static file server on the loopback address only: the site needs no server code."""
    import functools
    import http.server

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise UsageError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc}") from None
    # not a summary: -q keeps it, as the address is the one way to the site (with --port 0 nothing else says it)
    echo_spans([[(f"flinkx: serving {folder} on http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)", "")]], err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:  # Ctrl-C is how a user stops it: not an interruption of the work
        pass
    finally:
        server.server_close()
