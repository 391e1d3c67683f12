"""Reading product files the way the reference gate reads them: by pattern.

The static gate must reach the reference's verdict on every product, including
malformed ones, so these helpers match text with the same kind of patterns the
reference uses instead of parsing HTML: a real parser would forgive (or refuse)
markup the reference judges differently. This module only answers questions
about text; it never decides what a product must contain (the lines do).
"""

from __future__ import annotations

import re

from factory.lines import fold

_URL = r"""(?:https?:)?//"""
_Q = r"""["']"""
_QT = r"""["'`]"""

EXTERNAL = (
    ("attribute", rf"""(?:src|href|action|poster|data)\s*=\s*{_Q}\s*{_URL}"""),
    # Unquoted, as HTML allows (`href=https://x/a.css`). A script's `data = // note` is a
    # comment, not a URL: the attribute must stand alone and a host must follow the `//`.
    (
        "unquoted attribute",
        rf"""(?<![\w.$])(?:src|href|action|poster|data)\s*=\s*{_URL}(?=[^\s/"'`<>])""",
    ),
    ("css url()", rf"""url\(\s*{_Q}?\s*{_URL}"""),
    ("@import", rf"""@import\s+{_Q}?\s*{_URL}"""),
    ("fetch()", rf"""\bfetch\(\s*{_QT}{_URL}"""),
    ("import()", rf"""\bimport\(\s*{_QT}{_URL}"""),
    ("import from", rf"""^\s*import\s.*from\s*{_QT}{_URL}"""),
    (
        "constructor",
        rf"""new\s+(?:WebSocket|EventSource|XMLHttpRequest|Audio|Image|Worker)\s*\(\s*{_QT}{_URL}""",
    ),
)
"""What counts as an external request: an absolute or protocol-relative URL in
an attribute, a CSS url() or @import, or the argument of a JS loader. Comments
are not skipped: the reference does not skip them either."""

_EXTERNAL = re.compile("|".join(pattern for _, pattern in EXTERNAL), re.I | re.M)
_TAG = re.compile(r"<[^>]+>")
_SCRIPT_OR_STYLE = re.compile(r"<(script|style)\b.*?</\1>", re.I | re.S)
_INLINE_STYLE = re.compile(r"<style\b[^>]*>(?!\s*</style>)", re.I)
_SCRIPT_OPEN = re.compile(r"<script\b([^>]*)>", re.I)
_HAS_SRC = re.compile(r"\bsrc\s*=", re.I)


def external_request(text: str) -> str | None:
    """The first external request in a file (the one ending first), as written, or None.

    Every pattern ends in `//` (one peeks at the character after it), so
    instead of trying the patterns at every position of a 100 KB file, try
    them only just before each `//`. No pattern needs more than three
    non-blank lines before the line holding its `//` (`src` / `=` / quote /
    `//` each on its own line), so that window finds every match the
    whole-file search would.
    """
    at = text.find("//")
    while at >= 0:
        found = _EXTERNAL.search(text, _window_start(text, at), at + 3)
        if found:
            return found.group(0).strip()
        at = text.find("//", at + 1)
    return None


def _window_start(text: str, at: int, lines: int = 4) -> int:
    """Start of the line `lines` non-blank lines up from the one holding `at` (inclusive)."""
    start = text.rfind("\n", 0, at) + 1
    counted = 1
    while counted < lines and start > 0:
        previous = text.rfind("\n", 0, start - 1) + 1
        if text[previous:start].strip():
            counted += 1
        start = previous
    return start


def is_html_document(text: str) -> bool:
    return "<html" in text.lower()


def has_inline_style(html: str) -> bool:
    """A `<style>` block with content (an empty one is harmless)."""
    return _INLINE_STYLE.search(html) is not None


def has_inline_script(html: str) -> bool:
    """Any `<script>` without a src attribute, even an empty one."""
    return any(not _HAS_SRC.search(m.group(1)) for m in _SCRIPT_OPEN.finditer(html))


def tag_refers_to(html: str, tag: str, attribute: str, file: str) -> bool:
    """`<tag ... attribute="file">`, also with `./file` or `/file`."""
    pattern = rf"""<{tag}\b[^>]*\b{attribute}\s*=\s*["']\.?/?{re.escape(file)}["']"""
    return re.search(pattern, html, re.I) is not None


def has_tag_attribute(html: str, tag: str, attribute: str) -> bool:
    """`<tag ... attribute ...>`, with or without a value."""
    return re.search(rf"<{tag}\b[^>]*\b{attribute}\b", html, re.I) is not None


def attribute_is(html: str, attribute: str, value: str) -> bool:
    """Some element carries `attribute="value"` exactly."""
    pattern = rf"""\b{attribute}\s*=\s*["']{re.escape(value)}["']"""
    return re.search(pattern, html, re.I) is not None


def attribute_values(html: str, attribute: str) -> list[str]:
    """Every quoted value of an attribute, as written."""
    return re.findall(rf"""\b{attribute}\s*=\s*["']([^"']+)["']""", html, re.I)


def links_to_panel(html: str) -> bool:
    """A link back to the panel: `href="./"`, `"index.html"` or `"."`."""
    return re.search(r"""\bhref\s*=\s*["'](?:\./|index\.html|\.)["']""", html, re.I) is not None


def headings(html: str, level: int = 2) -> list[str]:
    """The folded text of every `<hN>` heading, in document order."""
    found = re.findall(rf"<h{level}\b[^>]*>(.*?)</h{level}>", html, re.I | re.S)
    return [fold(_TAG.sub("", heading)) for heading in found]


def missing_in_order(found: list[str], wanted: tuple[str, ...]) -> list[str]:
    """The wanted prefixes that `found` does not supply, in order.

    Each found heading may satisfy the next wanted section only, so a section
    out of order leaves itself and everything after it missing.
    """
    waiting = [fold(name) for name in wanted]
    for heading in found:
        if waiting and heading.startswith(waiting[0]):
            waiting.pop(0)
    by_folded = {fold(name): name for name in wanted}
    return [by_folded[name] for name in waiting]


def visible_text(html: str) -> str:
    """The folded text of a page: scripts, styles and tags removed.

    Only `&nbsp;` is decoded, as in the reference, so a name written with an
    entity (`&amp;`) does not count as written.
    """
    text = _SCRIPT_OR_STYLE.sub(" ", html)
    text = _TAG.sub(" ", text)
    return fold(text.replace("&nbsp;", " "))


def mentions(text: str, name: str) -> bool:
    """Whether folded `text` contains the name, compared folded."""
    return fold(name) in text
