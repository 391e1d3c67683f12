"""The machines line: control panels for machines that do not exist.

Everything the static gate knows only about machines lives here as data and
small rule functions (vocabularies, palette, the manual, the panel's fixed
parts). Rules report problems as text; they never read files or print.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from factory import htmlscan
from factory.lines import Line, fold

DOMAINS = (
    "aerospace", "agriculture", "aviation", "broadcast", "chemical", "civic",
    "cold-chain", "data-centre", "deep-sea", "energy", "laboratory", "marine",
    "medical", "military", "mining", "nuclear", "oil-and-gas", "power-grid",
    "rail", "road", "space", "telecom", "theatre", "water", "weather",
)  # fmt: skip

ERAS = (
    "1920s", "1940s", "1950s", "1960s", "1970s", "1980s", "1990s", "2000s",
    "2020s", "speculative",
)  # fmt: skip

MANUAL_SECTIONS = (
    "Overview", "Controls", "Normal operation", "Alarms", "Faults and recovery",
    "Specifications",
)  # fmt: skip

CHASSIS_ACCENT_MIN = 60.0
"""Euclidean sRGB distance between an entry's chassis and accent colours."""
PALETTE_SPREAD_MIN = 80.0
"""Summed chassis+accent distance against every earlier entry."""


LIST_MINIMUMS = {"palette": 3, "controls": 4, "faults": 2}
"""List fields of an entry and how many non-empty strings each needs."""
DESIGN_MIN_WORDS = 6

HEX = re.compile(r"#([0-9a-f]{6})")

Colour = tuple[int, int, int]


class MachineEntry(BaseModel):
    """One catalogue entry of `catalogue/machines.json`; field shapes only."""

    model_config = ConfigDict(extra="allow")

    slug: str
    name: str
    kind: str
    domain: str
    era: str
    design: str
    interaction: str
    palette: list[str]
    controls: list[str]
    faults: list[str]
    tagline: str
    created: str


def rgb(text: object) -> Colour | None:
    """`#rrggbb` (any case, surrounding spaces allowed) as components, else None."""
    return _rgb(text) if isinstance(text, str) else None


@lru_cache(maxsize=4096)  # every entry is compared with every earlier one: parse once
def _rgb(text: str) -> Colour | None:
    found = HEX.fullmatch(text.strip().lower())
    if not found:
        return None
    value = int(found.group(1), 16)
    return (value >> 16 & 255, value >> 8 & 255, value & 255)


def distance(a: Colour, b: Colour) -> float:
    """Euclidean distance in sRGB, on 0-255 components."""
    return math.dist(a, b)


def palette_of(entry: dict) -> list[Colour] | None:
    """The entry's colours when its palette is well formed (>= 3 `#rrggbb`), else None."""
    palette = entry.get("palette")
    if not isinstance(palette, list):
        return None
    colours = [rgb(c) for c in palette if isinstance(c, str)]
    if len(colours) < LIST_MINIMUMS["palette"] or any(c is None for c in colours):
        return None
    return colours  # type: ignore[return-value]


def strings(entry: dict, field: str) -> list[str]:
    """The string items of a list field (other items are the list rule's business)."""
    value = entry.get(field)
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


# --- catalogue rules: rule(entry, earlier) -> problem messages -------------------------


def lists_rule(entry: dict, earlier: list[dict]) -> Iterable[str]:
    for name, least in LIST_MINIMUMS.items():
        value = entry.get(name)
        if (
            not isinstance(value, list)
            or len(value) < least
            or not all(isinstance(v, str) and v.strip() for v in value)
        ):
            yield f"'{name}' must be a list of at least {least} non-empty strings"


def vocabulary_rule(entry: dict, earlier: list[dict]) -> Iterable[str]:
    for name, words in (("domain", DOMAINS), ("era", ERAS)):
        value = entry.get(name)
        if isinstance(value, str) and value.strip() and fold(value) not in words:
            yield f"{name} {value!r} is not one of: {', '.join(words)}"


def design_rule(entry: dict, earlier: list[dict]) -> Iterable[str]:
    design = entry.get("design")
    if isinstance(design, str) and design.strip() and len(design.split()) < DESIGN_MIN_WORDS:
        yield (
            f"'design' has {len(design.split())} words; describe the design language in at "
            f"least {DESIGN_MIN_WORDS} (material, legends, lighting, ...)"
        )


