"""The workspace model that every stage reads: plain dataclasses, no I/O."""
from __future__ import annotations

from collections.abc import Iterable
from collections.abc import Iterator
from dataclasses import dataclass
from dataclasses import field
from dataclasses import replace
from pathlib import Path

from flinkx_build.credentials import remember_credential_variables
from flinkx_build.engines import ENGINES as ENGINE_TABLE
from flinkx_build.errors import Diagnostic

ENGINES = tuple(ENGINE_TABLE)  # the names; what each accepts is in flinkx_build/engines.py
MODES = ("stream", "batch")
TABLE_KINDS = ("stream", "offline")
FUNCTION_LANGUAGES = ("java", "python", "scala")
FUNCTION_KINDS = ("scalar", "table", "aggregate")


@dataclass(frozen=True, order=True)
class Loc:
    """A position in a workspace file (1-based line and column)."""

    path: str
    line: int = 1
    col: int = 1


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    comment: str = ""
    header: bool = False
    loc: Loc = Loc("")


@dataclass
class MetaTable:
    """A reusable schema (Dataphin meta table), variables already resolved."""

    project: str
    name: str
    type: str
    kind: str  # stream | offline
    columns: list[Column]
    primary_key: list[str]
    options: dict[str, str]  # the `with:` mapping
    option_locs: dict[str, Loc]
    locked: list[str]
    stream_options: dict[str, str]
    batch_options: dict[str, str]
    description: str
    loc: Loc  # the YAML mapping
    content_hash: str
    mode_option_locs: dict[str, dict[str, Loc]] = field(default_factory=dict)  # mode -> option -> Loc
    primary_key_loc: Loc | None = None  # the `primary_key:` line (explain's provenance)
    locked_loc: Loc | None = None  # the `locked:` line (FX160's second location)
    # the load memo's key of the file (its bytes, its project's variables, the loader): what a
    # task's cached summary depends on; "" when loaded without the memo. Not part of equality.
    source_key: str = field(default="", compare=False, repr=False)

    @property
    def key(self) -> str:
        suffix = "" if self.kind == "stream" else f"@{self.kind}"
        return f"{self.project}.{self.name}{suffix}"

    def column(self, name: str) -> Column | None:
        for col in self.columns:
            if col.name.lower() == name.lower():
                return col
        return None

    def options_for_mode(self, mode: str) -> dict[str, str]:
        """`with` merged with the mirror table's `stream`/`batch` block."""
        extra = self.stream_options if mode == "stream" else self.batch_options
        return {**self.options, **extra}

    def written_options(self) -> Iterator[tuple[str, str, Loc]]:
        """(key, value, where it is written) of every option of the YAML: `with:`, then the `stream:`/`batch:` blocks."""
        for options, locs in ((self.options, self.option_locs), (self.stream_options, self.mode_option_locs.get("stream", {})),
                              (self.batch_options, self.mode_option_locs.get("batch", {}))):
            for key, value in options.items():
                yield key, value, locs.get(key, self.loc)


@dataclass
class Function:
    project: str
    name: str
    class_name: str
    language: str
    kind: str
    returns: str
    resource: str
    loc: Loc
    content_hash: str
    # the declared argument types (the YAML's `params`), in order; None: not declared (any arguments)
    params: list[str] | None = None
    source_key: str = field(default="", compare=False, repr=False)  # as MetaTable.source_key

    @property
    def key(self) -> str:
        return f"{self.project}:{self.name}"


@dataclass
class Task:
    project: str
    name: str  # path under tasks/ without `.sql`, with `/`
    path: Path
    display_path: str
    text: str
    content_hash: str
    rel_path: str = ""  # relative to the workspace root, with `/`

    @property
    def key(self) -> str:
        return f"{self.project}/{self.name}"


@dataclass
class Project:
    name: str
    directory: Path
    description: str = ""
    variables: dict[str, str] = field(default_factory=dict)
    # one name may hold a stream and an offline table (seed 000's conflict rule)
    tables: dict[str, list[MetaTable]] = field(default_factory=dict)
    functions: dict[str, Function] = field(default_factory=dict)  # key: lower-case name
    tasks: dict[str, Task] = field(default_factory=dict)
    # stems of table files that did not load or were refused, and names of tables whose YAML has an error (that error is
    # the finding: no "unknown table" or column cascade in the tasks that name them) -> the paths of those errors, as
    # they are shown (impact: a change that breaks the YAML breaks the tasks naming the table)
    unloadable_tables: dict[str, set[str]] = field(default_factory=dict)
    # the same for function files: a call to one says nothing of its own ("unknown function")
    unloadable_functions: set[str] = field(default_factory=set)


