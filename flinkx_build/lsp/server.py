"""The pygls wiring: LSP messages in, the model's answers out.

All model work (linting, resolving, completion probes) runs on one worker
thread, so the event loop keeps reading messages while sqlfluff parses and the
`Session` is never used from two threads. Edits are linted after a short pause
in typing; a request on a changed buffer analyses it first.
"""
from __future__ import annotations

import asyncio
import logging
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from dataclasses import field
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path
from pygls.uris import to_fs_path
from pygls.workspace import ServerTextPosition
from pygls.workspace import TextDocument

from flinkx_build import __version__
from flinkx_build.errors import Diagnostic
from flinkx_build.lsp.analysis import Models
from flinkx_build.lsp.analysis import TaskAnalysis
from flinkx_build.lsp.complete import completions
from flinkx_build.lsp.goto import definition
from flinkx_build.lsp.hover import hover_markdown
from flinkx_build.lsp.locate import Extent
from flinkx_build.lsp.locate import target_at

DEBOUNCE_SECONDS = 0.3
_TOKEN = re.compile(r"[A-Za-z0-9_$`{}.:]+")
_KINDS = {
    "project": types.CompletionItemKind.Module,
    "table": types.CompletionItemKind.Class,
    "column": types.CompletionItemKind.Field,
    "function": types.CompletionItemKind.Function,
    "variable": types.CompletionItemKind.Variable,
}
_log = logging.getLogger("flinkx.lsp")


@dataclass
class Analysed:
    version: int | None
    diagnostics: list[Diagnostic]
    task: TaskAnalysis | None = None


@dataclass
class State:
    models: Models = field(default_factory=Models)
    worker: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="flinkx-model"))
    analysed: dict[str, Analysed] = field(default_factory=dict)
    running: dict[str, tuple[int | None, asyncio.Future]] = field(default_factory=dict)
    pending: dict[str, asyncio.Task] = field(default_factory=dict)