def palette_rule(entry: dict, earlier: list[dict]) -> Iterable[str]:
    palette = entry.get("palette")
    if not isinstance(palette, list) or len(palette) < LIST_MINIMUMS["palette"]:
        return  # the list rule says so
    bad = [c for c in palette if isinstance(c, str) and rgb(c) is None]
    if bad:
        yield f"palette colours must be #rrggbb (chassis, accent, alarm first); fix {bad[0]!r}"
        return
    colours = palette_of(entry)
    if colours is None:
        return
    chassis, accent = colours[0], colours[1]
    spread = distance(chassis, accent)
    if spread < CHASSIS_ACCENT_MIN:
        yield (
            f"chassis {palette[0]} and accent {palette[1]} are {spread:.0f} apart; "
            f"they need at least {CHASSIS_ACCENT_MIN:.0f} to read as a palette"
        )
    close = []
    for index, other in enumerate(earlier):
        theirs = palette_of(other) if isinstance(other, dict) else None
        if theirs is None:
            continue
        summed = distance(chassis, theirs[0]) + distance(accent, theirs[1])
        if summed < PALETTE_SPREAD_MIN:
            close.append(f"{summed:.0f} from entry {index} ({other.get('slug', '?')})")
    if close:
        yield (
            f"chassis + accent colours are {', '.join(close)}; need {PALETTE_SPREAD_MIN:.0f} "
            "(summed sRGB distance): pick a different colour story"
        )


# --- product rules: rule(entry, sources) -> (file, message) ----------------------------


def dialog_rule(entry: dict, sources: dict[str, str]) -> Iterable[tuple[str, str]]:
    panel = sources["index.html"]
    if not htmlscan.has_tag_attribute(panel, "dialog", "data-manual"):
        yield "index.html", "no <dialog data-manual>; the manual opens in the panel"
    if not htmlscan.tag_refers_to(panel, "iframe", "src", "manual.html"):
        yield "index.html", 'no <iframe src="manual.html"> inside the manual dialog'
    if not htmlscan.attribute_is(panel, "data-action", "manual"):
        yield "index.html", 'no control with data-action="manual" to open the manual'
    if not htmlscan.attribute_is(panel, "data-action", "close-manual"):
        yield "index.html", 'no control with data-action="close-manual" to close the manual'


def controls_rule(entry: dict, sources: dict[str, str]) -> Iterable[tuple[str, str]]:
    on_panel = {fold(v) for v in htmlscan.attribute_values(sources["index.html"], "data-control")}
    for control in strings(entry, "controls"):
        if fold(control) not in on_panel:
            yield (
                "index.html",
                f'control {control!r} is in the catalogue but no element has data-control="{control}"',
            )


def manual_rule(entry: dict, sources: dict[str, str]) -> Iterable[tuple[str, str]]:
    manual = sources["manual.html"]
    missing = htmlscan.missing_in_order(htmlscan.headings(manual), MANUAL_SECTIONS)
    if missing:
        yield (
            "manual.html",
            f"missing <h2> section(s) in order: {', '.join(missing)} "
            f"(required: {' / '.join(MANUAL_SECTIONS)})",
        )
    if not re.search(r"<ol\b", manual, re.I):
        yield "manual.html", "no numbered procedure (<ol>); Normal operation must be steps"
    text = htmlscan.visible_text(manual)
    for control in strings(entry, "controls"):
        if not htmlscan.mentions(text, control):
            yield "manual.html", f"control {control!r} is not mentioned in the manual's text"
    for fault in strings(entry, "faults"):
        if not htmlscan.mentions(text, fault):
            yield "manual.html", f"fault {fault!r} is not written up in the manual's text"
    if not htmlscan.links_to_panel(manual):
        yield "manual.html", 'no link back to the panel (href="./" or "index.html")'


def api_rule(entry: dict, sources: dict[str, str]) -> Iterable[tuple[str, str]]:
    script = sources["machine.js"]
    if not re.search(r"window\.machine\s*=", script):
        yield "machine.js", "never assigns window.machine (the fixed API the probe drives)"
    if re.search(r"^\s*(import|export)\b", script, re.M):
        yield "machine.js", "is an ES module (import/export); it must be a classic script"


def fault_controls_note(entry: dict, sources: dict[str, str]) -> Iterable[tuple[str, str]]:
    """Our order: every fault can be triggered from a panel control `data-fault="<fault>"`."""
    on_panel = {fold(v) for v in htmlscan.attribute_values(sources["index.html"], "data-fault")}
    for fault in strings(entry, "faults"):
        if fold(fault) not in on_panel:
            yield "index.html", f'no control with data-fault="{fault}" triggers this fault'


LINE = Line(
    name="machines",
    noun="machine",
    side="machinery",
    order="new-machine",
    files=("index.html", "machine.css", "machine.js", "manual.html"),
    entry_model=MachineEntry,
    unique=(("slug",), ("name",), ("kind",), ("design",), ("interaction",), ("domain", "era")),
    size_limit=200 * 1024,
    size_target=160 * 1024,
    shots=("desktop", "manual", "phone"),
    probe="machine",
    facts=("kind", "domain", "era"),
    look_first=3,
    pages=("index.html", "manual.html"),
    entry_rules=(lists_rule, vocabulary_rule, design_rule, palette_rule),
    product_rules=(dialog_rule, controls_rule, manual_rule, api_rule),
    product_notes=(fault_controls_note,),
)
