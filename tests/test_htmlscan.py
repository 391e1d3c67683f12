"""Pattern reading of product files, pinned to the reference's behaviour."""

from __future__ import annotations

import pytest

from factory import htmlscan
from factory.htmlscan import _EXTERNAL

EXTERNAL_CASES = {
    '<img src="https://x.test/a.png">': True,
    "<a href = ' //x.test'>": True,
    '<form action="http://x.test">': True,
    '<object data="//x.test/o">': True,
    "<video poster='https://x.test/p.jpg'>": True,
    'a { background: url( "//x.test/a.png") }': True,
    "a { background: url(https://x.test/a.png) }": True,
    '@import "https://x.test/a.css";': True,
    "@import url(//x.test/a.css);": True,
    "fetch('https://x.test')": True,
    "await import(`//x.test/m.js`)": True,
    "import x from 'https://x.test/m.js'": True,
    "  import\n{a} from\n  'https://x.test/m.js'": True,
    "import {a,\n  b} from 'https://x.test/m.js'": False,  # the reference misses it too
    "new XMLHttpRequest ( '//x.test' )": True,
    'new Image("https://x.test/a.png")': True,
    "src\n\n=\n  \n'\n//x.test": True,
    # Unquoted attribute values, as HTML allows them.
    "<link rel=stylesheet href=https://x.test/a.css>": True,
    "<img src=//x.test/a.png alt=''>": True,
    "<form action = http://x.test/send>": True,
    "<object\ndata=\n//x.test/o>": True,
    "<video poster=https://x.test/p.jpg>": True,
    "<a href=../../>": False,
    "var data = // the readings\n  [];": False,  # a comment after `=` is no URL
    "img.src = //x.test/a.png": False,  # not JavaScript; a property, not an attribute
    # A style attribute's url(), quoted or not.
    '<div style="background: url(https://x.test/a.png)">': True,
    "<div style=background:url(//x.test/a.png)>": True,
    "new\nWorker\n(\n'//x.test'": True,
    '<a href="../../">': False,
    '<img src="data:image/png;base64,AAAA">': False,
    "// a comment, https://x.test\nvar a = 1; // another": False,
    "fetch(url)": False,
    "new WebSocket('wss://x.test')": False,
    "var u = 'https://x.test';": False,
    "<p>Read https://x.test</p>": False,
    "": False,
}


@pytest.mark.parametrize("text", list(EXTERNAL_CASES))
def test_external_request(text: str) -> None:
    assert (htmlscan.external_request(text) is not None) is EXTERNAL_CASES[text]


@pytest.mark.parametrize("text", list(EXTERNAL_CASES))
def test_window_search_agrees_with_the_whole_file_search(text: str) -> None:
    padded = "// lead\n" * 50 + text + "\n// trail //\n"
    whole = _EXTERNAL.search(padded)
    found = htmlscan.external_request(padded)
    assert (found is None) == (whole is None)
    if whole:
        assert found == whole.group(0).strip()


@pytest.mark.parametrize(
    ("html", "inline"),
    [
        ("<script src='a.js'></script>", False),
        ("<script>\n</script>", True),
        ('<script type="module" src="m.js"></script><script>x()</script>', True),
    ],
)
def test_inline_script(html: str, inline: bool) -> None:
    assert htmlscan.has_inline_script(html) is inline


@pytest.mark.parametrize(
    ("html", "inline"),
    [("<style></style>", False), ("<style>\n </style>", False), ("<style>p{}</style>", True)],
)
def test_inline_style(html: str, inline: bool) -> None:
    assert htmlscan.has_inline_style(html) is inline


@pytest.mark.parametrize(
    ("found", "missing"),
    [
        (
            [
                "overview",
                "controls",
                "normal operation",
                "alarms",
                "faults and recovery",
                "specifications",
            ],
            [],
        ),
        (
            [
                "overview x",
                "pipes",
                "controls",
                "normal operation steps",
                "alarms",
                "faults and recovery",
                "specifications",
            ],
            [],
        ),
        (
            ["controls", "overview"],
            ["Controls", "Normal operation", "Alarms", "Faults and recovery", "Specifications"],
        ),
        (
            [],
            [
                "Overview",
                "Controls",
                "Normal operation",
                "Alarms",
                "Faults and recovery",
                "Specifications",
            ],
        ),
    ],
)
def test_missing_in_order(found: list[str], missing: list[str]) -> None:
    wanted = (
        "Overview",
        "Controls",
        "Normal operation",
        "Alarms",
        "Faults and recovery",
        "Specifications",
    )
    assert htmlscan.missing_in_order(found, wanted) == missing


def test_headings_and_text() -> None:
    html = "<h2 class=x>Faults  <em>and</em>\nRecovery</h2><script>var hidden='Pump'</script><p>A&nbsp;B &amp; C</p>"
    assert htmlscan.headings(html) == ["faults and recovery"]
    text = htmlscan.visible_text(html)
    assert htmlscan.mentions(text, "a b") and not htmlscan.mentions(text, "pump")
    assert not htmlscan.mentions(text, "B & C")  # entities other than &nbsp; stay encoded
