"""The games line: small browser games.

The reference games gate has no manual, no API and no palette: a game is
three files, its entry and the shared file rules. It compares names without
folding inner whitespace, so this line does the same.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from factory.lines import Line


class GameEntry(BaseModel):
    """One catalogue entry of `catalogue/games.json`; field shapes only."""

    model_config = ConfigDict(extra="allow")

    slug: str
    name: str
    genre: str
    mechanic: str
    theme: str
    tagline: str
    controls: str
    created: str


def strip_lower(text: str) -> str:
    """The games gate's comparison: trimmed and lower-cased, inner spaces kept."""
    return str(text).strip().lower()


LINE = Line(
    name="games",
    noun="game",
    side="arcade",
    order="new-game",
    files=("index.html", "game.css", "game.js"),
    entry_model=GameEntry,
    unique=(("slug",), ("name",), ("genre", "mechanic", "theme")),
    size_limit=150 * 1024,
    size_target=100 * 1024,
    shots=("desktop", "phone"),
    facts=("genre", "mechanic", "theme"),
    probe_finishes=False,
    pages=("index.html",),
    unique_key=strip_lower,
)
