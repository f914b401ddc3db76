"""The caches' and the manifest's JSON (flinkx_build/json_codec.py): orjson, and the standard library where orjson refuses."""
from __future__ import annotations

import json
import math

import pytest

from flinkx_build import json_codec


@pytest.mark.parametrize("value", [
    {"b": [1, 2.5, None, True], "a": {"é": "ünïcode", "tab": "\t"}},
    "lone surrogate \udc80 from a file name that is not UTF-8",  # orjson refuses it
    2 ** 70,  # past 64 bits
    {1: "an int key", "2": "a text key"},
])
def test_what_json_writes_reads_back_as_json_reads_it(value):
    written = json_codec.dumps(value)
    assert json_codec.loads(written) == json.loads(json.dumps(value))
    assert json.loads(written) == json.loads(json.dumps(value))


def test_nesting_past_orjsons_limit_falls_back():
    deep: list = []
    for _ in range(300):
        deep = [deep]
    assert json_codec.loads(json_codec.dumps(deep)) == deep


def test_keys_are_sorted_on_request_and_the_output_is_compact():
    assert json_codec.dumps({"b": 1, "a": [1, 2]}, sort_keys=True) == b'{"a":[1,2],"b":1}'
    assert json_codec.dumps({"b": 1, "a": 2}) == b'{"b":1,"a":2}'


def test_a_float_that_is_not_finite_is_written_as_null_and_read_as_json_writes_it():
    assert json_codec.dumps([float("nan"), float("inf")]) == b"[null,null]"
    assert math.isnan(json_codec.loads(json.dumps(float("nan"))))


def test_what_is_not_json_is_a_value_error():
    with pytest.raises(ValueError):
        json_codec.loads(b'{"a": ')
    with pytest.raises(TypeError):
        json_codec.dumps(object())