@dataclass
class LintConfig:
    rules: dict[str, bool] = field(default_factory=dict)  # code -> enabled
    severities: dict[str, str] = field(default_factory=dict)  # code -> error|warning
    reserved_word_warnings: bool = False  # FX01 also reports words Flink accepts unquoted

    def apply(self, diags: Iterable[Diagnostic]) -> list[Diagnostic]:
        """The findings as the workspace's `lint:` settings make them: codes turned off dropped,
        severities changed. lint, build, the language server and pre-commit all pass their
        findings through here, so one workspace gets one verdict."""
        out = []
        for diag in diags:
            if self.rules.get(diag.code, True) is False:
                continue
            severity = self.severities.get(diag.code)
            out.append(replace(diag, severity=severity) if severity and severity != diag.severity else diag)
        return out


@dataclass
class DeployConfig:
    """`deploy:` in flinkx.yaml: what `flinkx deploy` ships with every job."""

    jars: list[str] = field(default_factory=list)  # connector/UDF jar file names, looked up in $FLINKX_JAR_DIR


@dataclass
class DocsConfig:
    """`docs:` in flinkx.yaml: where `flinkx docs` links to (decisions.md, "flinkx docs")."""

    source_url: str = ""  # e.g. https://github.com/o/r/blob/main/{path}#L{line}: a page's link to its source
    site_url: str = ""  # where the published site lives: impact's markdown links each task to its page


@dataclass
class WorkspaceConfig:
    engine: str = "flink"
    flink_version: str = "1.20"
    dataphin_version: str = "3.7"
    build_dir: str = "build"
    cache_dir: str = ".flinkx-cache"
    mode: str = "stream"
    variables: dict[str, str] = field(default_factory=dict)
    secrets: list[str] = field(default_factory=list)
    lint: LintConfig = field(default_factory=LintConfig)
    name: str = ""  # flinkx.yaml `name`; deploy names jobs after it (else the folder's name)
    deploy: DeployConfig = field(default_factory=DeployConfig)
    docs: DocsConfig = field(default_factory=DocsConfig)

    @property
    def dataphin_at_least_3_7(self) -> bool:
        try:
            major, minor = (int(p) for p in self.dataphin_version.split(".")[:2])
        except ValueError:
            return True
        return (major, minor) >= (3, 7)


@dataclass
class Workspace:
    root: Path
    config: WorkspaceConfig
    projects: dict[str, Project]
    config_path: Path

    @property
    def cache_root(self) -> Path | None:
        """This code version's folder of the cache folder (`cache_version.py`), or None when, links
        followed, the cache folder is not a folder of flinkx's own (nothing is cached)."""
        from flinkx_build.cache_version import versioned_cache_root

        return versioned_cache_root(self.root, self.config.cache_dir)

    @property
    def cache_folder(self) -> Path | None:
        """The cache folder itself (every code version's), or None as `cache_root`."""
        from flinkx_build.cache_root import workspace_cache_root

        return workspace_cache_root(self.root, self.config.cache_dir)

    def variables_for(self, project: str) -> dict[str, str]:
        """Project variables over workspace variables."""
        proj = self.projects.get(project)
        return {**self.config.variables, **(proj.variables if proj else {})}

    def context_for(self, project: str) -> dict[str, str]:
        """What a `${name}` of the project's files renders to: name -> replacement text, and a secret
        to its own placeholder, so compiled SQL keeps it and no value is ever printed."""
        context = {k: str(v) for k, v in self.variables_for(project).items()}
        remember_credential_variables(context)  # a password kept as a plain variable is masked wherever it surfaces
        for name in self.config.secrets:
            context[name] = "${" + name + "}"
        return context

    def all_tasks(self) -> list[Task]:
        return [t for p in self.projects.values() for t in p.tasks.values()]
