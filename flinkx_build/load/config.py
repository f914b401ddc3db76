"""flinkx.yaml: every value checked, each mistake one FX100 finding at its value.

A config error stops every command (exit 2), so each value is read with
the type and form it must have; nothing is passed on that a later stage
could trip over (an empty `dataphin_version` once made a sqlfluff rule
raise). `build_dir` and `cache_dir` are flinkx's only write targets, so
they must be folders of their own inside the workspace.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from typing import Callable

from flinkx_build.cache_root import own_folder_problem
from flinkx_build.errors import CODES
from flinkx_build.errors import Diagnostic
from flinkx_build.errors import did_you_mean
from flinkx_build.flink_data import ADD_VERSION_DOC
from flinkx_build.flink_data import UnknownFlinkVersion
from flinkx_build.flink_data import facts_for
from flinkx_build.flink_data import unknown_version_message
from flinkx_build.load.names import has_control
from flinkx_build.load.yaml_io import key_loc
from flinkx_build.load.yaml_io import value_loc
from flinkx_build.load.yaml_values import scalar_text
from flinkx_build.workspace_model import ENGINES
from flinkx_build.workspace_model import MODES
from flinkx_build.workspace_model import DeployConfig
from flinkx_build.workspace_model import DocsConfig
from flinkx_build.workspace_model import LintConfig
from flinkx_build.workspace_model import WorkspaceConfig

CONFIG_KEYS = {
    "engine", "flink_version", "dataphin_version", "build_dir", "cache_dir",
    "mode", "variables", "secrets", "lint", "name", "description", "deploy", "docs",
}
_VERSION = re.compile(r"[vV]?(\d+\.\d+(?:\.\d+)?)")
_VARIABLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_LINT_SETTINGS = {"on": True, "off": False, "error": "error", "warning": "warning"}

Report = Callable[[Any, str, str, str], None]  # (mapping, key, message, hint)


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, (str, int, float, bool))


def string_map(data: Any, key: str, shown: str, diags: list[Diagnostic], code: str) -> dict[str, str]:
    """A `variables:` mapping: names that `${...}` can reach, scalar values."""
    section = data.get(key) if isinstance(data, dict) else None
    if section is None:
        return {}
    if not isinstance(section, dict):
        loc = value_loc(data, key, shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, code, f"{key} must be a mapping of name to value"))
        return {}
    out = {}
    for name, value in section.items():
        if not _VARIABLE_NAME.fullmatch(name):
            loc = key_loc(section, name, shown)
            diags.append(Diagnostic(shown, loc.line, loc.col, code, f"variable name {name!r} cannot be used as ${{...}}", "use letters, digits, '_' and '.', starting with a letter"))
            continue
        if not _is_scalar(value):
            loc = value_loc(section, name, shown)
            diags.append(Diagnostic(shown, loc.line, loc.col, code, f"variable '{name}' must be text, not a list or mapping"))
            continue
        out[name] = scalar_text(value)
    return out


def read_config(data: Any, shown: str, root: Path, diags: list[Diagnostic]) -> WorkspaceConfig:
    config = WorkspaceConfig()
    problem = "" if isinstance(data, dict) and "cache_dir" in data else own_folder_problem(root, config.cache_dir)
    if problem:  # the default, where a committed symlink leads (an empty flinkx.yaml included)
        diags.append(Diagnostic(shown, 1, 1, "FX100", f"cache_dir '{config.cache_dir}' (the default) {problem}, through a symbolic link; flinkx writes only folders of its own",
                                "remove the link (flinkx makes the folder), or set cache_dir to a folder of its own in the workspace"))
    if data is None:
        return config
    if not isinstance(data, dict):
        diags.append(Diagnostic(shown, 1, 1, "FX100", "flinkx.yaml must be a mapping of settings", "for example 'engine: flink'"))
        return config

    def report(node: Any, key: str, message: str, hint: str = "") -> None:
        # an empty value has no position of its own (ruamel gives the next line's): point at the key
        loc = key_loc(node, key, shown) if node.get(key) is None else value_loc(node, key, shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", message, hint))

    for key in data:
        if key not in CONFIG_KEYS:
            loc = key_loc(data, key, shown)
            diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", f"unknown key '{key}'", did_you_mean(key, CONFIG_KEYS)))
    config.engine = _choice(data, "engine", ENGINES, config.engine, report)
    config.mode = _choice(data, "mode", MODES, config.mode, report)
    config.flink_version = _flink_version(data, config.flink_version, diags, shown)
    config.dataphin_version = _version(data, "dataphin_version", config.dataphin_version, report)
    for key in ("name", "description"):
        if key in data and not isinstance(data[key], str):
            report(data, key, f"{key} must be text")
    config.build_dir = _folder(data, "build_dir", config.build_dir, root, report)
    config.cache_dir = _folder(data, "cache_dir", config.cache_dir, root, report)
    if (root / config.build_dir).resolve() == (root / config.cache_dir).resolve():
        report(data, "cache_dir", "cache_dir and build_dir are the same folder", "a build replaces its folder: give the cache another one")
        config.cache_dir = WorkspaceConfig().cache_dir
    config.variables = string_map(data, "variables", shown, diags, "FX100")
    config.secrets = _secrets(data, report)
    config.lint = _lint_config(data, report)
    config.name = data["name"] if isinstance(data.get("name"), str) else ""
    config.deploy = _deploy_config(data, report)
    config.docs = _docs_config(data, report)
    return config


DOCS_KEYS = ("source_url", "site_url")


def _docs_config(data: Any, report: Report) -> DocsConfig:
    """`docs: {source_url: ..., site_url: ...}`: http(s) URLs; source_url may hold `{path}` and `{line}`."""
    section = data.get("docs")
    docs = DocsConfig()
    if section is None:
        return docs
    if not isinstance(section, dict) or any(k not in DOCS_KEYS for k in section):
        report(data, "docs", "docs must be a mapping with `source_url:` and/or `site_url:`")
        return docs
    for key in DOCS_KEYS:
        value = section.get(key)
        if value is None:
            continue
        if not isinstance(value, str) or not value.lower().startswith(("https://", "http://")):
            report(data, "docs", f"docs.{key} must be an http(s) URL", "e.g. https://github.com/org/repo/blob/main/{path}#L{line}")
            continue
        setattr(docs, key, value)
    return docs


def _deploy_config(data: Any, report: Report) -> DeployConfig:
    """`deploy: {jars: [path, ...]}`."""
    section = data.get("deploy")
    deploy = DeployConfig()
    if section is None:
        return deploy
    jars = section.get("jars") if isinstance(section, dict) else None
    unknown = [k for k in section if k != "jars"] if isinstance(section, dict) else []
    if not isinstance(section, dict) or unknown or not isinstance(jars or [], list) or not all(isinstance(j, str) for j in jars or []):
        report(data, "deploy", "deploy must be a mapping with `jars:` (a list of jar paths)")
        return deploy
    deploy.jars = list(jars or [])
    return deploy


def _choice(data: Any, key: str, allowed: tuple[str, ...], default: str, report: Report) -> str:
    if key not in data:
        return default
    value = data[key]
    if not isinstance(value, str) or value not in allowed:
        shown = "empty" if value is None else f"'{scalar_text(value)}'" if _is_scalar(value) else "a list or mapping"
        report(data, key, f"{key} must be one of {', '.join(allowed)}, not {shown}", did_you_mean(scalar_text(value), allowed) if _is_scalar(value) else "")
        return default
    return value


def _version(data: Any, key: str, default: str, report: Report) -> str:
    if key not in data:
        return default
    value = data[key]
    example = {"flink_version": '"1.20"', "dataphin_version": '"3.7"'}[key]
    if isinstance(value, float):
        report(data, key, f"{key} must be quoted text, like {example}", f"an unquoted {value} is a number and loses trailing zeros")
        return default
    match = _VERSION.fullmatch(value.strip()) if isinstance(value, str) else None
    if not match:
        shown = "empty" if value is None or value == "" else f"'{scalar_text(value)}'" if _is_scalar(value) else "a list or mapping"
        report(data, key, f"{key} must be a version like {example}, not {shown}")
        return default
    return match.group(1)


def _flink_version(data: Any, default: str, diags: list[Diagnostic], shown: str) -> str:
    """A version flinkx has facts for (FX121 otherwise: every stage goes on with the default)."""
    def report(node: Any, key: str, message: str, hint: str = "") -> None:
        loc = key_loc(node, key, shown) if node.get(key) is None else value_loc(node, key, shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, "FX100", message, hint))

    written = _version(data, "flink_version", default, report)
    if "flink_version" not in data or written == default:
        return written
    try:
        facts_for(written)
        return written
    except UnknownFlinkVersion:
        loc = value_loc(data, "flink_version", shown)
        diags.append(Diagnostic(shown, loc.line, loc.col, "FX121", unknown_version_message(written),
                                f"use one of them, or add the version's facts ({ADD_VERSION_DOC})"))
        return default


def _folder(data: Any, key: str, default: str, root: Path, report: Report) -> str:
    """A folder of flinkx's own inside the workspace: not the workspace, a parent, its sources or .git."""
    if key not in data:
        return default
    value = data[key]
    if not isinstance(value, str) or not value.strip() or has_control(value):
        report(data, key, f"{key} must be a folder name like '{default}'")
        return default
    problem = own_folder_problem(root, value)
    if problem:
        report(data, key, f"{key} '{value}' {problem}; flinkx writes (and replaces) only folders of its own", f"use a folder such as '{default}'")
        return default
    return value


