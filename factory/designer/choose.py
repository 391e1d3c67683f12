"""Choosing the next machine: the design least like the shelf, from catalogue + seed.

Pure and deterministic: the same catalogue and seed give the same design.
It only decides; drawing is `render`'s job and it must never touch disk.
"""

from __future__ import annotations

import colorsys
import hashlib
import math
import random
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from factory.designer import parts
from factory.lines import fold
from factory.lines.machines import CHASSIS_ACCENT_MIN, DOMAINS, ERAS, PALETTE_SPREAD_MIN


@dataclass(frozen=True)
class Control:
    name: str
    """The catalogue name, also the element's data-control."""
    kind: str
    role: str
    """master, mode, setpoint, aux or ack: what it does to the simulation."""
    positions: tuple[str, ...]


@dataclass(frozen=True)
class Fault:
    name: str
    family: str
    """heat, leak or drift: which quantity the fault attacks."""
    alarm: str


@dataclass
class Design:
    slug: str
    name: str
    kind: str
    domain: str
    era: str
    words: parts.Kind
    """The kind's own words (quantities, controls, faults, alarms) and its engine."""
    material: parts.Material
    accent: str
    legend: parts.Legend
    lamp: parts.Lamp
    layout: parts.Layout
    maintenance: str
    maker: str
    code: str
    controls: list[Control]
    faults: list[Fault]
    palette: list[str]
    """chassis, accent, ink (legends), plate, face (dials)."""
    design: str
    interaction: str
    tagline: str
    created: str
    params: dict[str, float]
    target: int
    """The setpoint the procedure asks for."""
    trip_alarm: str
    tuning: dict[str, float] = field(default_factory=lambda: {"scale": 1.0, "gap": 1.0, "ink": 0.0})
    """What the measured revision changes: size of instruments, spacing, legend ink."""

    @property
    def era_style(self) -> parts.Era:
        return parts.ERAS[self.era]


def rng_for(seed: str, catalogue: list[dict[str, Any]]) -> random.Random:
    slugs = ",".join(str(entry.get("slug", "")) for entry in catalogue)
    digest = hashlib.sha256(f"{seed}|{slugs}".encode()).hexdigest()
    return random.Random(int(digest[:16], 16))


def hex_rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def rgb_hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{max(0, min(255, round(c))):02x}" for c in rgb)


def distance(a: str, b: str) -> float:
    return math.dist(hex_rgb(a), hex_rgb(b))


def luminance(colour: str) -> float:
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = hex_rgb(colour)
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def slugify(text: str) -> str:
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))


def _valid_colour(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"#[0-9a-fA-F]{6}", value) is not None


def _engine_of(kind: str) -> str | None:
    for kinds in parts.KINDS.values():
        for words in kinds:
            if fold(kind).endswith(words.name):
                return words.engine
    return None


def _pick(rng: random.Random, options: list[Any], penalty) -> Any:
    """The option with the least penalty; ties broken by the seed."""
    scored = [(penalty(option) + rng.random() * 0.5, index) for index, option in enumerate(options)]
    return options[min(scored)[1]]


def _recent_text(catalogue: list[dict[str, Any]], n: int) -> str:
    return " ".join(
        fold(f"{entry.get('design', '')} {entry.get('interaction', '')}")
        for entry in catalogue[-n:]
    )


def fitting(domain: str, era: str) -> list[parts.Kind]:
    """The domain's kinds that could have been built in that era (no 1940s ion thruster)."""
    return [words for words in parts.KINDS[domain] if era in words.eras]


def _domain_era(rng: random.Random, catalogue: list[dict[str, Any]]) -> tuple[str, str]:
    taken = {(fold(e.get("domain", "")), fold(e.get("era", ""))) for e in catalogue}
    taken_kinds = {fold(e.get("kind", "")) for e in catalogue}
    recent_domains = [fold(e.get("domain", "")) for e in catalogue[-8:]]
    recent_eras = [fold(e.get("era", "")) for e in catalogue[-4:]]
    last_engine = _engine_of(str(catalogue[-1].get("kind", ""))) if catalogue else None
    pairs = [(d, e) for d in DOMAINS for e in ERAS if (d, e) not in taken and fitting(d, e)]
    if not pairs:
        raise ValueError("every (domain, era) pair a kind fits is taken: the shelf is full")

    def penalty(pair: tuple[str, str]) -> float:
        domain, era = pair
        kinds = fitting(domain, era)
        score = 2.0 * recent_domains.count(domain) + 1.5 * recent_eras.count(era)
        if last_engine and {k.engine for k in kinds} == {last_engine}:
            score += 1.0
        # A pair whose fitting kinds are all on the shelf could only repeat one, qualified.
        if all(fold(k.name) in taken_kinds for k in kinds):
            score += 1.0
        return score

    return _pick(rng, pairs, penalty)


