"""libyaml's scanner and parser for ruamel (ruamel.yaml.clib), when it is installed.

`yaml_io` reads YAML events from it; the YAML cache and the load memo key on
`READER`, since the two readers place an empty value differently (the one
difference on valid YAML: tests/load/test_yaml_libyaml.py).
"""
from __future__ import annotations

try:
    from _ruamel_yaml import CParser
except ImportError:  # no wheel for this Python: ruamel's pure-Python parser alone
    CParser = None

READER = "ruamel" if CParser is None else "libyaml events"
