"""Diagnostics: every user mistake is one `path:line:col: FXnnn message` line.

Codes are stable: once published, a code keeps its meaning. `CODES` is the
registry that docs/error-codes.md mirrors (a test keeps them in step).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from dataclasses import field
from typing import Iterable

from flinkx_build.credentials import mask_text

# code -> (severity, short title)
CODES: dict[str, tuple[str, str]] = {
    # workspace and YAML
    "FX100": ("error", "invalid workspace configuration (flinkx.yaml)"),
    "FX101": ("error", "malformed YAML"),
    "FX102": ("error", "missing required key"),
    "FX103": ("warning", "unknown key"),
    "FX104": ("error", "invalid value"),
    "FX105": ("error", "duplicate definition"),
    "FX106": ("warning", "WITH value is not a string"),
    "FX107": ("error", "unknown Flink data type"),
    "FX110": ("error", "unknown variable"),
    # task SQL
    "FX120": ("error", "SQL syntax error"),
    # the workspace's Flink version (flink_data.py, checks/flink_target.py)
    "FX121": ("error", "flink_version is not a version flinkx has facts for"),
    "FX122": ("warning", "option removed in the target Flink version"),
    "FX123": ("warning", "option key deprecated in the target Flink version"),
    "FX124": ("error", "data type the target Flink version does not have"),
    "FX125": ("error", "built-in function the target Flink version does not have"),
    "FX126": ("error", "built-in function called with the wrong number of arguments"),
    "FX127": ("error", "syntax the target Flink version does not have"),
    "FX128": ("warning", "configuration key the target Flink version does not read (a near miss of one it does)"),
    "FX130": ("error", "unknown table"),
    "FX131": ("error", "unknown project"),
    "FX132": ("error", "ambiguous table: stream and offline tables share the name"),
    "FX140": ("error", "unknown project function"),
    "FX141": ("error", "unknown function"),
    "FX142": ("warning", "function created in the task without a signature: the statements calling it are not planned"),
    "FX143": ("error", "project function called with another number of arguments than its YAML declares"),
    "FX150": ("error", "invalid SET statement"),
    "FX151": ("error", "unknown column"),
    "FX152": ("error", "invalid table hint"),
    "FX153": ("error", "hint argument names no column or table"),
    "FX160": ("error", "option is locked by the meta table"),
    "FX170": ("error", "feature not supported by the target engine"),
    "FX171": ("error", "symbolic link loop"),
    "FX179": ("error", "the workspace is over a workspace-wide budget (meta-table bytes or columns)"),
    # input limits and unreadable input (flinkx_build/limits.py, load/): refused before any parser runs
    "FX180": ("error", "file too large"),
    "FX181": ("error", "statement too long"),
    "FX182": ("error", "nested too deeply"),
    "FX183": ("error", "YAML aliases expand too far"),
    "FX184": ("error", "too many YAML values"),
    "FX185": ("error", "number too long"),
    "FX186": ("error", "not a plain name"),
    "FX187": ("error", "symlink leads outside the workspace or into .git"),
    "FX188": ("error", "file is not UTF-8 text"),
    "FX189": ("error", "control character in a file"),
    # what flinkx may write: the build folder (emit/folder.py) and files `fix` rewrites (lint/write.py)
    "FX190": ("error", "the build folder exists and flinkx did not make it"),
    "FX191": ("error", "the build folder is the workspace, a folder above it, or its sources"),
    "FX192": ("error", "the build folder is a symlink or not a folder"),
    "FX193": ("error", "a build file would be written outside the build folder"),
    "FX194": ("warning", "file not fixed: a symlink, not a regular file, or outside the workspace"),
    "FX195": ("error", "a statement makes Flink load code (USING JAR, LANGUAGE PYTHON, CREATE CATALOG, ...)"),
    "FX196": ("error", "a SET of an engine setting outside the allow-list (addresses, paths, jars, classes, state locations)"),
    "FX197": ("error", "a workspace writes flinkx's own flinkx.* options, or an OPTIONS hint changes a table's connector"),
    # semantic checks (flinkx_build/checks/, pages in docs/checks.md)
    "FX401": ("error", "unknown column"),
    "FX402": ("error", "ambiguous column"),
    "FX403": ("error", "unknown table qualifier"),
    "FX404": ("error", "expression not being grouped"),
    "FX405": ("error", "aggregate expression where none is allowed (WHERE, GROUP BY, ON)"),
    "FX406": ("error", "CAST or column to a type Flink does not have"),
    "FX407": ("error", "ROW field that does not exist"),
    "FX408": ("error", "arithmetic on a string or a boolean"),
    "FX410": ("error", "INSERT column count differs from the sink"),
    "FX411": ("error", "INSERT column type cannot be cast to the sink column"),
    "FX412": ("error", "INSERT column list names an unknown or a repeated column"),
    "FX413": ("error", "set operation branches select different numbers of columns"),
    "FX414": ("warning", "INSERT column named for another sink column than the one it fills"),
    "FX420": ("error", "unknown connector option"),
    "FX421": ("warning", "required connector option missing"),
    "FX430": ("error", "update stream into an append-only sink"),
    "FX431": ("error", "upsert table without a primary key"),
    "FX432": ("error", "INSERT into a table whose connector can only be read (mysql-cdc, datagen)"),
    "FX433": ("error", "read of a table whose connector can only be written (print, blackhole)"),
    "FX440": ("error", "lookup join without an equality on the dimension"),
    "FX441": ("warning", "lookup join matches no key of the dimension"),
    "FX442": ("error", "lookup key compared with a value of another kind of type (a string and a number, a timestamp and a number, ...)"),
    "FX443": ("error", "lookup join on a table whose connector has no lookup (kafka)"),
    "FX450": ("error", "watermark on a column that is not TIMESTAMP(p <= 3) or TIMESTAMP_LTZ"),
    "FX451": ("error", "window over a column that is not a time attribute"),
    "FX452": ("error", "window TVF called with the wrong number of arguments"),
    "FX453": ("error", "FOR SYSTEM_TIME AS OF a column that is not a timestamp"),
    "FX454": ("error", "MATCH_RECOGNIZE ordered descending in streaming"),
    "FX455": ("error", "streaming ORDER BY on a column that is not a time attribute"),
    "FX460": ("error", "mysql-cdc server-id overlaps another reader of the same server"),
    "FX461": ("error", "mysql-cdc server-id range smaller than the source parallelism"),
    "FX462": ("error", "mysql-cdc source without a primary key or chunk key column"),
    "FX463": ("error", "watermark on a CDC source"),
    "FX470": ("warning", "table written by more than one task"),
    "FX471": ("warning", "Kafka group id shared by tasks reading the same topic"),
    "FX472": ("warning", "source.parallelism without DISTRIBUTEBY (MRS)"),
    "FX473": ("error", "DISTRIBUTEBY on a field the query does not output (MRS)"),
    "FX474": ("warning", "two INSERTs into one table in a task, not in one statement set: two jobs write it"),
    "FX480": ("error", "credential written as a literal instead of a ${...} secret"),
    "FX490": ("warning", "SET on a table the task never uses"),
    "FX491": ("warning", "hint repeats a SET"),
    "FX492": ("error", "SET is the only mention of a name that is a stream and an offline table"),
    "FX495": ("info", "meta table used by no task"),
    "FX496": ("info", "function used by no task"),
    "FX497": ("error", "upsert key differs from the sink's primary key and the INSERT has no ON CONFLICT (Flink 2.3)"),
    "FX498": ("error", "option value the connector or format does not accept"),
    "FX499": ("warning", "state does not restore across the Flink version change"),
    # sqlfluff rules of the flinkx_rules plugin
    "FX01": ("error", "reserved word used as an identifier must be backtick-quoted"),
    "FX02": ("error", "WITH keys and values must be single-quoted strings"),
    "FX03": ("error", "watermark quoting does not match dataphin_version"),
    # graph
    "FX200": ("error", "dependency cycle"),
    # validation with the real Flink planner
    "FX300": ("error", "Flink rejected the statement"),
    # the target's own planner (flinkx_build/planner/, docs/targets.md)
    "FX301": ("error", "the target's Flink planner rejects the statement (lint, build)"),
    "FX302": ("error", "no planner for this flink_version"),
    "FX303": ("error", "the target's planner cannot be set up here"),
    "FX304": ("error", "a Flink archive does not match its pinned checksum"),
    "FX305": ("error", "the cluster, the client and flink_version are not the same Flink"),
    "FX306": ("error", "the target's planner did not finish planning the task (its budget)"),
    "FX314": ("error", "a test's Flink job did not finish within --timeout"),
    "FX315": ("error", "flinkx test passed --max-time: the cases left did not run"),
    # flinkx test (flinkx_build/testing/, docs/testing.md)
    "FX500": ("error", "invalid test file"),
    "FX501": ("error", "unknown task"),
    "FX502": ("error", "table not read by the task"),
    "FX503": ("error", "table not written by the task"),
    "FX504": ("error", "unknown column in a fixture row"),
    "FX505": ("error", "value does not convert to the column type"),
    "FX506": ("error", "invalid change in a changelog"),
    "FX507": ("error", "duplicate test name"),
    "FX508": ("error", "unknown test reference"),
    "FX509": ("error", "column cannot be given or expected"),
    "FX510": ("error", "function not called by the task, or not scalar"),
    "FX511": ("error", "a timeline step the task cannot take"),
    "FX512": ("error", "a timeline time that is not a time or goes backwards"),
    # flinkx deploy (flinkx_build/deploy/, docs/deploy.md)
    "FX600": ("error", "the Flink cluster cannot be reached or refused a request"),
    "FX601": ("error", "a secret is not set in the environment"),
    "FX602": ("error", "upgrade refused: the job would not keep its state"),
    "FX603": ("error", "a deploy step failed (savepoint, submission, or the job did not reach RUNNING)"),
    "FX604": ("error", "the workspace cannot be deployed (engine or mode)"),
    "FX605": ("error", "a deploy jar does not exist"),
}


@dataclass(frozen=True, order=True)
class Diagnostic:
    path: str
    line: int
    col: int
    code: str
    message: str
    hint: str = ""
    severity: str = ""
    # `flinkx fix` can repair it (lint JSON's `fixable`); not part of identity or order
    fixable: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        # a message may quote a statement or a YAML line: never let it carry a credential's value
        object.__setattr__(self, "message", mask_text(self.message))
        object.__setattr__(self, "hint", mask_text(self.hint))
        # quoted user input (a file name, a YAML key) must never break the one-line format,
        # whatever renders it: escape control characters once, here
        for name in ("path", "message", "hint"):
            value = getattr(self, name)
            if not value.isprintable():
                object.__setattr__(self, name, "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in value))
        if not self.severity:
            object.__setattr__(self, "severity", CODES.get(self.code, ("error", ""))[0])

    def format(self) -> str:
        """The one line a user sees: `path:line:col: CODE message (hint)`."""
        hint = f" ({self.hint})" if self.hint else ""
        return f"{self.path}:{self.line}:{self.col}: {self.code} {self.message}{hint}"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


class UsageError(Exception):
    """A mistake in how flinkx was called or configured: exit code 2."""

    def __init__(self, message: str = "") -> None:
        super().__init__(mask_text(str(message)))


class WorkspaceErrors(Exception):
    """Findings that stop a build: exit code 1."""

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = sorted(set(diagnostics))
        super().__init__("\n".join(d.format() for d in self.diagnostics))


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A "did you mean 'x'?" hint, or "" when nothing is close."""
    # YAML keys are not always strings (`1:`, `2024-01-01:`): compare their text
    name = str(name)
    pool = sorted({str(c) for c in candidates})
    if not pool:
        return ""
    by_lower = {c.lower(): c for c in pool}
    if name.lower() in by_lower and by_lower[name.lower()] != name:
        return f"did you mean '{by_lower[name.lower()]}'?"
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.6)
    return f"did you mean '{by_lower[close[0]]}'?" if close else ""
