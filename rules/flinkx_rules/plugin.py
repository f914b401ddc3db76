"""sqlfluff plugin entry point (`[project.entry-points.sqlfluff] flinkx`).

Importing this module registers the `dataphin` dialect with sqlfluff, so a
plain ``.sqlfluff`` file can say ``dialect = dataphin`` once the plugin is
installed. Rule modules are imported inside `get_rules()`, as sqlfluff asks.
"""
from __future__ import annotations

from typing import Any

from sqlfluff.core.config import load_config_resource
from sqlfluff.core.plugin import hookimpl
from sqlfluff.core.rules import BaseRule
from sqlfluff.core.rules import ConfigInfo

from flinkx_build.frontend.dialect import register as _register_dialect

_register_dialect()

PLUGIN_NAME = "flinkx"


@hookimpl
def get_rules() -> list[type[BaseRule]]:
    """FX01, FX02, FX03 (imported here, after sqlfluff has loaded its plugins)."""
    from flinkx_rules.rules.FX01 import Rule_FX01
    from flinkx_rules.rules.FX02 import Rule_FX02
    from flinkx_rules.rules.FX03 import Rule_FX03

    return [Rule_FX01, Rule_FX02, Rule_FX03]


@hookimpl
def load_default_config() -> dict[str, Any]:
    """Defaults from ``plugin_default_config.cfg`` next to this module."""
    return load_config_resource(package="flinkx_rules", file_name="plugin_default_config.cfg")


@hookimpl
def get_configs_info() -> dict[str, ConfigInfo]:
    """Validation and descriptions for the rules' config keywords."""
    return {
        "include_warnings": {
            "validation": [True, False],
            "definition": (
                "FX01: also report words Flink documents as reserved but accepts "
                "unquoted (class ``warning``). Defaults to ``False``."
            ),
        },
        "flag_single_letters": {
            "validation": [True, False],
            "definition": (
                "FX01: report single-letter words of the documented list "
                "(``A``, ``C``, ``G``, ``K``, ``M``, ...). Defaults to ``False``."
            ),
        },
        "flink_version": {
            "definition": (
                "FX01: the Flink version whose parser's reserved words count, written "
                "``v1.20`` or ``v2.3`` (a bare 1.20 reads as a number). Defaults to ``v1.20``."
            ),
        },
        "dataphin_version": {
            "definition": (
                "FX03: the Dataphin version the SQL targets. From ``3.7`` the value "
                "of ``SET t.`watermark``` must be single-quoted; ``3.6`` wants it "
                "unquoted. Defaults to ``3.7``."
            ),
        },
    }


def ensure_registered() -> None:
    """Register this plugin in-process when it is not installed as a package.

    `pip install` makes sqlfluff find the plugin through its entry point; a
    source checkout on PYTHONPATH does not have one. Safe to call repeatedly.
    """
    import sys

    from sqlfluff.core.plugin.host import get_plugin_manager

    manager = get_plugin_manager()  # loads the installed plugins first
    module = sys.modules[__name__]
    if manager.is_registered(module) or manager.get_plugin(PLUGIN_NAME) is not None:
        return
    manager.register(module, name=PLUGIN_NAME)