def _kind(
    rng: random.Random, domain: str, era: str, catalogue: list[dict[str, Any]]
) -> tuple[str, parts.Kind]:
    taken = {fold(e.get("kind", "")) for e in catalogue}
    last_engine = _engine_of(str(catalogue[-1].get("kind", ""))) if catalogue else None
    options = fitting(domain, era)
    rng.shuffle(options)
    options.sort(key=lambda option: option.engine == last_engine)
    for words in options:
        if fold(words.name) not in taken:
            return words.name, words
    for qualifier in parts.QUALIFIERS:
        for words in options:
            kind = f"{qualifier} {words.name}"
            if fold(kind) not in taken:
                return kind, words
    words = options[0]
    return f"{words.name} {len(catalogue) + 1}", words


CODES = {
    "1920s": lambda r: f"No. {r.randint(2, 19)}",
    "1940s": lambda r: f"Mk {r.choice(['II', 'III', 'IV', 'V', 'VI', 'VII'])}",
    "1950s": lambda r: f"Type {r.randint(21, 98)}",
    "1960s": lambda r: f"Series {r.randint(3, 9)}",
    "1970s": lambda r: f"{r.choice('DKRSTVX')}{r.choice('XKMR')}-{r.randint(2, 9)}0",
    "1980s": lambda r: f"{r.choice(['MC', 'DX', 'TS', 'VR'])}-{r.randint(12, 96)}00",
    "1990s": lambda r: (
        f"{r.choice(['NV', 'AX', 'HC', 'ProLine'])} {r.randint(2, 9)}{r.randint(0, 9)}0"
    ),
    "2000s": lambda r: f"{r.choice(['Q', 'V', 'S', 'K'])}-Line {r.randint(2, 12)}",
    "2020s": lambda r: f"{r.choice('FMNOR')}{r.randint(1, 9)}",
    "speculative": lambda r: f"Opus {r.choice(['III', 'V', 'IX', 'XI', 'XIV'])}",
}


def _name(rng: random.Random, era: parts.Era, kind: str, catalogue: list[dict[str, Any]]):
    taken_names = {fold(e.get("name", "")) for e in catalogue}
    taken_slugs = {str(e.get("slug", "")) for e in catalogue}
    title = " ".join(word if word.isupper() else word.capitalize() for word in kind.split())
    for _ in range(50):
        maker = rng.choice(era.makers)
        code = CODES[era.key](rng)
        name = f"{maker} {code} {title}"
        if fold(name) not in taken_names and slugify(name) not in taken_slugs:
            return maker, code, name
    name = f"{era.makers[0]} {len(catalogue) + 1} {title}"
    return era.makers[0], str(len(catalogue) + 1), name


def _nudge(rng: random.Random, colour: str, reach: float, hue: float) -> str:
    r, g, b = (c / 255 for c in hex_rgb(colour))
    h, light, sat = colorsys.rgb_to_hls(r, g, b)
    h = (h + rng.uniform(-hue, hue)) % 1.0
    light = min(0.95, max(0.06, light + rng.uniform(-reach, reach)))
    sat = min(1.0, max(0.0, sat * rng.uniform(1 - reach, 1 + reach)))
    return rgb_hex(tuple(c * 255 for c in colorsys.hls_to_rgb(h, light, sat)))


def _palette(
    rng: random.Random, materials: list[parts.Material], catalogue: list[dict[str, Any]]
) -> tuple[parts.Material, str, str, str]:
    earlier = [
        (e["palette"][0], e["palette"][1])
        for e in catalogue
        if isinstance(e.get("palette"), list)
        and len(e["palette"]) >= 2
        and _valid_colour(e["palette"][0])
        and _valid_colour(e["palette"][1])
    ]
    recent_accents = [accent for _, accent in earlier[-4:]]
    accents = list(parts.ACCENTS)
    rng.shuffle(accents)
    accents.sort(key=lambda a: sum(distance(a[1], r) < 70 for r in recent_accents))

    def fits(chassis: str, accent: str) -> float | None:
        if distance(chassis, accent) < CHASSIS_ACCENT_MIN:
            return None
        spread = min(
            (distance(chassis, c) + distance(accent, a) for c, a in earlier), default=999.0
        )
        return spread if spread >= PALETTE_SPREAD_MIN + 2 else None

    # Colours move in lightness and a little in saturation, hardly in hue: a navy-grey
    # stays navy-grey. A material that cannot keep its distance gives way to the next.
    for material in materials:
        for reach in (0.04, 0.08, 0.13, 0.19, 0.26):
            for accent_name, accent_hex in accents:
                for _ in range(10):
                    chassis = _nudge(rng, material.chassis, reach, 0.012)
                    accent = _nudge(rng, accent_hex, reach, 0.025)
                    if fits(chassis, accent) is not None:
                        return material, chassis, accent, accent_name
    raise ValueError("no palette keeps its distance from every catalogue entry")