def make_server() -> LanguageServer:
    server = LanguageServer("flinkx", __version__)
    state = State()

    def is_ours(uri: str) -> bool:
        return uri.startswith("file:") and uri.endswith((".sql", ".yaml", ".yml"))

    def work(uri: str, text: str) -> tuple[list[Diagnostic], TaskAnalysis | None, str]:
        """On the worker thread: (diagnostics, task analysis, error message)."""
        path = Path(to_fs_path(uri) or uri)
        try:
            if path.suffix == ".sql":
                analysis = state.models.analyse_task(path, text)
                return (analysis.diagnostics if analysis else []), analysis, ""
            return state.models.yaml_diagnostics(path, text), None, ""
        except Exception as exc:  # a bug must cost one buffer its diagnostics, not the editor its server
            _log.exception("analysing %s failed", path)
            return [], None, f"flinkx: analysing {path} failed: {type(exc).__name__}: {exc}"

    async def run(uri: str, version: int | None, text: str) -> Analysed:
        loop = asyncio.get_running_loop()
        diags, task, error = await loop.run_in_executor(state.worker, work, uri, text)
        if error:  # sent from the event loop: the protocol is not written from the worker thread
            server.window_log_message(types.LogMessageParams(types.MessageType.Error, error))
        done = Analysed(version, diags, task)
        if uri in server.workspace.text_documents and server.workspace.get_text_document(uri).version == version:
            state.analysed[uri] = done
            publish(uri, done)
        return done

    async def analysed(uri: str) -> Analysed | None:
        """The analysis of the buffer as it is now (started or joined if there is none)."""
        if not is_ours(uri) or uri not in server.workspace.text_documents:
            return None
        doc = server.workspace.get_text_document(uri)
        done = state.analysed.get(uri)
        if done is not None and done.version == doc.version:
            return done
        running = state.running.get(uri)
        if running is None or running[0] != doc.version:
            running = (doc.version, asyncio.ensure_future(run(uri, doc.version, doc.source)))
            state.running[uri] = running
        try:
            return await asyncio.shield(running[1])
        finally:
            if state.running.get(uri) is running and running[1].done():
                del state.running[uri]

    def schedule(uri: str, delay: float) -> None:
        previous = state.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()

        async def later() -> None:
            await asyncio.sleep(delay)
            await analysed(uri)

        state.pending[uri] = asyncio.ensure_future(later())

    def publish(uri: str, done: Analysed) -> None:
        doc = server.workspace.get_text_document(uri)
        items = [to_lsp_diagnostic(doc, d) for d in done.diagnostics]
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=done.version))

    def relint_open_documents() -> None:
        # the workspace on disk changed (a saved YAML file): every open buffer may read it
        state.analysed.clear()
        for uri in list(server.workspace.text_documents):
            if is_ours(uri):
                schedule(uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        schedule(params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        schedule(params.text_document.uri, DEBOUNCE_SECONDS)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        if params.text_document.uri.endswith((".yaml", ".yml")):
            relint_open_documents()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_files(ls: LanguageServer, params: types.DidChangeWatchedFilesParams) -> None:
        relint_open_documents()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        pending = state.pending.pop(uri, None)
        if pending is not None:
            pending.cancel()
        state.analysed.pop(uri, None)
        if is_ours(uri):
            state.worker.submit(state.models.close, Path(to_fs_path(uri) or uri))
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    async def on_model(uri: str, position: types.Position, answer):
        """Run `answer(analysis, line, col)` on the worker thread, at flinkx's 1-based position."""
        done = await analysed(uri)
        if done is None or done.task is None:
            return None
        doc = server.workspace.get_text_document(uri)
        at = doc.position_from_client_units(position)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(state.worker, answer, done.task, at.line + 1, at.character + 1), doc

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def goto_definition(ls: LanguageServer, params: types.DefinitionParams) -> types.Location | None:
        def answer(analysis: TaskAnalysis, line: int, col: int):
            target = target_at(analysis, line, col)
            return definition(analysis, target) if target is not None else None

        result = await on_model(params.text_document.uri, params.position, answer)
        if result is None or result[0] is None:
            return None
        loc = result[0]
        start = types.Position(max(loc.line - 1, 0), max(loc.col - 1, 0))
        return types.Location(uri=from_fs_path(loc.path) or loc.path, range=types.Range(start, start))

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls: LanguageServer, params: types.HoverParams) -> types.Hover | None:
        def answer(analysis: TaskAnalysis, line: int, col: int):
            target = target_at(analysis, line, col)
            text = hover_markdown(analysis, target) if target is not None else None
            return (text, target.extent) if text else None

        result = await on_model(params.text_document.uri, params.position, answer)
        if result is None or result[0] is None:
            return None
        (text, extent), doc = result
        content = types.MarkupContent(kind=types.MarkupKind.Markdown, value=text)
        return types.Hover(contents=content, range=extent_range(doc, extent))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[".", ":", "{"]))
    async def complete(ls: LanguageServer, params: types.CompletionParams) -> types.CompletionList | None:
        uri = params.text_document.uri
        if not is_ours(uri) or uri not in ls.workspace.text_documents:
            return None
        doc = ls.workspace.get_text_document(uri)
        text = doc.source
        at = doc.position_from_client_units(params.position)
        loop = asyncio.get_running_loop()

        async def candidates(done: Analysed | None):
            if done is None or done.task is None:
                return []
            return await loop.run_in_executor(state.worker, completions, done.task, text, at.line + 1, at.character + 1)

        # while typing, the analysis of a few keystrokes ago will do: no full lint per keystroke
        found = await candidates(state.analysed.get(uri) or await analysed(uri))
        if found is None:  # statements were added or removed since that analysis
            found = await candidates(await analysed(uri))
        items = [
            types.CompletionItem(label=c.label, kind=_KINDS.get(c.kind), detail=c.detail or None, sort_text=f"{n:05d}")
            for n, c in enumerate(found or [])
        ]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: LanguageServer, params: None) -> None:
        for task in state.pending.values():
            task.cancel()
        state.worker.shutdown(wait=False, cancel_futures=True)
        state.models.forget()  # closes the connections to the warm planners (the service itself stays warm)

    return server


def extent_range(doc: TextDocument, extent: Extent) -> types.Range:
    start = doc.position_to_client_units(ServerTextPosition(extent.line - 1, extent.col - 1))
    end = doc.position_to_client_units(ServerTextPosition(extent.line - 1, extent.end_col - 1))
    return types.Range(start, end)


def to_lsp_diagnostic(doc: TextDocument, diag: Diagnostic) -> types.Diagnostic:
    """`path:line:col: FXnnn message (hint)` as an LSP diagnostic over the word at its position."""
    lines = doc.lines
    line = min(max(diag.line, 1), max(len(lines), 1))  # "not closed" findings may point past the end
    line_text = lines[line - 1].rstrip("\r\n") if lines else ""
    col = min(max(diag.col, 1), len(line_text) + 1)
    token = _TOKEN.match(line_text, col - 1)
    end_col = token.end() + 1 if token else min(col + 1, len(line_text) + 1)
    message = diag.message + (f" ({diag.hint})" if diag.hint else "")
    severity = types.DiagnosticSeverity.Warning if diag.severity == "warning" else types.DiagnosticSeverity.Error
    return types.Diagnostic(
        range=extent_range(doc, Extent(line, col, end_col)), message=message, severity=severity, code=diag.code, source="flinkx",
    )


def serve() -> None:
    """Serve LSP over stdin/stdout until the client says exit."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="flinkx lsp: %(levelname)s %(message)s")
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the protocol stream
    make_server().start_io(sys.stdin.buffer, protocol_out)