def _secrets(data: Any, report: Report) -> list[str]:
    secrets = data.get("secrets")
    if secrets is None:
        return []
    if not isinstance(secrets, list) or not all(isinstance(s, str) and _VARIABLE_NAME.fullmatch(s) for s in secrets):
        report(data, "secrets", "secrets must be a list of variable names", "for example [db_password]")
        return [s for s in secrets if isinstance(s, str) and _VARIABLE_NAME.fullmatch(s)] if isinstance(secrets, list) else []
    return list(secrets)


def _lint_config(data: Any, report: Report) -> LintConfig:
    lint = LintConfig()
    section = data.get("lint")
    if section is None:
        return lint
    if not isinstance(section, dict):
        report(data, "lint", "lint must be a mapping of rule code to on/off/error/warning")
        return lint
    for key, setting in section.items():
        if key == "reserved_word_warnings":
            if setting not in (True, False, "on", "off"):
                report(section, key, "lint.reserved_word_warnings must be on or off")
            lint.reserved_word_warnings = setting in (True, "on")
            continue
        code = key.upper()
        if code not in CODES:
            report(section, key, f"lint.{key}: no rule has this code", did_you_mean(code, CODES))
            continue
        value = {True: True, False: False}.get(setting, _LINT_SETTINGS.get(setting, None)) if _is_scalar(setting) else None
        if value is None:
            report(section, key, f"lint.{key} must be on, off, error or warning")
        elif isinstance(value, bool):
            lint.rules[code] = value
        else:
            lint.rules[code] = True
            lint.severities[code] = value
    return lint
