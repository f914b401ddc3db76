"""JSON in and out of the caches and the manifest: orjson, with the standard library for what it refuses.

A build that changed one task of 1,000 reads about 8 MB of cache entries and writes a 3.5 MB
manifest: the standard library's encoder took 0.06 s for the manifest alone and its decoder
about as long for the entries, a tenth of the build (docs/decisions.md, "orjson"). orjson
writes the same JSON (compact, keys sorted on request, UTF-8 instead of `\\u` escapes) and
reads the same values. It refuses a few things the standard library takes: nesting past 254
levels, a lone surrogate (a file name that is not UTF-8), an int past 64 bits; those fall back
to `json`, so no input is refused for the codec's sake. The one difference in what is written:
a float that is not finite becomes null (`json` writes NaN, which is not JSON). The only floats
a cache holds come from YAML, and the YAML cache does not store a document with `.nan` or
`.inf` in it (`load/yaml_cache.py`).
"""
from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS  # `json` writes an int key as its text: so do we


def dumps(obj: Any, sort_keys: bool = False) -> bytes:
    """Compact JSON as UTF-8 bytes. TypeError or ValueError for what `json.dumps` refuses too."""
    try:
        return orjson.dumps(obj, option=(_OPTIONS | orjson.OPT_SORT_KEYS) if sort_keys else _OPTIONS)
    except orjson.JSONEncodeError:
        return json.dumps(obj, sort_keys=sort_keys, separators=(",", ":")).encode()


def loads(data: bytes | str) -> Any:
    """The value; ValueError (or RecursionError) for what is not JSON to `json.loads` either."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)
