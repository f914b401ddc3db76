"""User text in GitHub-flavoured Markdown (a PR comment): shown as written, never as markup.

A column, task or path name comes from a pull request. Put raw into a comment, `<img src=...>`
would load an image from anywhere, `<!--` would hide the rest of the report, `|` would break
the table and `[x](url)` would make a link. Each helper makes one kind of place safe:

* `md_text`: plain text in a paragraph or table cell. `&`, `<`, `>` become entities (GitHub
  renders them as the characters, never as HTML); the characters Markdown gives meaning to
  are backslash-escaped when they could open code, a link or a table cell; a line break
  becomes a space (a cell is one line).
* `md_code`: an inline code span, fenced by more backticks than the text holds (CommonMark),
  `|` escaped for tables; a code span shows HTML as text.
* `md_fence`: the fence of a code block that no line of its content can close.
* `md_url`: a link target, percent-encoded where Markdown would end or change it.
"""
from __future__ import annotations

_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}
# what lets text become markup that escapes its place: code spans, links and images, table
# cells, and the backslash itself (`*`, `_` and `~` only emphasise, and `snake_case` must stay
# as written: GitHub does not emphasise inside a word)
_MARKDOWN_PUNCTUATION = frozenset("\\`[]|")
_URL_UNSAFE = {c: f"%{ord(c):02X}" for c in " <>()|`\"'\\[]"}


def md_text(text: str) -> str:
    out = []
    for ch in str(text):
        if ch in _ENTITIES:
            out.append(_ENTITIES[ch])
        elif ch in _MARKDOWN_PUNCTUATION:
            out.append("\\" + ch)
        elif ch in "\r\n":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def _longest_backtick_run(text: str) -> int:
    longest = run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return longest


def md_code(text: str) -> str:
    one_line = " ".join(str(text).splitlines()).replace("|", "\\|")
    fence = "`" * (_longest_backtick_run(one_line) + 1)
    pad = " " if one_line.startswith("`") or one_line.endswith("`") else ""
    return f"{fence}{pad}{one_line}{pad}{fence}"


def md_fence(lines: list[str]) -> str:
    return "`" * max(3, max((_longest_backtick_run(line) for line in lines), default=0) + 1)


def md_url(text: str) -> str:
    return "".join(_URL_UNSAFE.get(ch, " " if ch in "\r\n" else ch) for ch in str(text)).replace(" ", "%20")
