"""ruamel.yaml's errors in the user's words: one line, at the place to fix.

ruamel reports what its state machine expected ("expected <block end>, but
found '<block sequence start>'"); a workspace author needs to know which
line to change and how. Each rule maps a (context, problem) pair to a
plain sentence and picks the mark that points at the mistake: the problem
mark for an indentation slip, the opening mark for a quote or bracket that
is never closed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruamel.yaml.error import MarkedYAMLError


@dataclass(frozen=True)
class YamlProblem:
    line: int  # 1-based
    col: int
    message: str
    hint: str = ""


def _mark(mark: Any) -> tuple[int, int] | None:
    return (mark.line + 1, mark.column + 1) if mark is not None else None


def _found(problem: str) -> str:
    """What the problem quotes last: from the first `'` of its last line to the `'` that ends it
    (what `'(.*)'$` found, without trying every quote of a long line)."""
    text = problem[:-1] if problem.endswith("\n") else problem
    first = text.find("'", text.rfind("\n") + 1)
    return text[first + 1:-1] if text.endswith("'") and 0 <= first < len(text) - 1 else ""


def plain_yaml_error(exc: MarkedYAMLError) -> YamlProblem:
    problem = (exc.problem or "").strip()
    context = (exc.context or "").strip()
    at_problem = _mark(exc.problem_mark) or _mark(exc.context_mark) or (1, 1)
    at_context = _mark(exc.context_mark) or at_problem

    def say(where: tuple[int, int], message: str, hint: str = "") -> YamlProblem:
        return YamlProblem(where[0], where[1], message if message.startswith("malformed") else f"malformed YAML: {message}", hint)

    line = at_problem[0]
    indentation = f"line {line} is indented differently from the lines above it"
    if problem.startswith("expected <block end>") or problem.startswith("did not find expected key"):
        return say(at_problem, indentation, "align it with the keys or list items it belongs to")
    if problem.startswith("did not find expected '-' indicator"):
        return say(at_problem, indentation, "a list item starts with '- ' at the same column as the items above")
    if problem == "mapping values are not allowed here":
        return say(at_problem, "a ':' here cannot start a value", "put text that contains ': ' in quotes, or fix the indentation of this line")
    if problem == "could not find expected ':'":
        return say(at_context, "this key has no ':' after it", "write 'key: value', or close the quote or bracket opened here")
    if "found character '\\t'" in problem or "tab character" in problem:
        return say(at_problem, "a tab cannot indent YAML", "indent with spaces")
    if problem.endswith("that cannot start any token"):
        return say(at_problem, f"'{_found(problem.replace(' that cannot start any token', ''))}' cannot start a value", "put the value in quotes")
    if "unknown escape character" in problem:
        return say(at_problem, f"'\\{_found(problem.replace('unknown escape character', 'found'))}' is not an escape sequence in double quotes", "use single quotes, or write the backslash twice")
    if "quoted scalar" in context:
        return say(at_context, "the quoted text that starts here is never closed", "add the closing quote")
    if context.startswith("while parsing a flow sequence"):
        return say(at_context, "the '[' list that opens here is not closed, or lacks a ','", "close it with ']'")
    if context.startswith("while parsing a flow mapping"):
        return say(at_context, "the '{' mapping that opens here is not closed, or lacks a ','", "close it with '}'")
    if problem.startswith("found undefined alias"):
        name = problem.split("alias", 1)[1].strip().strip("'")
        return say(at_problem, f"alias *{name} has no anchor &{name} before it")
    if context.startswith("while scanning an anchor") or context.startswith("while scanning an alias"):
        return say(at_context, "an anchor (&) or alias (*) needs a name right after it")
    if context.startswith("while scanning a block scalar"):
        return say(at_context, "after '|' or '>' only an indentation number, '+' or '-' may follow", "move the text to the next line")
    if context == "expected a single document in the stream":
        return say(at_problem, "a second YAML document starts here", "a flinkx file holds one document: remove the '---' or '...' line")
    if problem == "found duplicate YAML directive":
        return say(at_problem, "the %YAML directive is given twice")
    if context.startswith("while constructing a mapping") and "merging" in problem:
        return say(at_problem, "'<<' can only merge a mapping (or a list of mappings)")
    if "end of stream" in problem:
        return say(at_context, "the file ends in the middle of a value", "close what was opened here")
    text = " ".join(f"{context} {problem}".split()) or "invalid YAML"
    return say(at_problem, f"malformed YAML: {text}")
