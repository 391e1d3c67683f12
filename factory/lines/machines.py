"""The machines line: control panels for machines that do not exist."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from factory.lines import Line

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
)