def _faults(rng: random.Random, words: parts.Kind, upper: bool) -> list[Fault]:
    table = [
        Fault(words.heat, "heat", words.v_alarm),
        Fault(words.leak, "leak", words.w_alarm),
        Fault(words.drift, "drift", words.s_alarm),
    ]
    if rng.random() < 0.35:
        table.pop(rng.randrange(3))
    return [Fault(f.name, f.family, f.alarm if upper else mixed_case(f.alarm)) for f in table]


def mixed_case(legend: str) -> str:
    """`CO2 HIGH` as a mixed-case era prints it: `CO2 High`, never `Co2 High`."""
    return " ".join(w if w in parts.ACRONYMS else w.capitalize() for w in legend.split())


def _positions(kind: str, role: str, era: parts.Era) -> tuple[str, ...]:
    def case(word: str) -> str:
        return word.upper() if era.upper else word.capitalize()

    if role == "mode":
        return era.modes
    if role == "setpoint":
        step = 10 if kind == "thumbwheel" else 5
        return tuple(str(v) for v in range(0, 101, step))
    if role == "ack":
        return (case("ready"), case("pressed"))
    if kind in ("isolator handle", "knife switch"):
        return (case("open"), case("closed"))
    if kind == "push-pull knob":
        return (case("in"), case("out"))
    return (case("off"), case("on"))


def tagline_for(rng: random.Random, words: parts.Kind, catalogue: list[dict[str, Any]]) -> str:
    """The kind's motto, closed by the first tail the shelf does not have yet."""
    taken = {fold(e.get("tagline", "")) for e in catalogue}
    tails = list(parts.TAILS)
    rng.shuffle(tails)
    for text in (words.motto, *(f"{words.motto}, {tail}" for tail in tails)):
        if fold(f"{text}.") not in taken:
            return f"{text}."
    return f"{words.motto}, number {len(catalogue) + 1} of its line."


def _control_kinds(rng: random.Random, era: str, avoid, last: str) -> dict[str, str]:
    """One control kind per role, from those the era made; the auxiliary never
    repeats the master's kind, so the panel shows as many kinds as it can, and
    where the era offers a choice the kinds of the last machine give way."""
    chosen: dict[str, str] = {}
    for role in ("master", "mode", "setpoint", "aux", "ack"):
        options = [k for k, eras in parts.CONTROL_KINDS[role].items() if era in eras]
        options = [k for k in options if k not in chosen.values()] or options
        chosen[role] = _pick(rng, options, lambda k: avoid(k, 1.0) + 2.0 * (k in last))
    return chosen


def mode_gain(label: str, run: str) -> float:
    word = fold(label)
    if word == fold(run) or word in ("manual", "man"):
        return 1.0
    return {"boost": 1.15, "test": 0.5}.get(word, 0.0)


