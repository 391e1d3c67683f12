"""The product lines, described once as data.

A line says what a product is made of (files, catalogue entry, limits,
uniqueness, screenshots). The check, the probe, the export, the shift and the
site read these descriptions; none of them asks "is this machines?". Adding a
line is one new module registered here, never edits elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel


@dataclass(frozen=True)
class Line:
    """One product line: everything that differs between machines and games."""

    name: str
    """Plural, as used on the command line and in folder names: `machines`."""
    noun: str
    """Singular, for messages and the row's entry key: `machine`."""
    side: str
    """The row's line-side field name (`machinery`, `arcade`)."""
    order: str
    """The standing order that makes this line's products (`new-machine`)."""
    files: tuple[str, ...]
    """The exact file set of one product; no other file is allowed."""
    entry_model: type[BaseModel]
    """The catalogue entry as a pydantic model (field shapes only)."""
    unique: tuple[tuple[str, ...], ...]
    """Field groups that must be unique across the catalogue, compared folded."""
    size_limit: int
    """The check fails above this many bytes (all product files together)."""
    size_target: int
    """What the order asks for, in bytes."""
    shots: tuple[str, ...]
    """Screenshot suffixes the probe writes: `<slug>-<shot>.png`."""
    facts: tuple[str, ...] = ()
    """The entry fields the shelf page heads a product with (kind, domain, era), whatever
    their length; without them, the entry's first three short text fields."""
    probe: str = "page"
    """How the probe drives a product (`factory.probe.ROUTINES`): `page` (loads clean,
    no external request, answers keyboard and pointer) or `machine` (the reference's
    eight rules on the fixed `window.machine` API, and our order's findings)."""
    probe_finishes: bool = True
    """Whether the cards' "finished" filter asks for the probe too (the arcade card
    does not: the reference has no browser gate for games)."""
    look_first: int = 0
    """How many of the newest products the order says to screenshot and view
    before building anything (the transcript judge checks it)."""
    pages: tuple[str, ...] = ("index.html",)
    """The product's HTML pages: each links the stylesheet and the catalogue."""
    unique_key: Callable[[str], str] = field(default=lambda text: fold(text))
    """How values are compared for uniqueness (the games gate does not fold spaces)."""
    entry_rules: tuple[Callable[..., Any], ...] = field(default=())
    """Line-specific catalogue rules: `rule(entry, earlier) -> Iterable[str]`,
    one problem message per item (see `factory.check`)."""
    product_rules: tuple[Callable[..., Any], ...] = field(default=())
    """Line-specific product-file rules: `rule(entry, sources) -> Iterable[(file,
    message)]` where sources maps each product file to its text."""
    product_notes: tuple[Callable[..., Any], ...] = field(default=())
    """Like product_rules, but for what our order asks and no reference gate
    checks: reported as notes, never failures."""

    def catalogue_path(self, workspace: Path) -> Path:
        return workspace / "catalogue" / f"{self.name}.json"

    def shelf_dir(self, workspace: Path) -> Path:
        return workspace / "shelf" / self.name

    def product_dir(self, workspace: Path, slug: str) -> Path:
        return self.shelf_dir(workspace) / slug

    def shot_names(self, slug: str) -> list[str]:
        return [f"{slug}-{shot}.png" for shot in self.shots]


def fold(text: str) -> str:
    """Lower-case and fold whitespace: how names are compared for uniqueness."""
    return " ".join(str(text).lower().split())


def all_lines() -> dict[str, Line]:
    from factory.lines import games, machines

    return {line.name: line for line in (machines.LINE, games.LINE)}


def line_named(name: str) -> Line:
    lines = all_lines()
    if name not in lines:
        raise KeyError(f"unknown line {name!r} (known: {', '.join(lines)})")
    return lines[name]


def line_for_order(order_name: str) -> Line | None:
    """The line whose standing order this is, or None for an order of no line."""
    for line in all_lines().values():
        if line.order == order_name:
            return line
    return None
