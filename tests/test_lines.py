"""The line descriptions: their data and the machines line's palette and manual rules."""

from __future__ import annotations

import pytest

from factory.lines import all_lines, fold, line_named
from factory.lines import machines as m
from factory.lines.games import strip_lower


def test_lines_are_registered_with_their_files() -> None:
    lines = all_lines()
    assert set(lines) == {"machines", "games"}
    assert line_named("machines").pages == ("index.html", "manual.html")
    for line in lines.values():
        assert "index.html" in line.files
        assert set(line.pages) <= set(line.files)
        assert [f for f in line.files if f.endswith(".css")] and [
            f for f in line.files if f.endswith(".js")
        ]


@pytest.mark.parametrize(
    ("text", "colour"),
    [
        ("#000000", (0, 0, 0)),
        ("#FFffFF", (255, 255, 255)),
        (" #1f5f5b ", (31, 95, 91)),
        ("#1f5f5", None),
        ("1f5f5b", None),
        ("#1f5f5g", None),
        (None, None),
    ],
)
def test_rgb(text: object, colour: tuple | None) -> None:
    assert m.rgb(text) == colour


@pytest.mark.parametrize(
    ("accent", "problems"),
    [("#3c0000", 0), ("#3b0000", 1)],
    ids=["exactly 60 passes", "59 fails"],
)
def test_chassis_accent_boundary(accent: str, problems: int) -> None:
    entry = {"palette": ["#000000", accent, "#ff0000"]}
    assert len(list(m.palette_rule(entry, []))) == problems


@pytest.mark.parametrize(
    ("theirs", "problems"),
    [
        (["#280000", "#ffff28", "#000000"], 0),  # 40 + 40 = 80
        (["#270000", "#ffff28", "#000000"], 1),  # 39 + 40 = 79
        (["#000000", "#ffff00"], 0),  # malformed earlier palettes are not compared
        (["#000000", "not a colour", "#000000"], 0),
    ],
)
def test_distance_to_earlier_entries(theirs: list[str], problems: int) -> None:
    entry = {"palette": ["#000000", "#ffff00", "#ff0000"]}
    earlier = [{"slug": "old", "palette": theirs}]
    found = list(m.palette_rule(entry, earlier))
    assert len(found) == problems
    if found:
        assert "79 from entry 0 (old)" in found[0]


def test_every_close_earlier_entry_is_named_once() -> None:
    entry = {"palette": ["#000000", "#ffff00", "#ff0000"]}
    earlier = [{"slug": s, "palette": ["#000001", "#ffff01", "#000000"]} for s in "ab"]
    (problem,) = m.palette_rule(entry, earlier)
    assert "entry 0 (a)" in problem and "entry 1 (b)" in problem


@pytest.mark.parametrize(
    ("entry", "problems"),
    [
        ({"domain": "Deep-Sea", "era": " 2020S"}, 0),
        ({"domain": "deep sea", "era": "2020s"}, 1),
        ({"domain": "space", "era": "2010s"}, 1),
        ({"domain": "", "era": ""}, 0),  # missing fields are the field rule's business
    ],
)
def test_vocabulary(entry: dict, problems: int) -> None:
    assert len(list(m.vocabulary_rule(entry, []))) == problems


@pytest.mark.parametrize(
    ("design", "problems"), [("one two three four five six", 0), ("one two three four five", 1)]
)
def test_design_words(design: str, problems: int) -> None:
    assert len(list(m.design_rule({"design": design}, []))) == problems


def test_comparisons_differ_between_lines() -> None:
    assert fold("  Big \n Top ") == "big top"
    assert strip_lower("  Big  Top ") == "big  top"
    assert line_named("games").unique_key("A  B") != line_named("machines").unique_key("A  B")