def design_for(catalogue: list[dict[str, Any]], seed: str, created: str | None = None) -> Design:
    """The machine least like the shelf. Raises ValueError when nothing new is left."""
    rng = rng_for(seed, catalogue)
    domain, era_key = _domain_era(rng, catalogue)
    era = parts.ERAS[era_key]
    kind, words = _kind(rng, domain, era_key, catalogue)
    recent = _recent_text(catalogue, 6)
    near = _recent_text(catalogue, 3)

    def avoid(phrase: str, weight: float = 3.0) -> float:
        return weight * (fold(phrase) in recent) + weight * (fold(phrase) in near)

    def in_era(options):
        suits = [o for o in options if era_key in o.eras]
        return suits or list(options)

    material = _pick(rng, in_era(parts.MATERIALS), lambda m: avoid(m.phrase))
    legend = _pick(rng, in_era(parts.LEGENDS), lambda leg: avoid(leg.phrase))
    lamp = _pick(rng, in_era(parts.LAMPS), lambda lamp: avoid(lamp.phrase))
    layouts = [lay for lay in parts.LAYOUTS if not lay.eras or era_key in lay.eras]
    layout = _pick(rng, layouts, lambda lay: avoid(lay.phrase, 4.0))
    maintenance = _pick(rng, list(parts.MAINTENANCE), lambda m: avoid(m, 1.0))
    kinds = _control_kinds(rng, era_key, avoid, _recent_text(catalogue, 1))
    names = {
        "master": words.master,
        "mode": words.mode,
        "setpoint": words.setpoint,
        "aux": words.aux,
        "ack": words.ack,
    }
    controls = [
        Control(names[role], kinds[role], role, _positions(kinds[role], role, era))
        for role in ("master", "aux", "mode", "setpoint", "ack")
    ]
    faults = _faults(rng, words, era.upper)
    maker, code, name = _name(rng, era, kind, catalogue)
    others = [m for m in in_era(parts.MATERIALS) if m is not material]
    others.sort(key=lambda m: avoid(m.phrase) + rng.random())
    material, chassis, accent, accent_name = _palette(rng, [material, *others], catalogue)
    dark = luminance(chassis) < 0.22
    ink = "#f1ecdf" if dark else "#1d1b18"
    plate = {
        "engraved": "#17181a" if not dark else "#e9e4d6",
        "tag": "#b08a3e",
        "enamel": "#efe9da",
        "tape": "#141414" if era_key == "1980s" else "#b3211c",
        "etched": "#c9cccf" if dark else "#24282c",
        "backlit": "#101214",
        "printed": chassis,
        "laser": chassis,
    }[legend.style]
    face = {
        "1920s": "#efe4c8", "1940s": "#ece5d2", "1950s": "#f2ede0", "1960s": "#f4f3ee",
        "1970s": "#151515", "1980s": "#1b1d1f", "1990s": "#e9ebe6", "2000s": "#e3e7ea",
        "2020s": "#0f1113", "speculative": "#141a1f",
    }[era_key]  # fmt: skip
    # An instrument face must read against the chassis it sits in.
    if distance(face, chassis) < 40:
        face = "#101010" if luminance(face) > 0.4 else "#f0ece0"
    target = (
        rng.choice((60, 70, 80))
        if kinds["setpoint"] == "thumbwheel"
        else rng.choice((60, 65, 70, 75, 80))
    )
    ratio = rng.uniform(0.45, 0.55)
    k1 = rng.uniform(0.05, 0.09)
    params = {
        "tau": round(rng.uniform(5.0, 10.0), 2),
        "k1": round(k1, 4),
        "k2": round(k1 / ratio, 4),
        "v0": 0.08,
        "v_high": 0.85,
        "v_nom_lo": 0.22,
        "v_nom_hi": 0.72,
        "w_low": 0.25,
        "w_nom": 0.5,
        "s_high": 0.2,
        "passive": 0.3,
        "heat_rate": round(rng.uniform(0.032, 0.045), 4),
        "refill": round(rng.uniform(0.05, 0.065), 4),
        "draw": round(rng.uniform(0.014, 0.02), 4),
        "leak_rate": round(rng.uniform(0.065, 0.08), 4),
        "drift_rate": round(rng.uniform(0.013, 0.02), 4),
        "grace": round(rng.uniform(20.0, 35.0), 1),
    }
    design_text = (
        f"{material.phrase.capitalize()} chassis with {legend.phrase}, {lamp.phrase} "
        f"and a {layout.phrase}, built for {domain} service {era.when}"
    )
    interaction = (
        f"Worked through a {kinds['master']}, a {kinds['aux']}, a {kinds['mode']} "
        f"and a {kinds['setpoint']} to bring the {kind} up, with faults rehearsed "
        f"from a {maintenance}"
    )
    trip = "TRIPPED" if era.upper else "Tripped"
    tagline = tagline_for(rng, words, catalogue)
    return Design(
        slug=slugify(name),
        name=name,
        kind=kind,
        domain=domain,
        era=era_key,
        words=words,
        material=material,
        accent=accent_name,
        legend=legend,
        lamp=lamp,
        layout=layout,
        maintenance=maintenance,
        maker=maker,
        code=code,
        controls=controls,
        faults=faults,
        palette=[chassis, accent, ink, plate, face],
        design=design_text,
        interaction=interaction,
        tagline=tagline,
        created=created or date.today().isoformat(),
        params=params,
        target=target,
        trip_alarm=trip,
    )


def entry(design: Design) -> dict[str, Any]:
    """The catalogue entry for a design, fields in the catalogue's order."""
    return {
        "slug": design.slug,
        "name": design.name,
        "kind": design.kind,
        "domain": design.domain,
        "era": design.era,
        "design": design.design,
        "interaction": design.interaction,
        "palette": list(design.palette),
        "controls": [control.name for control in design.controls],
        "faults": [fault.name for fault in design.faults],
        "tagline": design.tagline,
        "created": design.created,
    }
