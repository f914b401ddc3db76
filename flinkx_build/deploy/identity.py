"""How a job on the cluster says which task it runs and which SQL: its name and its parameters.

The job name is `flinkx:<workspace>/<project>/<task>` (what a person sees in Flink's UI). The
fingerprint of the compiled SQL, and the compiled statements themselves, travel as global job
parameters, which the REST API gives back in `/jobs/<id>/config` (measured on Flink 1.20.5):
the cluster itself is the record of what is deployed, so no state file is needed, and the plan can
compile the deployed SQL again for the state-compatibility verdict. The stored SQL is the
compiled text with `${secret}` placeholders, never the values.
"""
from __future__ import annotations

import base64
import json
import zlib
from dataclasses import dataclass

from flinkx_build.frontend.splitter import strip_comments
from flinkx_build.hashing import sha256

PREFIX = "flinkx:"
TASK_KEY = "flinkx.task"
FINGERPRINT_KEY = "flinkx.fingerprint"
STATEMENTS_KEY = "flinkx.statements"
FLINK_VERSION_KEY = "flinkx.flink-version"  # of the client that planned the job


@dataclass(frozen=True)
class Statement:
    """One statement to run: kind as in `CompiledStatement.kind`, text without ';'."""

    kind: str
    text: str


def job_name(workspace: str, task_key: str) -> str:
    return f"{PREFIX}{workspace}/{task_key}"


def task_of(name: str, workspace: str) -> str | None:
    """The task key a job name belongs to, when it is a job of this workspace."""
    head = f"{PREFIX}{workspace}/"
    return name[len(head):] if name.startswith(head) else None


def fingerprint(statements: list[Statement]) -> str:
    """Changes when what the job runs may change: comments and layout do not count (a change of keyword case
    does here; the plan then finds both sides compile to the same job, plan.py)."""
    return sha256(json.dumps([[s.kind, code_text(s.text)] for s in statements]))[:16]


def code_text(sql: str) -> str:
    """The statement without comments (hints stay) and with one space for any run of layout outside quotes."""
    text, out, quote = strip_comments(sql), [], ""
    for ch in text:
        if quote:
            out.append(ch)
            quote = "" if ch == quote else quote  # a doubled quote closes and reopens: the same text
        elif ch in "'`\"":
            quote = ch
            out.append(ch)
        elif ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
        else:
            out.append(ch)
    return "".join(out).strip()


def encode_statements(statements: list[Statement]) -> str:
    raw = json.dumps([[s.kind, s.text] for s in statements]).encode()
    return base64.b64encode(zlib.compress(raw, 9)).decode("ascii")


def decode_statements(payload: str) -> list[Statement] | None:
    try:
        data = json.loads(zlib.decompress(base64.b64decode(payload)))
        return [Statement(str(kind), str(text)) for kind, text in data]
    except (ValueError, TypeError, zlib.error):
        return None
