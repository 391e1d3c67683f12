"""The games line: small browser games."""

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
)
