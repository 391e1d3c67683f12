"""Drawing a design: the four product files as text, from a `Design` alone.

Pure: the same design gives byte-identical files. The panel is drawn in CSS
and inline SVG as a physical object (chassis, screws, legend plates, lamps,
dials); behaviour lives in one classic script. Nothing here reads the disk,
picks randomly or reaches the network.
"""

from __future__ import annotations

import hashlib
import html
import json
import math

from factory.designer import parts
from factory.designer.choose import Design, hex_rgb, luminance, mode_gain, rgb_hex


def esc(text: str) -> str:
    return html.escape(str(text), quote=True)


def mix(a: str, b: str, t: float) -> str:
    ra, rb = hex_rgb(a), hex_rgb(b)
    return rgb_hex(tuple(x + (y - x) * t for x, y in zip(ra, rb, strict=True)))


def shade(colour: str, amount: float) -> str:
    """Darker for negative amounts, lighter for positive (a mix toward black/white)."""
    return mix(colour, "#ffffff" if amount > 0 else "#000000", abs(amount))


def _variant(design: Design, salt: str, n: int) -> int:
    """A stable small choice per design (never random: the files must be reproducible)."""
    return int(hashlib.sha256(f"{design.slug}|{salt}".encode()).hexdigest()[:8], 16) % n


def quantities(design: Design) -> dict[str, parts.Quantity]:
    words = design.words
    return {"u": words.u, "v": words.v, "w": words.w}


def alarms(design: Design) -> list[str]:
    return [fault.alarm for fault in design.faults] + [design.trip_alarm]


def case(design: Design, text: str) -> str:
    return text.upper() if design.era_style.upper else text


# --- instruments -----------------------------------------------------------------------


def _ticks(q: parts.Quantity, count: int = 5) -> list[str]:
    step = (q.hi - q.lo) / count
    return [
        f"{q.lo + step * i:g}" if step >= 1 else f"{q.lo + step * i:.1f}" for i in range(count + 1)
    ]


def _polar(cx: float, cy: float, r: float, deg: float) -> tuple[float, float]:
    rad = math.radians(deg - 90)
    return cx + r * math.cos(rad), cy + r * math.sin(rad)


def _arc(cx: float, cy: float, r: float, a0: float, a1: float) -> str:
    x0, y0 = _polar(cx, cy, r, a0)
    x1, y1 = _polar(cx, cy, r, a1)
    large = 1 if a1 - a0 > 180 else 0
    return f"M{x0:.1f} {y0:.1f} A{r} {r} 0 {large} 1 {x1:.1f} {y1:.1f}"


def dial(design: Design, key: str, sweep: tuple[float, float], box: tuple[int, int], pivot) -> str:
    """A pointer instrument: round (270 degrees) or fan (a shallow arc)."""
    q = quantities(design)[key]
    a0, a1 = sweep
    w, h = box
    cx, cy, r = pivot
    out = [f'<svg class="dial" viewBox="0 0 {w} {h}" role="img" aria-label="{esc(q.label)} gauge">']
    if a1 - a0 > 200:
        out.append(f'<circle class="bezel" cx="{cx}" cy="{cy}" r="{r + 12}"/>')
        out.append(f'<circle class="face" cx="{cx}" cy="{cy}" r="{r + 4}"/>')
    else:
        out.append(f'<rect class="bezel" x="2" y="2" width="{w - 4}" height="{h - 4}" rx="3"/>')
        out.append(f'<rect class="face" x="9" y="9" width="{w - 18}" height="{h - 18}" rx="1"/>')
    if key in ("v", "w"):
        p = design.params
        lo, hi = (p["v_high"], 1.0) if key == "v" else (0.0, p["w_low"])
        out.append(
            f'<path class="zone" d="{_arc(cx, cy, r - 6, a0 + (a1 - a0) * lo, a0 + (a1 - a0) * hi)}"/>'
        )
    labels = _ticks(q)
    for i in range(26):
        angle = a0 + (a1 - a0) * i / 25
        major = i % 5 == 0
        x0, y0 = _polar(cx, cy, r - (14 if major else 8), angle)
        x1, y1 = _polar(cx, cy, r, angle)
        out.append(
            f'<line class="{"tick major" if major else "tick"}" x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}"/>'
        )
        if major:
            tx, ty = _polar(cx, cy, r - 26, angle)
            out.append(
                f'<text class="num" x="{tx:.1f}" y="{ty + 4:.1f}">{esc(labels[i // 5])}</text>'
            )
    # The title sits on a plate under the dial, never on the face: only the short unit
    # is drawn inside, in the quiet space below the pivot (round) or above it (fan).
    unit_y = cy + r * 0.42 if a1 - a0 > 200 else cy - r * 0.34
    out.append(f'<text class="unit" x="{cx}" y="{unit_y:.1f}">{esc(q.unit)}</text>')
    out.append(
        f'<g class="needle" data-needle="{key}" data-a0="{a0}" data-a1="{a1}" '
        f'data-cx="{cx}" data-cy="{cy}" transform="rotate({a0} {cx} {cy})">'
        f'<path d="M{cx - 3} {cy + 14} L{cx} {cy - r + 6} L{cx + 3} {cy + 14} Z"/></g>'
    )
    out.append(f'<circle class="hub" cx="{cx}" cy="{cy}" r="7"/>')
    out.append("</svg>")
    return meter(design, q, "".join(out))


def meter(design: Design, q: parts.Quantity, svg: str) -> str:
    """An instrument with its title on a legend plate beneath it."""
    return (
        f'<figure class="meter">{svg}<figcaption class="legend">'
        f"{esc(case(design, q.label))}</figcaption></figure>"
    )


def edgewise(design: Design, key: str) -> str:
    q = quantities(design)[key]
    out = [
        f'<svg class="edgewise" viewBox="0 0 90 230" role="img" aria-label="{esc(q.label)} meter">'
    ]
    out.append('<rect class="bezel" x="2" y="2" width="86" height="226" rx="2"/>')
    out.append('<rect class="face" x="10" y="10" width="70" height="192"/>')
    labels = _ticks(q)
    for i in range(21):
        y = 190 - i * 8.5
        major = i % 4 == 0
        out.append(
            f'<line class="{"tick major" if major else "tick"}" x1="{40 if major else 46}" y1="{y:.1f}" x2="56" y2="{y:.1f}"/>'
        )
        if major:
            out.append(
                f'<text class="num" x="28" y="{y + 3:.1f}">{esc(labels[i // 4] if i // 4 < len(labels) else "")}</text>'
            )
    if key in ("v", "w"):
        p = design.params
        lo, hi = (p["v_high"], 1.0) if key == "v" else (0.0, p["w_low"])
        out.append(
            f'<rect class="zone-fill" x="56" y="{190 - hi * 170:.1f}" width="6" height="{(hi - lo) * 170:.1f}"/>'
        )
    out.append(
        '<g class="pointer" data-slide="'
        + key
        + '" data-y0="190" data-y1="20" transform="translate(0 190)">'
        '<path d="M58 0 L76 -6 L76 6 Z"/></g>'
    )
    out.append(f'<text class="unit dim" x="45" y="218">{esc(q.unit)}</text>')
    out.append("</svg>")
    return meter(design, q, "".join(out))


def column(design: Design, key: str) -> str:
    q = quantities(design)[key]
    out = [
        f'<svg class="column" viewBox="0 0 90 230" role="img" aria-label="{esc(q.label)} column">'
    ]
    out.append('<rect class="bezel" x="2" y="2" width="86" height="226" rx="2"/>')
    out.append('<rect class="tube" x="34" y="16" width="22" height="180" rx="11"/>')
    out.append(
        f'<rect class="fill" data-fill="{key}" x="37" y="19" width="16" height="174" rx="8" '
        'transform="translate(0 174) scale(1 0)" style="transform-box: view-box"/>'
    )
    for i, label in enumerate(_ticks(q, 4)):
        y = 190 - i * 43
        out.append(f'<line class="tick major" x1="58" y1="{y}" x2="66" y2="{y}"/>')
        out.append(f'<text class="num left" x="68" y="{y + 3}">{esc(label)}</text>')
    out.append(f'<text class="unit dim" x="45" y="218">{esc(q.unit)}</text>')
    out.append("</svg>")
    return meter(design, q, "".join(out))


def bargraph(design: Design, key: str) -> str:
    q = quantities(design)[key]
    out = [
        f'<svg class="bargraph" viewBox="0 0 300 90" role="img" aria-label="{esc(q.label)} bar graph">'
    ]
    out.append('<rect class="bezel" x="2" y="2" width="296" height="86" rx="2"/>')
    out.append('<rect class="face dark" x="10" y="10" width="280" height="48"/>')
    out.append(f'<g data-bargraph="{key}">')
    for i in range(24):
        tone = "hi" if (key == "v" and i >= 20) or (key == "w" and i < 6) else "lo"
        out.append(
            f'<rect class="seg {tone}" x="{16 + i * 11.2:.1f}" y="18" width="8" height="32"/>'
        )
    out.append("</g>")
    out.append(f'<text class="dlabel small left" x="14" y="76">{esc(case(design, q.label))}</text>')
    out.append(f'<text class="unit right" x="286" y="76">{esc(q.unit)}</text>')
    out.append("</svg>")
    return "".join(out)


def chart(design: Design, style: str = "recorder") -> str:
    """A moving trace of two quantities: a paper strip chart, a CRT scope or an HMI trend."""
    v = design.words.v
    u = design.words.u
    size = {"recorder": (420, 300), "scope": (440, 300), "trend": (620, 400)}[style]
    return (
        f'<figure class="{style}"><div class="paper">'
        f'<canvas data-chart="{style}" width="{size[0]}" height="{size[1]}" aria-label="{style} of '
        f'{esc(v.label.lower())} and {esc(u.label.lower())}"></canvas></div>'
        f'<figcaption><span class="pen pen-v"></span>{esc(case(design, v.label))} '
        f'<span class="pen pen-u"></span>{esc(case(design, u.label))}</figcaption></figure>'
    )


def _label(
    x: float, y: float, text: str, room: float, anchor: str = "middle", small: bool = False
) -> str:
    """A schematic label that never runs past `room` px: a long one is squeezed to fit
    (the width is estimated from the bold capitals at 10px with .1em tracking)."""
    size = 7.5 if small else 10
    width = len(text) * size * 0.78
    fit = f' textLength="{room:.0f}" lengthAdjust="spacingAndGlyphs"' if width > room else ""
    cls = "mlabel small" if small else "mlabel"
    return f'<text class="{cls}" x="{x}" y="{y}" text-anchor="{anchor}"{fit}>{esc(text)}</text>'


# Chevrons painted on the pipes, so the schematic shows which way things flow even cold.
FLOW_ARROWS = "".join(
    f'<path class="arrow" d="M-5 -6 L5 0 L-5 6 Z" transform="translate({x} {y}) rotate({a})"/>'
    for x, y, a in (
        (130, 170, 0),
        (200, 150, -90),
        (250, 70, 0),
        (420, 70, 0),
        (460, 125, 90),
        (395, 170, 180),
    )
)


def mimic(design: Design) -> str:
    f = design.words
    aux = design.controls[1].name
    return f"""<svg class="mimic" viewBox="0 0 520 236" role="img" aria-label="mimic diagram">
<rect class="bezel" x="2" y="2" width="516" height="232" rx="2"/>
<defs><pattern id="tiles" width="24" height="24" patternUnits="userSpaceOnUse"><rect width="24" height="24" class="tile"/><path class="tile-joint" d="M0 .5 H24 M.5 0 V24"/></pattern></defs>
<rect class="board" x="10" y="10" width="500" height="216"/>
<path class="pipe" d="M60 170 H200 V70 H300"/>
<path class="pipe flowline" data-flow="aux" d="M60 170 H200 V70 H300"/>
<path class="pipe" d="M380 70 H460 V170 H330"/>
<path class="pipe flowline" data-flow="run" d="M380 70 H460 V170 H330"/>
{FLOW_ARROWS}
<rect class="vessel" x="30" y="100" width="60" height="96"/>
<rect class="fill" data-fill="w" x="33" y="103" width="54" height="90" transform="translate(0 90) scale(1 0)" style="transform-box: view-box"/>
<circle class="pump" cx="200" cy="120" r="22"/>
<g class="impeller" data-spin="aux" transform="rotate(0 200 120)"><path d="M200 102 L206 120 L200 138 L194 120 Z M182 120 L200 114 L218 120 L200 126 Z"/></g>
<rect class="unitbox" x="300" y="40" width="80" height="60"/>
<rect class="glow" data-glow="u" x="306" y="46" width="68" height="48" opacity="0"/>
<path class="valve" d="M320 160 L340 170 L320 180 Z M340 170 L360 160 L360 180 Z"/>
{mimic_lamps(design)}
{_label(20, 92, case(design, f.w.label), 160, "start")}
{_label(200, 158, case(design, aux), 150)}
{_label(340, 32, case(design, design.kind), 300)}
{_label(260, 200, case(design, f.v.label), 250)}
</svg>"""


def mimic_lamps(design: Design) -> str:
    """Alarm lamps drawn where their cause is on the schematic."""
    spots = {"heat": (340, 118), "leak": (60, 212), "drift": (440, 118)}
    out = []
    for fault in design.faults:
        x, y = spots[fault.family]
        out.append(
            f'<g class="mlamp" data-alarm="{esc(fault.alarm)}"><circle cx="{x}" cy="{y - 8}" r="7"/>'
            f"{_label(x, y + 10, fault.alarm, 95, small=True)}</g>"
        )
    return "".join(out)


def readouts(design: Design) -> str:
    style = design.era_style.readout
    items = []
    for key, q in quantities(design).items():
        items.append(
            f'<div class="readout r-{style}"><output data-readout="{key}">0</output>'
            f'<span class="rlabel">{esc(case(design, q.label))} <em>{esc(q.unit)}</em></span></div>'
        )
    return '<div class="readouts">' + "".join(items) + "</div>"


CENTREPIECES = ("chart", "scope", "trend", "mimic")


def centrepiece(design: Design) -> str:
    for slot in design.layout.instruments:
        if slot == "mimic":
            return mimic(design)
        if slot in CENTREPIECES:
            return chart(design, "recorder" if slot == "chart" else slot)
    return ""


def instruments(design: Design) -> str:
    slots = [s for s in design.layout.instruments if s not in CENTREPIECES]
    keys = ["v", "u", "w"]
    turn = _variant(design, "keys", 3)
    keys = keys[turn:] + keys[:turn]
    out = []
    for slot, key in zip(slots, keys, strict=False):
        if slot == "gauge":
            out.append(dial(design, key, (-135, 135), (200, 200), (100, 100, 78)))
        elif slot == "fan":
            out.append(dial(design, key, (-50, 50), (240, 150), (120, 138, 112)))
        elif slot == "edgewise":
            out.append(edgewise(design, key))
        elif slot == "column":
            out.append(column(design, key))
        elif slot == "bargraph":
            out.append(bargraph(design, key))
    return "".join(out)


# --- controls --------------------------------------------------------------------------


def control(design: Design, ctl) -> str:
    n = len(ctl.positions)
    kind = ctl.kind.replace(" ", "-")
    role = {"ack": "button"}.get(ctl.role, "switch" if n == 2 else "slider")
    aria = (
        f'aria-valuemin="0" aria-valuemax="{n - 1}" aria-valuenow="0" aria-valuetext="{esc(ctl.positions[0])}"'
        if role == "slider"
        else ('aria-checked="false"' if role == "switch" else 'aria-pressed="false"')
    )
    attrs = (
        f'class="ctl k-{kind}" data-control="{esc(ctl.name)}" data-role="{ctl.role}" '
        f'data-positions="{esc("|".join(ctl.positions))}" data-value="{esc(ctl.positions[0])}" '
        f'role="{role}" tabindex="0" aria-label="{esc(ctl.name)}" {aria} style="--pos:0" '
        f'title="{esc(function_text(design, ctl))}"'
    )
    inner = {
        "key-switch": '<span class="ring"></span><span class="key"><i></i></span>',
        "guarded-toggle": '<span class="base"></span><span class="bat"></span><span class="guard"></span>',
        "isolator-handle": '<span class="ring"></span><span class="handle"></span>',
        "knife-switch": '<span class="slate"></span><span class="jaw"></span><span class="pivot"></span><span class="blade"><i></i></span>',
        "rotary-selector": '<span class="skirt"></span><span class="knob"><i></i></span>',
        "piano-keys": "".join(
            f'<span class="pkey" data-i="{i}">{esc(p)}</span>' for i, p in enumerate(ctl.positions)
        ),
        "slider": '<span class="track"></span><span class="thumb"></span>',
        "lever": '<span class="slot"></span><span class="grip"></span>',
        "thumbwheel": '<span class="wheel"></span><span class="window"><b data-show></b></span>',
        "vernier-knob": '<span class="scale"></span><span class="knob"><i></i></span>',
        "bat-toggle": '<span class="nut"></span><span class="bat"></span>',
        "push-pull-knob": '<span class="collar"></span><span class="stem"></span><span class="cap"></span>',
        "rocker-switch": '<span class="bezel"></span><span class="rocker"><b>I</b><b>O</b></span>',
        "push-button": '<span class="collar"></span><span class="cap"></span>',
    }[kind]
    marks = ""
    if kind == "rotary-selector":
        spread = 90 if n <= 3 else 120
        attrs = attrs.replace(
            'style="--pos:0"', f'style="--pos:0;--a0:{-spread / 2}deg;--sweep:{spread}deg"'
        )
        for i, label in enumerate(ctl.positions):
            angle = -spread / 2 + spread * i / max(1, n - 1)
            x, y = _polar(50, 50, 47, angle)
            inner += f'<span class="mark" style="left:{x:.0f}%;top:{y:.0f}%">{esc(label)}</span>'
    elif kind in ("slider", "lever", "vernier-knob"):
        ends = (ctl.positions[0], ctl.positions[n // 2], ctl.positions[-1])
        marks = "".join(f'<span class="mark m{i}">{esc(t)}</span>' for i, t in enumerate(ends))
    elif kind not in ("piano-keys", "thumbwheel") and n == 2:
        marks = (
            f'<span class="mark m0">{esc(ctl.positions[0])}</span>'
            f'<span class="mark m2">{esc(ctl.positions[1])}</span>'
        )
    alt = (
        f'<span class="alt" lang="x-unknown">{glyphs(ctl.name)}</span>'
        if design.era == "speculative"
        else ""
    )
    return (
        f'<div class="station s-{kind}"><span class="legend">{esc(case(design, ctl.name))}</span>{alt}'
        f'<div {attrs}>{inner}</div><div class="marks">{marks}</div></div>'
    )


# Tifinagh signs, which the bundled DejaVu Sans draws: read as a script from elsewhere.
RUNES = "".join(chr(c) for c in range(0x2D30, 0x2D66))


def glyphs(name: str) -> str:
    """A secondary legend in a script nobody here reads: one sign per word-initial and
    consonant, stable per name, at most six signs."""
    signs = [
        RUNES[(ord(c) * 7 + i) % len(RUNES)]
        for i, c in enumerate(name)
        if c.isalpha() and c not in "aeiou"
    ]
    return "".join(signs[:6])


def annunciator(design: Design) -> str:
    tiles = [
        f'<div class="lamp" data-alarm="{esc(name)}"><i></i><span>{esc(name)}</span></div>'
        for name in alarms(design)
    ]
    status = [
        f'<div class="lamp status" data-lamp="{key}"><i></i><span>{esc(case(design, label))}</span></div>'
        for key, label in (
            ("mains", "Mains on"),
            ("power", "Power"),
            ("run", "Running"),
            ("nominal", "Nominal"),
        )
    ]
    return "".join(status + tiles)


# Parts of the case that only some layouts have: a carrying handle and feet, hinges, rails.
DECOR = {
    "bench": '<span class="handle-bar" aria-hidden="true"></span><span class="foot fl" aria-hidden="true"></span><span class="foot fr" aria-hidden="true"></span>',
    "cabinet": '<span class="hinge h1" aria-hidden="true"></span><span class="hinge h2" aria-hidden="true"></span><span class="latch" aria-hidden="true"></span>',
    "rack": '<span class="rail rl" aria-hidden="true"></span><span class="rail rr" aria-hidden="true"></span>',
    "desk": '<span class="desk-lip" aria-hidden="true"></span>',
}


def index_html(design: Design) -> str:
    d = design
    screws = "".join(f'<span class="screw {p}"></span>' for p in ("tl", "tr", "bl", "br"))
    controls = "".join(control(d, ctl) for ctl in d.controls)
    tests = "".join(
        f'<button type="button" class="test" data-fault="{esc(f.name)}">'
        f"<i></i>{esc(case(d, f.name))}</button>"
        for f in d.faults
    )
    serial = hashlib.sha256(d.slug.encode()).hexdigest()[:6].upper()
    piece = centrepiece(d)
    centre = f'<section class="bay centre" aria-label="centre">{piece}</section>\n' if piece else ""
    decor = DECOR.get(d.layout.key, "")
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(d.name)}</title>
<link rel="stylesheet" href="machine.css">
</head>
<body class="panel-page era-{d.era} tex-{d.material.texture} legend-{d.legend.style} lamp-{d.lamp.style} layout-{d.layout.key} readout-{d.era_style.readout}">
<main class="chassis" aria-label="{esc(d.name)} control panel">
{screws}{decor}
<header class="bay nameplate"><div class="badge"><span class="maker">{esc(d.maker)}</span><h1>{esc(case(d, d.kind))}</h1><span class="model">{esc(d.code)} &middot; No. {serial}</span></div></header>
<nav class="bay doors"><a class="door" href="../../">{esc(case(d, "Catalogue"))}</a><button type="button" class="door" data-action="manual">{esc(case(d, "Manual"))}</button></nav>
{centre}<section class="bay instruments" aria-label="instruments">{instruments(d)}</section>
<section class="bay annunciator" aria-label="annunciator">{annunciator(d)}{readouts(d)}</section>
<section class="bay controls" aria-label="controls">{controls}</section>
<section class="bay maintenance" aria-label="maintenance"><span class="legend">{esc(case(d, "Test / maintenance"))}</span>{tests}<span class="clock">T+<output data-clock>0</output> s</span></section>
</main>
<dialog data-manual aria-label="Operating manual">
<div class="dialog-bar"><span>{esc(d.name)} &mdash; {esc(case(d, "operating manual"))}</span><button type="button" data-action="close-manual">{esc(case(d, "Close"))}</button></div>
<iframe src="manual.html" title="Operating manual"></iframe>
</dialog>
<script src="machine.js"></script>
</body>
</html>
"""


# --- behaviour -------------------------------------------------------------------------


def config(design: Design) -> dict:
    qs = quantities(design)
    run = design.era_style.run
    return {
        "name": design.name,
        "faults": [f.name for f in design.faults],
        "families": {f.name: f.family for f in design.faults},
        "alarm": {f.family: f.alarm for f in design.faults} | {"trip": design.trip_alarm},
        "q": {k: {"key": q.key, "lo": q.lo, "hi": q.hi} for k, q in qs.items()},
        "p": design.params,
        "modes": list(design.era_style.modes),
        "gain": [mode_gain(m, run) for m in design.era_style.modes],
        "run": list(design.era_style.modes).index(run),
        "roles": {c.role: c.name for c in design.controls},
        "engine": design.words.engine,
        "extra": parts.ENGINES[design.words.engine].extra,
        "pre": previous_run(design),
    }


def previous_run(design: Design, points: int = 280) -> list[list[float]]:
    """The last run's trace, already on the chart paper when the panel is opened:
    cold, a start-up to the target, a change of demand, a shutdown back to cold.
    Drawn from the design alone (deterministic) and only ever drawn, never simulated."""
    p = design.params
    target = design.target / 100
    wobble = _variant(design, "wobble", 997) / 997 * math.tau
    u = v = 0.0
    out = []
    for i in range(points):
        if i < 24 or i > points - 46:
            demand = 0.0
        elif i < 150:
            demand = target
        else:
            demand = target * 0.8
        u += (demand - u) / (p["tau"] * 1.2)
        v += (p["v0"] + p["k1"] / p["k2"] * u - v) / 14
        ripple = 0.012 * math.sin(i / 5.3 + wobble) + 0.006 * math.sin(i / 1.7 + 2 * wobble)
        out.append([round(max(0.0, u + ripple * u), 3), round(max(0.0, v + ripple), 3)])
    return out


JS = r"""(function () {
  "use strict";
  var C = __CONFIG__;
  var P = C.p;
  var S = null;
  var history = [];

  function cold() {
    return { t: 0, u: 0, v: P.v0, w: 1, s: 0, power: false, mode: 0, set: 0, aux: false,
      faults: {}, alarmFor: 0, tripped: false, acked: false, spin: 0, x: 0, damaged: false };
  }

  function clamp(x, lo, hi) { return x < lo ? lo : x > hi ? hi : x; }

  function rawAlarms() {
    var a = [];
    if (C.alarm.heat && S.v > P.v_high) a.push(C.alarm.heat);
    if (C.alarm.leak && S.w < P.w_low) a.push(C.alarm.leak);
    if (C.alarm.drift && S.s > P.s_high) a.push(C.alarm.drift);
    return a;
  }

  function alarms() {
    var a = rawAlarms();
    if (S.tripped) a.push(C.alarm.trip);
    return a;
  }

  // One small ODE system: output u follows demand; v is heated by u and carried
  // off by the auxiliary; reserve w is drawn by u and topped up by the auxiliary;
  // s is a redundant sensor's disagreement. Faults attack v, w and s.
  function step(dt) {
    var f = S.faults;
    var live = S.power && !S.tripped;
    var demand = live ? C.gain[S.mode] * S.set / 100 : 0;
    var cool = live && S.aux ? 1 : P.passive;
    if (S.tripped && C.engine === "thermal") cool = 1;  // emergency cooling after a scram
    if (f.heat) cool *= 0.05;
    var tau = P.tau, heat = P.k1 * S.u, lose = P.k2 * (S.v - P.v0) * cool;
    var refill = live && S.aux ? P.refill * (1 - S.w) : 0, draw = P.draw * S.u;
    // Each engine's own coupling; at the nominal point every one settles in the band.
    switch (C.engine) {
      case "thermal":
        S.x += (S.v - S.x) / 15 * dt;
        lose *= 1.15 - 0.3 * S.x;
        break;
      case "hydraulic":
      case "electrical":
        heat = 1.6 * P.k1 * S.u * S.u;
        S.x = clamp(S.v - P.v_high + 0.1, 0, 1);
        if (C.engine === "hydraulic") refill += 0.2 * S.x;
        break;
      case "rotating":
        tau = P.tau * (1.5 + 0.5 * S.u);
        heat = 1.3 * P.k1 * Math.pow(S.u, 1.5) * (S.damaged ? 2.2 : 1);
        S.x += (S.v * (S.damaged ? 1.6 : 1) - S.x) / 4 * dt;
        break;
      case "chemical":
        var over = Math.max(0, S.v - 0.55);
        heat = P.k1 * S.u * (1 + 12 * over * over);
        S.x = clamp(S.x + 0.004 * S.u * dt, 0, 1);
        break;
      case "signal":
        S.x += (Math.max(0, 0.5 - S.w) * 2 * S.u - S.x) / 3 * dt;
        heat = P.k1 * (S.u + 0.8 * S.x);
        break;
      case "lifesupport":
        heat = S.power ? 0.7 * P.k1 : 0;
        lose = P.k2 * (S.v - P.v0) * cool * (0.4 + S.u);
        S.x = clamp(S.x + (0.003 * S.u - 0.001 * S.x) * dt, 0, 1);
        if (S.tripped) draw += 0.012;  // the emergency oxygen bleed
        break;
      case "cryo":
        heat = P.k1 * S.u / (0.5 + 0.5 * S.w);
        S.x += (0.3 + 0.5 * (1 - S.w) - S.x) / 10 * dt;
        break;
      case "motion":
        tau = P.tau * 1.8;
        var effort = Math.max(0, demand - S.u) * 2 + S.u;
        S.x = clamp(effort, 0, 1.5);
        heat = P.k1 * effort;
        if (S.tripped) { tau = 2; demand = 0; }  // the penalty brake
        break;
    }
    if (S.tripped && C.engine === "electrical") draw += 0.01;  // the battery carries the house load
    var du = (demand - S.u) / tau;
    var dv = heat - lose + (f.heat ? P.heat_rate : 0);
    var dw = refill - draw - (f.leak ? P.leak_rate : 0);
    var ds = f.drift ? P.drift_rate : -0.2 * S.s;
    S.u = clamp(S.u + du * dt, 0, 1.3);
    S.v = clamp(S.v + dv * dt, 0, 1.2);
    S.w = clamp(S.w + dw * dt, 0, 1);
    S.s = clamp(S.s + ds * dt, 0, 1);
    S.x = clamp(S.x, 0, 1.5);
    S.spin = (S.spin + (live && S.aux ? 360 : 0) * dt) % 360;
    S.t += dt;
    // An alarm left standing is not harmless: after the grace time the plant trips,
    // and each engine pays its own price (see consequence() below).
    if (rawAlarms().length) {
      S.alarmFor += dt;
      if (S.alarmFor > P.grace && !S.tripped) { S.tripped = true; S.acked = false; consequence(); }
    } else {
      S.alarmFor = 0;
    }
  }

  function consequence() {
    if (C.engine === "hydraulic") { S.v = Math.min(S.v, 0.3); S.w = Math.max(0, S.w - 0.15); }
    if (C.engine === "rotating") S.damaged = true;
    if (C.engine === "chemical") { S.v = Math.min(S.v, 0.4); S.w = Math.max(0, S.w - 0.3); }
    if (C.engine === "signal") S.x = 0;
    if (C.engine === "motion") S.w = Math.max(0, S.w - 0.2);
  }

  function value(k) {
    var q = C.q[k];
    return q.lo + S[k] * (q.hi - q.lo);
  }

  function nominal() {
    return S.power && !S.tripped && S.aux && S.mode === C.run &&
      Math.abs(S.u - S.set / 100) < 0.03 && S.v > P.v_nom_lo && S.v < P.v_nom_hi &&
      S.w > P.w_nom && alarms().length === 0;
  }

  function round(x, d) { var m = Math.pow(10, d); return Math.round(x * m) / m; }

  function state() {
    var out = {
      time: round(S.t, 2), power: S.power, mode: C.modes[S.mode], setpoint: S.set, aux: S.aux,
      tripped: S.tripped, acknowledged: S.acked, sensor_disagreement: round(S.s, 4),
      faults: Object.keys(S.faults), alarms: alarms(), nominal: nominal()
    };
    ["u", "v", "w"].forEach(function (k) { out[C.q[k].key] = round(value(k), 3); });
    out[C.extra] = round(S.x, 4);
    if (S.damaged) out.damaged = true;
    return out;
  }

  function tick(seconds) {
    var s = Number(seconds);
    if (!(s > 0)) { draw(); return state(); }
    s = Math.min(s, 3600);
    var n = Math.ceil(s / 0.05);
    var dt = s / n;
    for (var i = 0; i < n; i++) {
      step(dt);
      if (Math.floor(S.t * 2) !== Math.floor((S.t - dt) * 2)) {
        history.push([S.u, S.v, 0]);
        if (history.length > 280) history.shift();
      }
    }
    draw();
    return state();
  }

  function inject(name) {
    var family = C.families[name];
    if (!family) return false;
    S.faults[family] = true;
    return true;
  }

  function clearFault(name) {
    delete S.faults[C.families[name]];
  }

  function acknowledge() {
    S.acked = true;
    if (S.tripped && rawAlarms().length === 0) { S.tripped = false; S.alarmFor = 0; }
  }

  // --- the panel -----------------------------------------------------------------
  var controls = Array.prototype.slice.call(document.querySelectorAll("[data-control]"));

  function positions(el) { return el.getAttribute("data-positions").split("|"); }
  function index(el) { return positions(el).indexOf(el.getAttribute("data-value")); }

  function apply(el, i) {
    var pos = positions(el);
    i = clamp(i, 0, pos.length - 1);
    var role = el.getAttribute("data-role");
    if (role === "ack") {
      acknowledge();
      el.classList.add("pressed");
      el.setAttribute("aria-pressed", "true");
      setTimeout(function () { el.classList.remove("pressed"); el.setAttribute("aria-pressed", "false"); }, 180);
      draw();
      return;
    }
    el.setAttribute("data-value", pos[i]);
    el.style.setProperty("--pos", pos.length > 1 ? String(i / (pos.length - 1)) : "0");
    if (el.getAttribute("role") === "switch") el.setAttribute("aria-checked", i ? "true" : "false");
    else { el.setAttribute("aria-valuenow", String(i)); el.setAttribute("aria-valuetext", pos[i]); }
    Array.prototype.forEach.call(el.querySelectorAll(".pkey"), function (k) {
      k.classList.toggle("down", Number(k.getAttribute("data-i")) === i);
    });
    var show = el.querySelector("[data-show]");
    if (show) show.textContent = pos[i];
    if (role === "master") S.power = i === 1;
    if (role === "aux") S.aux = i === 1;
    if (role === "mode") S.mode = i;
    if (role === "setpoint") S.set = Number(pos[i]);
    draw();
  }

  function fromPointer(el, ev) {
    var r = el.getBoundingClientRect();
    var n = positions(el).length;
    var kind = el.className;
    var f;
    if (kind.indexOf("k-lever") >= 0) f = 1 - (ev.clientY - r.top) / r.height;
    else if (kind.indexOf("k-vernier") >= 0) {
      var a = Math.atan2(ev.clientX - (r.left + r.width / 2), (r.top + r.height / 2) - ev.clientY);
      f = (a * 180 / Math.PI + 135) / 270;
    } else f = (ev.clientX - r.left) / r.width;
    return Math.round(clamp(f, 0, 1) * (n - 1));
  }

  controls.forEach(function (el) {
    var kind = el.className;
    var continuous = /k-(slider|lever|vernier)/.test(kind);
    var dragging = false;
    el.addEventListener("pointerdown", function (ev) {
      ev.preventDefault();
      el.focus();
      var n = positions(el).length;
      if (continuous) {
        dragging = true;
        if (el.setPointerCapture) el.setPointerCapture(ev.pointerId);
        apply(el, fromPointer(el, ev));
      } else if (kind.indexOf("k-piano") >= 0) {
        var key = ev.target.closest ? ev.target.closest(".pkey") : null;
        if (key) apply(el, Number(key.getAttribute("data-i")));
      } else if (kind.indexOf("k-thumbwheel") >= 0) {
        var r = el.getBoundingClientRect();
        apply(el, index(el) + (ev.clientY < r.top + r.height / 2 ? 1 : -1));
      } else {
        apply(el, (index(el) + 1) % n);
      }
    });
    el.addEventListener("pointermove", function (ev) { if (dragging) apply(el, fromPointer(el, ev)); });
    el.addEventListener("pointerup", function () { dragging = false; });
    el.addEventListener("pointercancel", function () { dragging = false; });
    el.addEventListener("keydown", function (ev) {
      var i = index(el);
      var n = positions(el).length;
      var next = null;
      if (ev.key === "ArrowUp" || ev.key === "ArrowRight") next = i + 1;
      else if (ev.key === "ArrowDown" || ev.key === "ArrowLeft") next = i - 1;
      else if (ev.key === "Home") next = 0;
      else if (ev.key === "End") next = n - 1;
      else if (ev.key === "Enter" || ev.key === " ") next = (i + 1) % n;
      if (next === null) return;
      ev.preventDefault();
      apply(el, next);
    });
  });

  Array.prototype.forEach.call(document.querySelectorAll("[data-fault]"), function (btn) {
    btn.addEventListener("click", function () {
      var name = btn.getAttribute("data-fault");
      if (S.faults[C.families[name]]) clearFault(name); else inject(name);
      draw();
    });
  });

  var dialog = document.querySelector("dialog[data-manual]");
  var opener = document.querySelector('[data-action="manual"]');
  var closer = document.querySelector('[data-action="close-manual"]');
  if (opener && dialog) opener.addEventListener("click", function () { if (!dialog.open) dialog.showModal(); });
  if (closer && dialog) closer.addEventListener("click", function () { dialog.close(); });

  function all(sel) { return Array.prototype.slice.call(document.querySelectorAll(sel)); }
  var needles = all("[data-needle]"), slides = all("[data-slide]"), fills = all("[data-fill]");
  var bars = all("[data-bargraph]"), outs = all("[data-readout]"), lamps = all("[data-alarm]");
  var status = all("[data-lamp]"), flows = all("[data-flow]"), spins = all("[data-spin]");
  var glows = all("[data-glow]"), tests = all("[data-fault]");
  var clock = document.querySelector("[data-clock]");
  var canvas = document.querySelector("canvas[data-chart]");
  var pens = null;

  function level(k) { return clamp(S[k], 0, 1); }

  function draw() {
    var on = Math.floor(S.t * 2) % 2 === 0;
    needles.forEach(function (g) {
      var a0 = Number(g.getAttribute("data-a0")), a1 = Number(g.getAttribute("data-a1"));
      var a = a0 + (a1 - a0) * level(g.getAttribute("data-needle"));
      g.setAttribute("transform", "rotate(" + a.toFixed(2) + " " + g.getAttribute("data-cx") + " " + g.getAttribute("data-cy") + ")");
    });
    slides.forEach(function (g) {
      var y0 = Number(g.getAttribute("data-y0")), y1 = Number(g.getAttribute("data-y1"));
      g.setAttribute("transform", "translate(0 " + (y0 + (y1 - y0) * level(g.getAttribute("data-slide"))).toFixed(1) + ")");
    });
    fills.forEach(function (r) {
      var h = Number(r.getAttribute("height")), y = Number(r.getAttribute("y")), f = level(r.getAttribute("data-fill"));
      r.setAttribute("transform", "translate(0 " + ((y + h) * (1 - f)).toFixed(1) + ") scale(1 " + f.toFixed(3) + ")");
    });
    bars.forEach(function (g) {
      var segs = g.querySelectorAll(".seg"), lit = Math.round(level(g.getAttribute("data-bargraph")) * segs.length);
      for (var i = 0; i < segs.length; i++) segs[i].classList.toggle("lit", i < lit);
    });
    outs.forEach(function (o) {
      var k = o.getAttribute("data-readout"), q = C.q[k], span = q.hi - q.lo;
      o.textContent = value(k).toFixed(span >= 100 ? 0 : span >= 10 ? 1 : 2);
    });
    var active = alarms();
    lamps.forEach(function (l) {
      var lit = active.indexOf(l.getAttribute("data-alarm")) >= 0;
      l.classList.toggle("lit", lit && (S.acked || on));
      l.classList.toggle("standing", lit);
    });
    var flags = { mains: true, power: S.power && !S.tripped, run: S.power && !S.tripped && C.gain[S.mode] > 0, nominal: nominal() };
    status.forEach(function (l) { l.classList.toggle("lit", !!flags[l.getAttribute("data-lamp")]); });
    flows.forEach(function (p) {
      var k = p.getAttribute("data-flow");
      p.classList.toggle("flowing", k === "aux" ? S.aux && flags.power : S.u > 0.05);
    });
    spins.forEach(function (g) { g.setAttribute("transform", "rotate(" + S.spin.toFixed(1) + " 200 120)"); });
    glows.forEach(function (g) { g.setAttribute("opacity", level("u").toFixed(2)); });
    tests.forEach(function (b) { b.classList.toggle("armed", !!S.faults[C.families[b.getAttribute("data-fault")]]); });
    if (clock) clock.textContent = Math.floor(S.t);
    if (canvas) plot();
  }

  function plot() {
    var ctx = canvas.getContext("2d");
    if (!ctx) return;
    if (!pens) {
      var cs = getComputedStyle(canvas);
      pens = { v: cs.getPropertyValue("--pen-v") || "#b22", u: cs.getPropertyValue("--pen-u") || "#236", grid: cs.getPropertyValue("--grid") || "#bbb" };
    }
    var w = canvas.width, h = canvas.height;
    ctx.clearRect(0, 0, w, h);
    ctx.strokeStyle = pens.grid;
    ctx.lineWidth = 1;
    for (var x = 0; x <= w; x += 28) { ctx.beginPath(); ctx.moveTo(x + 0.5, 0); ctx.lineTo(x + 0.5, h); ctx.stroke(); }
    for (var y = 0; y <= h; y += 25) { ctx.beginPath(); ctx.moveTo(0, y + 0.5); ctx.lineTo(w, y + 0.5); ctx.stroke(); }
    if (canvas.getAttribute("data-chart") === "scope") standby(ctx, w, h);
    [["v", 1], ["u", 0]].forEach(function (pen) {
      ctx.strokeStyle = pens[pen[0]];
      [1, 0].forEach(function (old) {
        ctx.globalAlpha = old ? 0.38 : 1;
        ctx.lineWidth = old ? 1.5 : 2;
        ctx.beginPath();
        var open = false;
        for (var i = 0; i < history.length; i++) {
          var px = w - (history.length - 1 - i) * w / 279, py = h - 6 - clamp(history[i][pen[1]], 0, 1) * (h - 12);
          if (history[i][2] !== old) { open = false; continue; }
          if (!open) { ctx.moveTo(px, py); open = true; } else ctx.lineTo(px, py);
        }
        ctx.stroke();
      });
    });
    ctx.globalAlpha = 1;
  }

  // A scope at rest still sweeps: a faint standby trace (the timebase free-running
  // over a little mains hum), moving with the simulation clock so it stays deterministic.
  function standby(ctx, w, h) {
    ctx.strokeStyle = pens.u;
    ctx.globalAlpha = 0.55;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (var x = 0; x <= w; x += 4) {
      var y = h / 2 + 9 * Math.sin(x / 23 + S.t * 3) + 3 * Math.sin(x / 7 - S.t * 5);
      if (x === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    ctx.stroke();
    ctx.globalAlpha = 1;
  }

  function reset() {
    S = cold();
    // The paper still carries the previous run (printed, faint); the scope shows none.
    history = canvas && canvas.getAttribute("data-chart") !== "scope"
      ? C.pre.map(function (p) { return [p[0], p[1], 1]; })
      : [];
    controls.forEach(function (el) { if (el.getAttribute("data-role") !== "ack") apply(el, 0); });
    S = cold();
    draw();
    return state();
  }

  window.machine = { name: C.name, faults: C.faults.slice(), state: state, tick: tick, inject: inject, reset: reset };

  // The animation loop runs through tick() and rests while the page is hidden.
  var last = null, frame = 0;
  function loop(ts) {
    frame = 0;
    if (document.hidden) { last = null; return; }
    if (last !== null) tick(Math.min(0.25, (ts - last) / 1000));
    last = ts;
    frame = requestAnimationFrame(loop);
  }
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) { if (frame) cancelAnimationFrame(frame); frame = 0; last = null; }
    else if (!frame) frame = requestAnimationFrame(loop);
  });
  reset();
  frame = requestAnimationFrame(loop);
})();
"""


def machine_js(design: Design) -> str:
    return JS.replace("__CONFIG__", json.dumps(config(design), ensure_ascii=False, sort_keys=True))


# --- style -----------------------------------------------------------------------------

BASE_CSS = """*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; min-height: 100vh; font-family: var(--font); color: var(--ink); }
body.panel-page { background: radial-gradient(ellipse at 50% 30%, var(--wall-hi), var(--wall) 70%); overflow-x: hidden; }
.chassis { position: relative; width: min(1380px, calc(100% - 28px)); min-height: calc(100vh - 24px); margin: 12px auto; padding: 26px 34px 22px;
  display: grid; align-content: stretch; gap: calc(12px * var(--gap)); border: 3px solid var(--edge); border-radius: var(--radius);
  box-shadow: inset 0 2px 0 var(--bevel-hi), inset 0 -3px 0 var(--bevel-lo), 0 18px 40px rgba(0,0,0,.45), 0 2px 0 var(--edge); }
.screw { position: absolute; width: 14px; height: 14px; border-radius: 50%;
  background: linear-gradient(var(--slot), transparent 0) center/10px 2px no-repeat, radial-gradient(circle at 35% 35%, #f4f4f0, #9a9a94 55%, #55554f);
  box-shadow: 0 1px 1px rgba(0,0,0,.6), inset 0 0 0 1px rgba(0,0,0,.35); }
.screw.tl { top: 8px; left: 10px; transform: rotate(35deg); } .screw.tr { top: 8px; right: 10px; transform: rotate(-20deg); }
.screw.bl { bottom: 8px; left: 10px; transform: rotate(80deg); } .screw.br { bottom: 8px; right: 10px; transform: rotate(10deg); }
.bay { position: relative; min-width: 0; padding: 12px 14px; border: 1px solid var(--groove-lo);
  box-shadow: inset 1px 1px 0 var(--groove-lo), 1px 1px 0 var(--groove-hi); border-radius: calc(var(--radius) / 2); }
.nameplate { grid-area: plate; display: flex; align-items: center; justify-content: flex-start; padding: 8px 14px; }
.doors { grid-area: doors; align-items: center; justify-content: flex-end; }
.centre { grid-area: centre; display: grid; place-items: center; padding: 10px; }
.badge { display: grid; gap: 1px; padding: 7px 16px; background: var(--plate); color: var(--plate-ink);
  border: 1px solid var(--plate-edge); box-shadow: inset 0 1px 0 rgba(255,255,255,.25), 0 1px 2px rgba(0,0,0,.4); }
.badge h1 { margin: 0; font-size: 21px; font-weight: 700; letter-spacing: var(--track); line-height: 1.1; }
.maker, .model { font-size: 11px; letter-spacing: .14em; opacity: .85; }
.doors { display: flex; flex-wrap: wrap; gap: 10px; }
.door { font: 600 12px var(--font); letter-spacing: .1em; color: var(--plate-ink); background: var(--plate); border: 1px solid var(--plate-edge);
  padding: 8px 14px; min-height: 36px; text-decoration: none; cursor: pointer; border-radius: 2px; box-shadow: 0 2px 0 var(--bevel-lo); }
.door:focus-visible, .test:focus-visible, .ctl:focus-visible { outline: 2px dashed var(--accent); outline-offset: 3px; }
.instruments { grid-area: inst; display: flex; flex-wrap: wrap; gap: calc(14px * var(--gap)); align-items: center; justify-content: space-around; }
.annunciator { grid-area: ann; display: grid; grid-template-columns: repeat(auto-fill, minmax(96px, 1fr)); gap: 8px; align-content: start; }
.controls { grid-area: ctrl; display: flex; flex-wrap: wrap; gap: calc(10px * var(--gap)); justify-content: space-around; align-items: flex-start; }
.maintenance { grid-area: maint; display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.meter { margin: 0; display: grid; justify-items: center; gap: 6px; min-width: 0; }
.meter .legend { max-width: 100%; text-align: center; }
.dial { height: calc(clamp(150px, 24vh, 240px) * var(--s) * var(--fit, 1)); width: auto; max-width: 100%; }
.dial[viewBox="0 0 240 150"] { height: calc(clamp(120px, 19vh, 190px) * var(--s) * var(--fit, 1)); }
.edgewise, .column { height: calc(clamp(170px, 30vh, 290px) * var(--s) * var(--fit, 1)); width: auto; max-width: 100%; }
.bargraph { width: calc(300px * var(--s)); max-width: 100%; height: auto; }
.mimic { width: 100%; max-width: calc(900px * var(--s)); max-height: calc(62vh * var(--s)); height: auto; }
svg .bezel { fill: var(--bezel); stroke: rgba(0,0,0,.55); stroke-width: 1.5; }
svg .face { fill: var(--face); }
svg .face.dark { fill: #0c0d0c; }
svg .tick { stroke: var(--face-ink); stroke-width: 1; }
svg .tick.major { stroke-width: 2.2; }
svg .num { fill: var(--face-ink); font: 600 11px var(--font); text-anchor: middle; }
svg .num.left { text-anchor: start; }
svg .dlabel { fill: var(--face-ink); font: 700 10px var(--font); letter-spacing: .08em; text-anchor: middle; }
svg .dlabel.small { font-size: 8.5px; fill: #e8e4d8; }
svg.column .num, svg.bargraph .unit { fill: #e8e4d8; }
svg .left { text-anchor: start; } svg .right { text-anchor: end; }
svg .unit { fill: var(--face-ink); font: italic 11px var(--font); text-anchor: middle; opacity: .8; }
svg .unit.dim { fill: #e8e4d8; }
svg .zone { fill: none; stroke: var(--alarm); stroke-width: 7; opacity: .85; }
svg .zone-fill { fill: var(--alarm); }
svg .needle path, svg .pointer path { fill: var(--needle); }
svg .hub { fill: var(--bezel); stroke: rgba(0,0,0,.5); }
svg .tube { fill: #0e0f10; stroke: rgba(255,255,255,.25); }
svg .fill { fill: var(--accent); }
svg .seg { fill: #2a2b2a; } svg .seg.lit { fill: var(--lit); } svg .seg.hi.lit { fill: var(--alarm); }
.readouts { grid-column: 1 / -1; display: flex; flex-wrap: wrap; gap: 8px; margin-top: 4px; }
.readout { flex: 1 1 96px; display: grid; gap: 3px; }
.readout output { display: block; font: 700 22px var(--mono); letter-spacing: .08em; text-align: right; padding: 4px 8px; min-height: 36px; }
.rlabel { font-size: 9px; letter-spacing: .08em; }
.rlabel em { font-style: normal; opacity: .75; }
.lamp { position: relative; font-size: 10px; font-weight: 700; letter-spacing: .06em; line-height: 1.15; }
.station { display: grid; justify-items: center; align-content: start; gap: 6px; min-width: 118px; max-width: 100%; }
.station > .legend { max-width: 100%; text-align: center; overflow-wrap: anywhere; }
.controls > .s-piano-keys { grid-column: 1 / -1; }
.ctl { position: relative; width: 92px; height: 92px; cursor: pointer; touch-action: none; user-select: none; -webkit-user-select: none; }
.ctl * { pointer-events: none; }
.k-piano-keys .pkey { pointer-events: auto; }
.marks { display: flex; justify-content: space-between; gap: 8px; min-width: 92px; font-size: 9px; letter-spacing: .06em; color: var(--ink); }
.k-rotary-selector .mark { position: absolute; transform: translate(-50%, -50%); font-size: 8.5px; white-space: nowrap; color: var(--ink); font-weight: 700; }
.test { font: 600 11px var(--font); letter-spacing: .05em; color: var(--ink); background: var(--btn); border: 1px solid var(--edge);
  padding: 7px 11px; min-height: 34px; cursor: pointer; border-radius: calc(var(--radius) / 2); box-shadow: inset 0 1px 0 var(--bevel-hi), 0 2px 0 var(--bevel-lo); display: inline-flex; gap: 7px; align-items: center; }
.test i { width: 9px; height: 9px; border-radius: 50%; background: #3a1210; box-shadow: inset 0 0 0 1px rgba(0,0,0,.5); }
.test.armed i { background: var(--alarm); box-shadow: 0 0 8px var(--alarm); }
.test.armed { border-color: var(--alarm); }
.clock { margin-left: auto; font: 600 12px var(--mono); letter-spacing: .1em; }
dialog[data-manual] { width: min(920px, 94vw); height: min(780px, 90vh); padding: 0; border: 6px solid var(--edge); background: var(--paper); border-radius: var(--radius); }
dialog[data-manual]::backdrop { background: rgba(0,0,0,.55); }
.dialog-bar { display: flex; justify-content: space-between; align-items: center; gap: 10px; padding: 6px 10px; background: var(--chassis); color: var(--ink); font: 600 12px var(--font); letter-spacing: .08em; }
.dialog-bar button { font: 600 12px var(--font); padding: 6px 12px; cursor: pointer; background: var(--plate); color: var(--plate-ink); border: 1px solid var(--plate-edge); }
dialog iframe { display: block; width: 100%; height: calc(100% - 42px); border: 0; background: var(--paper); }
"""

TEXTURES = {
    "hammer": "background: radial-gradient(circle at 30% 40%, rgba(255,255,255,.07) 0 1.5px, transparent 2.5px) 0 0/9px 9px, radial-gradient(circle at 60% 70%, rgba(0,0,0,.13) 0 2px, transparent 3px) 3px 4px/11px 11px, radial-gradient(circle at 50% 50%, rgba(255,255,255,.04) 0 3px, transparent 5px) 0 0/17px 17px, linear-gradient(170deg, var(--chassis-hi), var(--chassis) 45%, var(--chassis-lo));",
    "brushed": "background: repeating-linear-gradient(0deg, rgba(255,255,255,.05) 0 1px, transparent 1px 2px, rgba(0,0,0,.04) 2px 3px), linear-gradient(100deg, var(--chassis-lo), var(--chassis-hi) 30%, var(--chassis) 55%, var(--chassis-hi) 80%, var(--chassis-lo));",
    "grain": "background: repeating-linear-gradient(93deg, rgba(0,0,0,.10) 0 2px, transparent 2px 7px, rgba(255,255,255,.04) 7px 8px, transparent 8px 19px), repeating-linear-gradient(87deg, rgba(0,0,0,.06) 0 1px, transparent 1px 31px), linear-gradient(180deg, var(--chassis-hi), var(--chassis) 40%, var(--chassis-lo));",
    "crackle": "background: radial-gradient(ellipse at 20% 10%, rgba(255,255,255,.12), transparent 45%), repeating-conic-gradient(from 12deg at 40% 60%, rgba(0,0,0,.10) 0 3deg, transparent 3deg 11deg), radial-gradient(circle at 50% 50%, rgba(255,255,255,.05) 0 1px, transparent 2px) 0 0/7px 7px, var(--chassis);",
    "flat": "background: linear-gradient(180deg, var(--chassis-hi), var(--chassis) 18%, var(--chassis) 82%, var(--chassis-lo));",
    "weave": "background: repeating-linear-gradient(45deg, rgba(255,255,255,.045) 0 3px, transparent 3px 6px), repeating-linear-gradient(-45deg, rgba(0,0,0,.16) 0 3px, transparent 3px 6px), linear-gradient(180deg, var(--chassis-hi), var(--chassis-lo));",
    "speck": "background: radial-gradient(circle at 20% 30%, rgba(0,0,0,.16) 0 .8px, transparent 1.4px) 0 0/5px 5px, radial-gradient(circle at 70% 80%, rgba(255,255,255,.10) 0 .8px, transparent 1.4px) 2px 1px/7px 7px, linear-gradient(180deg, var(--chassis-hi), var(--chassis) 50%, var(--chassis-lo));",
}

LEGENDS = {
    "engraved": ".legend { background: var(--plate); color: var(--plate-ink); padding: 3px 9px; font-size: 10px; font-weight: 700; letter-spacing: .14em; border: 1px solid var(--plate-edge); box-shadow: inset 0 1px 1px rgba(0,0,0,.5); }",
    "printed": ".legend { color: var(--ink); font-size: 11px; font-weight: 700; letter-spacing: .12em; padding: 2px 0; border-bottom: 2px solid var(--accent); }",
    "tag": ".legend { background: radial-gradient(circle at 7px 50%, #5a4318 0 2px, transparent 3px), radial-gradient(circle at calc(100% - 7px) 50%, #5a4318 0 2px, transparent 3px), linear-gradient(180deg, #d9b865, #a7822f 60%, #8a6a24); color: #2a1d07; padding: 3px 16px; font-size: 10px; font-weight: 700; letter-spacing: .12em; border: 1px solid #6b5218; }",
    "tape": ".legend { background: var(--plate); color: #f6f2ea; padding: 3px 8px; font: 700 11px var(--mono); letter-spacing: .16em; text-shadow: 0 1px 0 rgba(0,0,0,.7), 0 -1px 0 rgba(255,255,255,.25); transform: rotate(-1.2deg); box-shadow: 0 1px 2px rgba(0,0,0,.5); }\n.station:nth-child(even) .legend { transform: rotate(.9deg); }",
    "etched": ".legend { background: linear-gradient(180deg, var(--plate), var(--plate-edge)); color: var(--plate-ink); padding: 3px 10px; font-size: 10px; font-weight: 600; letter-spacing: .16em; border: 1px solid rgba(0,0,0,.4); }",
    "backlit": ".legend { background: #0b0c0d; color: var(--accent); padding: 3px 10px; font-size: 10px; font-weight: 600; letter-spacing: .18em; text-shadow: 0 0 6px var(--accent); border: 1px solid #000; }",
    "enamel": ".legend { background: #efe8d6; color: #1e2b57; padding: 3px 12px; font-size: 10.5px; font-weight: 700; letter-spacing: .1em; border: 2px solid #1e2b57; border-radius: 3px; box-shadow: 0 0 0 2px #efe8d6, 0 2px 3px rgba(0,0,0,.5); }",
    "laser": ".legend { color: var(--ink); font-size: 10px; font-weight: 500; letter-spacing: .22em; padding: 3px 8px; border: 1px solid var(--hairline); }",
}

LAMPS = {
    "jewel": """.lamp { display: grid; justify-items: center; gap: 5px; text-align: center; color: var(--ink); }
.lamp i { width: 26px; height: 26px; border-radius: 50%; background: radial-gradient(circle at 35% 30%, rgba(255,255,255,.55) 0 2px, transparent 4px), repeating-conic-gradient(rgba(255,255,255,.08) 0 15deg, rgba(0,0,0,.12) 15deg 30deg), var(--lamp-off); box-shadow: 0 0 0 4px #b9b7ae, 0 0 0 5px #555, 0 2px 4px 5px rgba(0,0,0,.35); }
.lamp.lit i { background: radial-gradient(circle at 35% 30%, #fff 0 2px, transparent 5px), repeating-conic-gradient(rgba(255,255,255,.2) 0 15deg, rgba(0,0,0,.1) 15deg 30deg), var(--lamp-on); box-shadow: 0 0 0 4px #b9b7ae, 0 0 0 5px #555, 0 0 18px 6px var(--lamp-on); }""",
    "neon": """.lamp { display: grid; justify-items: center; gap: 5px; text-align: center; color: var(--ink); }
.lamp i { width: 16px; height: 24px; border-radius: 8px; background: #3b2418; box-shadow: inset 0 0 0 2px rgba(255,255,255,.25), 0 0 0 3px #222; }
.lamp.lit i { background: radial-gradient(ellipse at 50% 50%, #ffd9a0, #ff7a1a 60%, #b33b00); box-shadow: 0 0 0 3px #222, 0 0 14px 4px #ff7a1a; }""",
    "window": """.lamp { display: flex; align-items: center; justify-content: center; min-height: 44px; padding: 4px 6px; text-align: center; background: #262321; color: #6d655c; border: 3px solid #0d0d0d; box-shadow: inset 0 0 0 1px rgba(255,255,255,.12); }
.lamp i { display: none; }
.lamp.lit { background: var(--lamp-on); color: #1a0d05; box-shadow: inset 0 0 10px rgba(255,255,255,.6), 0 0 14px var(--lamp-on); }""",
    "led": """.lamp { display: flex; align-items: center; gap: 7px; color: var(--ink); min-height: 28px; }
.lamp i { flex: none; width: 10px; height: 10px; border-radius: 50%; background: var(--lamp-off); box-shadow: 0 0 0 2px rgba(0,0,0,.45); }
.lamp.lit i { background: var(--lamp-on); box-shadow: 0 0 0 2px rgba(0,0,0,.45), 0 0 9px 2px var(--lamp-on); }""",
    "tile": """.lamp { display: flex; align-items: center; justify-content: center; min-height: 40px; padding: 4px 6px; text-align: center; background: linear-gradient(180deg, #3a3d40, #26292c); color: #8c9094; border: 1px solid #0c0d0e; border-radius: 2px; }
.lamp i { display: none; }
.lamp.lit { background: linear-gradient(180deg, #fff, var(--lamp-on) 40%); color: #111; box-shadow: 0 0 12px var(--lamp-on); }""",
    "flag": """.lamp { display: grid; justify-items: center; gap: 5px; text-align: center; color: var(--ink); }
.lamp i { width: 28px; height: 28px; border-radius: 50%; background: #0d0d0d; border: 3px solid #c7c2b2; box-shadow: inset 0 2px 3px rgba(255,255,255,.15); }
.lamp.lit i { background: linear-gradient(90deg, #0d0d0d 0 8%, var(--lamp-on) 8% 92%, #0d0d0d 92%); }""",
    "bar": """.lamp { display: grid; gap: 5px; color: var(--ink); padding-top: 2px; }
.lamp i { height: 6px; border-radius: 1px; background: var(--lamp-off); }
.lamp.lit i { background: var(--lamp-on); box-shadow: 0 0 10px var(--lamp-on); }""",
}

READOUTS = {
    "drum": ".readout output { background: linear-gradient(180deg, #000, #2b2b2b 30%, #3a3a3a 50%, #2b2b2b 70%, #000); color: #f1ead8; border: 3px solid #8d7a4e; font-family: Georgia, serif; }",
    "nixie": ".readout output { background: radial-gradient(circle, rgba(255,255,255,.06) 0 1px, transparent 1.5px) 0 0/4px 4px, #140b06; color: #ff9b3d; text-shadow: 0 0 6px #ff6a00, 0 0 14px #ff6a00; border: 2px solid #3a2a1c; }",
    "led": ".readout output { background: #1b0606; color: #ff3b2b; text-shadow: 0 0 6px #ff2200; border: 2px solid #050505; }",
    "vfd": ".readout output { background: #03100d; color: #6ff3d4; text-shadow: 0 0 7px #2fe0b8; border: 2px solid #050505; }",
    "lcd": ".readout output { background: linear-gradient(180deg, #9aa78a, #b6c2a2); color: #1c2216; border: 3px solid #3a3d38; box-shadow: inset 0 2px 4px rgba(0,0,0,.45); }",
    "tft": ".readout output { background: #07090b; color: var(--accent); border: 1px solid #2b3036; font-weight: 600; }",
}

# Each layout is its own composition: where the nameplate, the doors, the centrepiece,
# the meters, the lamps, the controls and the test strip go, and what the case adds.
LAYOUTS = {
    "desk": """.chassis { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr) 340px; grid-template-rows: auto minmax(0, 1fr) auto auto; grid-template-areas: 'plate plate doors' 'inst inst ann' 'ctrl ctrl ctrl' 'maint maint maint'; padding-bottom: 46px; }
.controls { transform: perspective(1500px) rotateX(16deg); transform-origin: 50% 0; margin-top: 6px; padding-top: 18px; padding-bottom: 22px; background: linear-gradient(180deg, rgba(0,0,0,.16), rgba(255,255,255,.05) 30%, transparent 60%, rgba(0,0,0,.12)); box-shadow: inset 0 3px 0 var(--groove-hi), 0 -4px 0 var(--edge), inset 0 -2px 0 var(--groove-lo); }
.desk-lip { position: absolute; left: -3px; right: -3px; bottom: -3px; height: 28px; background: linear-gradient(180deg, var(--chassis-lo), var(--edge)); border: 3px solid var(--edge); border-radius: 0 0 var(--radius) var(--radius); }
.nameplate { justify-content: center; }""",
    "cabinet": """.chassis { width: min(1040px, calc(100% - 28px)); padding: 30px 58px 26px 64px; grid-template-columns: minmax(0, 1fr) auto; grid-template-rows: auto auto minmax(0, 1fr) auto auto; grid-template-areas: 'plate plate' 'ann ann' 'inst inst' 'ctrl ctrl' 'maint doors'; --fit: .78; gap: 8px; }
.nameplate { padding: 2px 14px; }
.nameplate { justify-content: center; border: 0; box-shadow: none; }
.instruments { border: 4px solid var(--edge); border-radius: calc(var(--radius) + 2px); padding: 22px 26px; box-shadow: inset 0 0 0 2px var(--groove-hi), 0 0 0 6px var(--chassis-lo), 0 6px 14px rgba(0,0,0,.35); background: linear-gradient(180deg, rgba(255,255,255,.06), rgba(0,0,0,.08)); }
.annunciator { grid-template-columns: repeat(auto-fill, minmax(92px, 1fr)); }
.annunciator .readouts { grid-column: auto / span 3; margin: 0; }
.hinge { position: absolute; left: 22px; width: 18px; height: 64px; border-radius: 4px; background: linear-gradient(90deg, #3a3a38, #d8d6cf 45%, #6d6c66); box-shadow: 0 2px 3px rgba(0,0,0,.5); }
.hinge.h1 { top: 22%; } .hinge.h2 { top: 52%; }
.latch { position: absolute; right: 18px; top: 38%; width: 22px; height: 74px; border-radius: 11px; background: linear-gradient(90deg, #222, #777 50%, #222); box-shadow: 0 3px 5px rgba(0,0,0,.5); }""",
    "mimic": """.chassis { grid-template-columns: 260px minmax(0, 1fr) 300px; grid-template-rows: auto minmax(0, 1fr) auto; grid-template-areas: 'plate plate doors' 'inst centre ctrl' 'ann ann maint'; }
.instruments { flex-direction: column; flex-wrap: nowrap; }
.controls { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); align-content: space-around; justify-items: center; }
.controls .station { min-width: 0; }
.chassis { --fit: .8; }
.centre { background: var(--board); box-shadow: inset 0 0 0 3px rgba(0,0,0,.5), inset 0 0 30px rgba(0,0,0,.5); }
.annunciator { grid-template-columns: repeat(6, minmax(0, 1fr)); }
.annunciator .readouts { grid-column: auto / span 3; margin: 0; }
.maintenance { flex-direction: column; align-items: stretch; }""",
    "rack": """.chassis { padding: 16px 72px; gap: 6px; grid-template-columns: minmax(0, 1fr) auto; grid-template-rows: auto minmax(0, 1fr) auto auto auto; grid-template-areas: 'plate doors' 'inst inst' 'ann ann' 'ctrl ctrl' 'maint maint'; background: #17181a; border-color: #0b0b0c; }
.bay { background: inherit; border: 1px solid rgba(0,0,0,.6); border-radius: 1px; box-shadow: inset 0 1px 0 rgba(255,255,255,.25), inset 0 -2px 0 rgba(0,0,0,.3), 0 2px 4px rgba(0,0,0,.6); padding-left: 44px; padding-right: 44px; }
.bay::before, .bay::after { content: ''; position: absolute; top: 50%; width: 12px; height: 12px; margin-top: -6px; border-radius: 50%; background: radial-gradient(circle at 35% 35%, #f4f4f0, #8a8a84 55%, #44443f); box-shadow: 0 1px 1px rgba(0,0,0,.6); }
.bay::before { left: 14px; } .bay::after { right: 14px; }
.chassis > .bay { TEXTURE }
.rail { position: absolute; top: 0; bottom: 0; width: 46px; background: radial-gradient(ellipse at 50% 50%, #050505 0 4px, transparent 5px) center 10px/100% 22px repeat-y, linear-gradient(90deg, #55585c, #b9bcc0 40%, #6b6e72); border: 1px solid #000; }
.rail.rl { left: 10px; } .rail.rr { right: 10px; }
.annunciator { grid-template-columns: repeat(auto-fill, minmax(110px, 1fr)); }
.annunciator .readouts { grid-column: auto / span 3; margin: 0; }
.controls { justify-content: space-evenly; }""",
    "recorder": """.chassis { grid-template-columns: minmax(0, 1.25fr) minmax(0, 1fr); grid-template-rows: auto minmax(0, 1fr) auto auto auto; grid-template-areas: 'plate doors' 'centre inst' 'centre ann' 'ctrl ctrl' 'maint maint'; --fit: .85; }
.controls { flex-wrap: nowrap; justify-content: space-evenly; }
.centre { padding: 14px; }
.recorder canvas { height: calc(clamp(240px, 38vh, 420px) * var(--s)); width: auto; }
.instruments { justify-content: space-evenly; }
.nameplate .badge { padding: 10px 22px; }""",
    "bench": """.chassis { width: min(1320px, calc(100% - 60px)); margin-top: 34px; min-height: calc(100vh - 74px); padding: 28px 30px 30px; grid-template-columns: 290px minmax(0, 1fr) 300px; grid-template-rows: minmax(0, 1fr) auto auto; grid-template-areas: 'inst centre ctrl' 'plate ann ann' 'maint maint doors'; --fit: .8; border-width: 10px; border-color: var(--edge); border-radius: calc(var(--radius) + 10px); }
.instruments { flex-direction: column; flex-wrap: nowrap; justify-content: space-around; }
.controls { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); align-content: space-around; justify-items: center; }
.controls .station { min-width: 0; }
.annunciator { grid-template-columns: repeat(auto-fill, minmax(100px, 1fr)); }
.annunciator .readouts { grid-column: auto / span 3; margin: 0; }
.centre { background: #101211; border-radius: 18px; box-shadow: inset 0 0 0 6px #2a2c2b, inset 0 0 40px rgba(0,0,0,.9), 0 2px 0 var(--groove-hi); }
.handle-bar { position: absolute; left: 18%; right: 18%; top: -30px; height: 22px; border: 8px solid #2b2b2b; border-bottom: 0; border-radius: 14px 14px 0 0; }
.foot { position: absolute; bottom: -18px; width: 90px; height: 14px; background: #1b1b1b; border-radius: 0 0 6px 6px; }
.foot.fl { left: 8%; } .foot.fr { right: 8%; }""",
    "console": """.chassis { grid-template-columns: minmax(0, 0.75fr) minmax(0, 1.7fr) minmax(0, 0.75fr); grid-template-rows: auto minmax(0, 1fr) auto; grid-template-areas: 'plate plate doors' 'ann inst ctrl' 'ann maint ctrl'; perspective: 1600px; column-gap: 22px; --fit: .86; }
.annunciator { transform: rotateY(14deg); transform-origin: 100% 50%; grid-template-columns: repeat(2, minmax(0, 1fr)); background: linear-gradient(90deg, rgba(0,0,0,.18), transparent); }
.controls { transform: rotateY(-14deg); transform-origin: 0 50%; display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); align-content: space-around; justify-items: center; background: linear-gradient(270deg, rgba(0,0,0,.18), transparent); }
.controls .station { min-width: 0; }
.instruments { align-content: space-around; }
.nameplate { justify-content: center; }""",
    "hmi": """.chassis { grid-template-columns: minmax(0, 1.5fr) minmax(0, 0.8fr) 290px; grid-template-rows: minmax(0, 1fr) auto auto; grid-template-areas: 'centre inst ctrl' 'ann ann ctrl' 'plate maint doors'; column-gap: 0; padding: 30px; }
.centre, .instruments, .annunciator { background: #0b0e11; border: 0; box-shadow: none; border-radius: 0; color: #d8dee4; }
.centre { border-radius: 6px 0 0 0; box-shadow: inset 0 0 0 1px #263039; } .instruments { border-radius: 0 6px 0 0; flex-direction: column; flex-wrap: nowrap; justify-content: space-around; box-shadow: inset 0 0 0 1px #263039; }
.annunciator { border-radius: 0 0 6px 6px; box-shadow: inset 0 0 0 1px #263039, 0 0 0 10px #050607; grid-template-columns: repeat(4, minmax(0, 1fr)); }
.annunciator .lamp { color: #d8dee4; }
.controls { margin-left: 24px; display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); align-content: space-around; justify-items: center; }
.controls .station { min-width: 0; }
.instruments .meter .legend { background: transparent; color: #aeb8c2; border: 0; box-shadow: none; text-shadow: none; }
.centre { outline: 10px solid #050607; outline-offset: -10px; }
.centre { place-items: stretch; }
.trend { height: 100%; grid-template-rows: minmax(0, 1fr) auto; }
.trend .paper { min-height: 0; }
.trend canvas { width: 100%; height: 100%; min-height: 220px; }
.nameplate .badge { background: transparent; border: 0; box-shadow: none; color: var(--ink); padding: 0; }
.nameplate { border: 0; box-shadow: none; }""",
}

CHART_CSS = {
    "recorder": """.recorder { margin: 0; padding: 10px; background: var(--bezel); border: 2px solid rgba(0,0,0,.5); box-shadow: inset 0 0 0 3px rgba(255,255,255,.08); }
.recorder .paper { background: #f1ecdc; padding: 4px 14px; border-left: 10px solid #3a3a38; border-right: 10px solid #3a3a38; box-shadow: inset 0 10px 10px -6px rgba(0,0,0,.5), inset 0 -10px 10px -6px rgba(0,0,0,.5); }
.recorder canvas { display: block; max-width: 100%; --pen-v: #b3241c; --pen-u: #23417a; --grid: #d3a6a0; --dir: v; }
.recorder figcaption { display: flex; gap: 8px; align-items: center; padding-top: 6px; font-size: 10px; letter-spacing: .08em; color: #e8e4d8; }
.pen { display: inline-block; width: 18px; height: 3px; } .pen-v { background: var(--pen-v, #b3241c); } .pen-u { background: var(--pen-u, #23417a); }""",
    "scope": """.scope { margin: 0; display: grid; gap: 8px; justify-items: center; }
.scope .paper { padding: 16px; background: radial-gradient(ellipse at 50% 40%, #1d2a22, #060907 75%); border-radius: 26px / 20px; box-shadow: inset 0 0 24px #000, 0 0 0 3px #3b3d3c; }
.scope canvas { display: block; width: calc(clamp(300px, 40vw, 560px) * var(--s)); max-width: 100%; height: auto; --pen-v: #9dff9a; --pen-u: #f2d36a; --grid: rgba(157,255,154,.18); filter: drop-shadow(0 0 3px rgba(157,255,154,.6)); }
.scope figcaption { display: flex; gap: 8px; align-items: center; font-size: 10px; letter-spacing: .08em; color: #cfd8cf; }
.scope .pen-v { background: #9dff9a; } .scope .pen-u { background: #f2d36a; }
.pen { display: inline-block; width: 18px; height: 3px; }""",
    "trend": """.trend { margin: 0; width: 100%; display: grid; gap: 8px; }
.trend .paper { padding: 0; }
.trend canvas { display: block; width: 100%; height: auto; --pen-v: #ff7a59; --pen-u: var(--accent); --grid: rgba(255,255,255,.08); }
.trend figcaption { display: flex; gap: 8px; align-items: center; font-size: 11px; letter-spacing: .04em; color: #aeb8c2; }
.trend .pen-v { background: #ff7a59; } .trend .pen-u { background: var(--accent); }
.pen { display: inline-block; width: 18px; height: 3px; }""",
}

MIMIC_CSS = """svg .board { fill: var(--board); }
svg .pipe { fill: none; stroke: var(--pipe); stroke-width: 9; stroke-linejoin: round; }
svg .flowline { stroke: var(--accent); stroke-width: 3; stroke-dasharray: 2 14; opacity: 0; }
svg .flowline.flowing { opacity: 1; animation: flow 1s linear infinite; }
@keyframes flow { to { stroke-dashoffset: -16; } }
svg .vessel, svg .unitbox { fill: #0e0f10; stroke: var(--pipe); stroke-width: 3; }
svg .pump { fill: #0e0f10; stroke: var(--pipe); stroke-width: 4; }
svg .impeller path { fill: var(--accent); }
svg .glow { fill: var(--alarm); }
svg .valve { fill: var(--pipe); }
svg .arrow { fill: var(--board); stroke: var(--board-ink); stroke-width: 1; opacity: .9; }
svg .tile { fill: var(--board); } svg .tile-joint { stroke: rgba(0,0,0,.55); stroke-width: 1; fill: none; }
svg .mlamp circle { fill: #3a1510; stroke: #0a0a0a; stroke-width: 2; }
svg .mlamp.lit circle { fill: var(--alarm); filter: drop-shadow(0 0 5px var(--alarm)); }
svg .mlabel.small { font-size: 7.5px; }
svg .mlabel { fill: var(--board-ink); font: 700 10px var(--font); letter-spacing: .1em; }
@media (prefers-reduced-motion: reduce) { svg .flowline.flowing { animation: none; } }"""

CONTROLS_CSS = {
    "key-switch": """.k-key-switch .ring { position: absolute; inset: 12px; border-radius: 50%; background: radial-gradient(circle at 40% 35%, #fafaf6, #a9a9a2 50%, #5e5e58); box-shadow: 0 3px 5px rgba(0,0,0,.5), inset 0 0 0 6px rgba(0,0,0,.08); }
.k-key-switch .key { position: absolute; left: 50%; top: 50%; width: 12px; height: 56px; margin: -28px 0 0 -6px; background: linear-gradient(90deg, #8a6d2a, #e2c46f, #8a6d2a); border-radius: 3px; transform: rotate(calc(-45deg + var(--pos) * 90deg)); transition: transform .18s; box-shadow: 0 2px 3px rgba(0,0,0,.5); }
.k-key-switch .key i { position: absolute; left: -10px; top: -4px; width: 32px; height: 20px; border-radius: 10px 10px 4px 4px; background: linear-gradient(180deg, #e8cd7a, #9b7b2f); box-shadow: inset 0 0 0 4px rgba(0,0,0,.12); }""",
    "guarded-toggle": """.k-guarded-toggle .base { position: absolute; left: 24px; right: 24px; top: 10px; bottom: 10px; background: linear-gradient(180deg, #3a3a3a, #1b1b1b); border-radius: 3px; box-shadow: inset 0 0 0 2px rgba(255,255,255,.1); }
.k-guarded-toggle .bat { position: absolute; left: 50%; top: 50%; width: 10px; height: 34px; margin: -34px 0 0 -5px; border-radius: 5px; background: linear-gradient(90deg, #777, #f2f2f2, #888); transform-origin: 50% 100%; transform: rotate(calc(165deg - var(--pos) * 150deg)); transition: transform .15s; }
.k-guarded-toggle .guard { position: absolute; left: 18px; right: 18px; top: 6px; height: 46px; border: 3px solid var(--guard); background: color-mix(in srgb, var(--guard) 45%, transparent); border-radius: 4px 4px 0 0; transform-origin: 50% 0; transform: perspective(160px) rotateX(calc(var(--pos) * 75deg)); transition: transform .2s; }""",
    "isolator-handle": """.k-isolator-handle .ring { position: absolute; inset: 6px; border-radius: 50%; background: radial-gradient(circle, #2b2b2b 0 40%, #151515 41% 70%, #444 71%); box-shadow: 0 3px 6px rgba(0,0,0,.5); }
.k-isolator-handle .handle { position: absolute; left: 8px; right: 8px; top: 50%; height: 20px; margin-top: -10px; border-radius: 4px; background: linear-gradient(180deg, var(--guard), color-mix(in srgb, var(--guard) 60%, #000)); transform: rotate(calc(var(--pos) * 90deg)); transition: transform .2s; box-shadow: 0 3px 4px rgba(0,0,0,.5); }""",
    "knife-switch": """.k-knife-switch .slate { position: absolute; left: 16px; right: 16px; top: 4px; bottom: 4px; border-radius: 3px; background: linear-gradient(160deg, #44474a, #1c1d1f); box-shadow: 0 2px 4px rgba(0,0,0,.5), inset 0 0 0 2px rgba(255,255,255,.07); }
.k-knife-switch .jaw { position: absolute; left: 50%; top: 14px; width: 18px; height: 16px; margin-left: -9px; border: 3px solid #b87333; border-bottom: 0; border-radius: 2px 2px 0 0; }
.k-knife-switch .pivot { position: absolute; left: 50%; bottom: 12px; width: 16px; height: 16px; margin-left: -8px; border-radius: 50%; background: radial-gradient(circle at 40% 35%, #f0c08a, #9a5a26 70%); box-shadow: 0 1px 2px rgba(0,0,0,.6); }
.k-knife-switch .blade { position: absolute; left: 50%; bottom: 20px; width: 6px; height: 46px; margin-left: -3px; border-radius: 2px; background: linear-gradient(90deg, #8a4f20, #f2b27a 50%, #8a4f20); transform-origin: 50% 100%; transform: rotate(calc(-65deg + var(--pos) * 65deg)); transition: transform .2s; }
.k-knife-switch .blade i { position: absolute; left: -7px; top: -12px; width: 20px; height: 15px; border-radius: 4px 4px 2px 2px; background: radial-gradient(circle at 40% 30%, #555, #0d0d0d 70%); box-shadow: 0 2px 3px rgba(0,0,0,.5); }""",
    "rotary-selector": """.k-rotary-selector { width: 112px; height: 112px; }
.k-rotary-selector .skirt { position: absolute; inset: 22px; border-radius: 50%; background: repeating-conic-gradient(from -60deg, var(--ink) 0 1.5deg, transparent 1.5deg 30deg); opacity: .5; }
.k-rotary-selector .knob { position: absolute; inset: 30px; border-radius: 50%; background: radial-gradient(circle at 40% 35%, #575757, #161616 70%); box-shadow: 0 4px 6px rgba(0,0,0,.55), inset 0 1px 1px rgba(255,255,255,.3); transform: rotate(calc(var(--a0) + var(--pos) * var(--sweep))); transition: transform .15s; }
.k-rotary-selector .knob i { position: absolute; left: 50%; top: 2px; width: 5px; height: 22px; margin-left: -2.5px; background: var(--pointer); border-radius: 2px; }""",
    "piano-keys": """.k-piano-keys { width: auto; height: 74px; display: flex; gap: 3px; padding: 5px; background: #161616; border-radius: 2px; box-shadow: 0 2px 4px rgba(0,0,0,.5); }
.k-piano-keys .pkey { min-width: 44px; padding-left: 4px; padding-right: 4px; display: flex; align-items: flex-end; justify-content: center; padding-bottom: 6px; font-size: 8.5px; font-weight: 700; color: #222; background: linear-gradient(180deg, #fbf8ee, #d8d3c2); border-radius: 0 0 3px 3px; box-shadow: 0 4px 0 #8d887a; transition: transform .1s; }
.k-piano-keys .pkey.down { transform: translateY(4px); box-shadow: 0 0 0 #8d887a; background: linear-gradient(180deg, var(--accent), color-mix(in srgb, var(--accent) 70%, #fff)); }""",
    "slider": """.k-slider { width: 150px; height: 60px; }
.k-slider .track { position: absolute; left: 10px; right: 10px; top: 50%; height: 8px; margin-top: -4px; background: #0c0c0c; border-radius: 4px; box-shadow: inset 0 1px 2px #000, 0 1px 0 rgba(255,255,255,.2); }
.k-slider .thumb { position: absolute; top: 10px; width: 20px; height: 40px; left: calc(10px + var(--pos) * (100% - 20px)); margin-left: -10px; background: linear-gradient(90deg, #666, #eee 40%, #999); border-radius: 2px; box-shadow: 0 3px 4px rgba(0,0,0,.5), inset 0 -19px 0 -17px var(--pointer); transition: left .08s; }""",
    "lever": """.k-lever { width: 70px; height: 130px; }
.k-lever .slot { position: absolute; left: 50%; top: 8px; bottom: 8px; width: 10px; margin-left: -5px; background: #0a0a0a; border-radius: 5px; box-shadow: inset 0 1px 3px #000, 0 0 0 3px rgba(255,255,255,.12); }
.k-lever .grip { position: absolute; left: 4px; right: 4px; height: 22px; bottom: calc(4px + var(--pos) * (100% - 30px)); background: linear-gradient(180deg, color-mix(in srgb, var(--guard) 80%, #fff), var(--guard) 50%, color-mix(in srgb, var(--guard) 60%, #000)); border-radius: 11px; box-shadow: 0 4px 5px rgba(0,0,0,.55); transition: bottom .08s; }""",
    "thumbwheel": """.k-thumbwheel { width: 86px; height: 96px; }
.k-thumbwheel .wheel { position: absolute; right: 6px; top: 6px; bottom: 6px; width: 24px; border-radius: 6px; background: repeating-linear-gradient(180deg, #222 0 3px, #888 3px 5px, #333 5px 7px); box-shadow: inset 4px 0 6px rgba(0,0,0,.6), inset -4px 0 6px rgba(0,0,0,.6); }
.k-thumbwheel .window { position: absolute; left: 6px; top: 28px; width: 46px; height: 40px; display: grid; place-items: center; background: #f4f1e6; border: 3px solid #151515; font: 700 20px var(--mono); color: #111; }""",
    "vernier-knob": """.k-vernier-knob { width: 104px; height: 104px; }
.k-vernier-knob .scale { position: absolute; inset: 2px; border-radius: 50%; background: repeating-conic-gradient(from -135deg, var(--ink) 0 1deg, transparent 1deg 13.5deg); -webkit-mask: radial-gradient(circle, transparent 60%, #000 61%); mask: radial-gradient(circle, transparent 60%, #000 61%); clip-path: polygon(50% 50%, 0 100%, 0 0, 100% 0, 100% 100%); }
.k-vernier-knob .knob { position: absolute; inset: 18px; border-radius: 50%; background: radial-gradient(circle at 45% 40%, #5a5a5a 0 45%, transparent 46%), repeating-conic-gradient(#2a2a2a 0 6deg, #111 6deg 12deg); box-shadow: 0 4px 6px rgba(0,0,0,.55); transform: rotate(calc(-135deg + var(--pos) * 270deg)); transition: transform .08s; }
.k-vernier-knob .knob i { position: absolute; left: 50%; top: 3px; width: 4px; height: 26px; margin-left: -2px; background: var(--pointer); }""",
    "bat-toggle": """.k-bat-toggle .nut { position: absolute; left: 50%; top: 50%; width: 34px; height: 34px; margin: -17px; clip-path: polygon(25% 5%, 75% 5%, 100% 50%, 75% 95%, 25% 95%, 0 50%); background: linear-gradient(135deg, #eee, #777); }
.k-bat-toggle .bat { position: absolute; left: 50%; top: 50%; width: 10px; height: 38px; margin: -38px 0 0 -5px; border-radius: 5px 5px 3px 3px; background: linear-gradient(90deg, #777, #fafafa, #888); transform-origin: 50% 100%; transform: rotate(calc(160deg - var(--pos) * 140deg)); transition: transform .12s; box-shadow: 0 2px 3px rgba(0,0,0,.45); }""",
    "push-pull-knob": """.k-push-pull-knob .collar { position: absolute; inset: 14px; border-radius: 50%; background: radial-gradient(circle, #111 0 50%, #777 52%, #333 70%); }
.k-push-pull-knob .cap { position: absolute; inset: 24px; border-radius: 50%; background: radial-gradient(circle at 40% 35%, color-mix(in srgb, var(--guard) 60%, #fff), var(--guard) 60%, color-mix(in srgb, var(--guard) 55%, #000)); transform: scale(calc(.9 + var(--pos) * .22)); box-shadow: 0 calc(2px + var(--pos) * 8px) calc(3px + var(--pos) * 8px) rgba(0,0,0,.55); transition: transform .15s, box-shadow .15s; }""",
    "rocker-switch": """.k-rocker-switch .bezel { position: absolute; left: 20px; right: 20px; top: 6px; bottom: 6px; background: #0d0d0d; border-radius: 3px; box-shadow: 0 2px 3px rgba(0,0,0,.5), inset 0 0 0 2px #333; }
.k-rocker-switch .rocker { position: absolute; left: 26px; right: 26px; top: 12px; bottom: 12px; display: grid; grid-template-rows: 1fr 1fr; background: #2c2c2c; transform: perspective(120px) rotateX(calc(18deg - var(--pos) * 36deg)); transition: transform .12s; }
.k-rocker-switch .rocker b { display: grid; place-items: center; color: #ddd; font: 700 14px var(--font); background: linear-gradient(180deg, #3a3a3a, #1d1d1d); }
.k-rocker-switch .rocker b:first-child { background: linear-gradient(180deg, var(--guard), color-mix(in srgb, var(--guard) 60%, #000)); }""",
    "push-button": """.k-push-button .collar { position: absolute; inset: 12px; border-radius: 50%; background: radial-gradient(circle at 40% 35%, #ededea, #8d8d88 60%, #4a4a46); box-shadow: 0 3px 5px rgba(0,0,0,.5); }
.k-push-button .cap { position: absolute; inset: 22px; border-radius: 50%; background: radial-gradient(circle at 40% 30%, color-mix(in srgb, var(--ack) 55%, #fff), var(--ack) 55%, color-mix(in srgb, var(--ack) 60%, #000)); box-shadow: 0 4px 0 color-mix(in srgb, var(--ack) 45%, #000); transition: transform .08s, box-shadow .08s; }
.k-push-button.pressed .cap { transform: translateY(3px) scale(.96); box-shadow: 0 1px 0 color-mix(in srgb, var(--ack) 45%, #000); }""",
}

# What makes the era readable from the picture alone, drawn over the parts above:
# plates, bezels, knobs, switches and readouts as that decade made them.
ENGRAVED = """.legend { letter-spacing: .2em; text-shadow: 0 1px 0 rgba(255,255,255,.3); box-shadow: inset 0 1px 2px rgba(0,0,0,.55), 0 1px 0 rgba(255,255,255,.4); }
.k-bat-toggle .nut { clip-path: none; width: 60px; height: 26px; margin: -13px 0 0 -30px; border-radius: 3px; background: linear-gradient(180deg, #f6f2e6, #cfc8b4); box-shadow: 0 2px 3px rgba(0,0,0,.5), inset 0 0 0 2px rgba(0,0,0,.08); }
.k-bat-toggle .bat { width: 7px; margin-left: -3.5px; border-radius: 1px; background: linear-gradient(90deg, #7d4318, #e99d5e 50%, #7d4318); }
.k-bat-toggle .bat::after { content: ''; position: absolute; left: -5px; top: -12px; width: 17px; height: 16px; border-radius: 5px 5px 3px 3px; background: radial-gradient(circle at 40% 30%, #5a3a28, #1f120b 70%); }
.k-isolator-handle .ring { background: radial-gradient(circle, #f3efe3 0 38%, #bdb6a2 40% 62%, #2a1d15 64%); }
.k-isolator-handle .handle { background: radial-gradient(circle at 30% 30%, #6a4a34, #24150d 70%); }
.k-rotary-selector .knob, .k-vernier-knob .knob { background: radial-gradient(circle at 38% 30%, #8a5a3a 0 3px, #4a2c1c 35%, #1e110a 78%); }"""

BAKELITE_SKIRT = """.k-rotary-selector .skirt { inset: 19px; opacity: 1; background: radial-gradient(circle, transparent 0 58%, #0b0b0b 60%), repeating-conic-gradient(#2a2a2a 0 5deg, #070707 5deg 10deg); box-shadow: 0 4px 6px rgba(0,0,0,.55), inset 0 0 0 1px rgba(255,255,255,.12); }
.k-rotary-selector .knob, .k-vernier-knob .knob { background: radial-gradient(circle at 38% 28%, #7b7b7b 0 2px, #262626 32%, #050505 80%); }"""

GHOST = """.readout output { position: relative; }
.readout output::before { content: '8888'; position: absolute; right: 8px; opacity: .1; }"""

ERA_CSS = {
    "1920s": ENGRAVED
    + """
svg .bezel { fill: #a8823c; stroke: #5b4217; } svg .hub { fill: #d0ab5c; }
.badge { letter-spacing: .06em; box-shadow: inset 0 1px 2px rgba(0,0,0,.5), 0 1px 0 rgba(255,255,255,.4), 0 0 0 3px #a8823c; }""",
    "1940s": ENGRAVED
    + """
svg .bezel { fill: #b4b8b6; stroke: #55595a; } svg .hub { fill: #dfe2e1; }""",
    "1950s": BAKELITE_SKIRT + "\n.legend { border-radius: 2px; }",
    "1960s": BAKELITE_SKIRT,
    "1970s": GHOST
    + """
.readout output { font-style: italic; }
svg .board { fill: url(#tiles); }""",
    "1980s": GHOST + "\nsvg .board { fill: url(#tiles); }",
    "1990s": GHOST.replace(".1;", ".07;")
    + """
.test, .door { border-radius: 9px; background: linear-gradient(180deg, #ecebe5, #d2d1c9); color: #26251f; border: 2px solid #9b9a91; box-shadow: inset 0 0 0 3px #f8f7f2, 0 1px 0 rgba(0,0,0,.3); }""",
    "2000s": GHOST.replace(".1;", ".07;")
    + """
.test, .door { border-radius: 9px; background: linear-gradient(180deg, #e6e9ec, #cdd2d6); color: #1c2126; border: 2px solid #8f979e; box-shadow: inset 0 0 0 3px #f4f6f8, 0 1px 0 rgba(0,0,0,.3); }""",
    "2020s": """.bay { border-radius: 10px; }
.trend .paper, .recorder .paper { background: #d9dad3; }
.trend canvas { --pen-v: #161616; --pen-u: #5c5e60; --grid: rgba(0,0,0,.1); }
.layout-hmi .centre { background: #d9dad3; }
.trend figcaption { color: #2b2d2f; }
.layout-hmi .centre .trend figcaption { padding: 0 10px 8px; }""",
    "speculative": """.nameplate, .doors, .controls, .maintenance { border-radius: 14px; background: linear-gradient(135deg, rgba(255,255,255,.14), rgba(255,255,255,.02) 60%); border-color: rgba(255,255,255,.28); }
.alt { font: 11px "DejaVu Sans", "Noto Sans Tifinagh", "Ebrima", sans-serif; letter-spacing: .3em; opacity: .7; color: var(--ink); }""",
}


PHONE_CSS = """@media (max-width: 760px) {
  .chassis { grid-template-columns: minmax(0, 1fr); grid-template-rows: none; grid-template-areas: 'plate' 'doors' 'centre' 'inst' 'ann' 'ctrl' 'maint'; width: calc(100% - 12px); min-height: 0; margin: 6px auto; padding: 22px 12px 18px; --s: .78; column-gap: 0; }
  .chassis::before, .chassis::after, .rail, .hinge, .latch, .handle-bar, .foot, .desk-lip { display: none; }
  .bay { padding-left: 12px; padding-right: 12px; transform: none; margin: 0; }
  .instruments, .controls { flex-direction: row; flex-wrap: wrap; }
  .controls { display: flex; }
  .annunciator { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .annunciator .readouts { grid-column: 1 / -1; }
  .maintenance { flex-direction: row; align-items: center; }
  .doors { justify-content: flex-start; }
  .station { min-width: 104px; }
  .badge h1 { font-size: 17px; }
  .recorder canvas, .scope canvas { width: 100%; height: auto; }
}"""

MANUAL_CSS = """body.manual-page { background: var(--paper); color: var(--paper-ink); font: 15px/1.55 var(--font); }
.manual-page .sheet { max-width: 780px; margin: 0 auto; padding: 0 20px 48px; }
.manual-page .cover { margin: 0 -20px 18px; padding: 22px 26px; border-bottom: 4px solid var(--accent); color: var(--ink); }
.manual-page .cover h1 { margin: 6px 0 4px; font-size: 26px; letter-spacing: var(--track); }
.manual-page .cover p { margin: 0; }
.manual-page nav { display: flex; gap: 16px; font-size: 13px; margin: 8px 0 0; }
.manual-page a { color: inherit; }
.manual-page h2 { margin: 28px 0 10px; padding: 4px 10px; font-size: 14px; letter-spacing: .16em; background: var(--plate); color: var(--plate-ink); border-left: 6px solid var(--accent); }
.manual-page table { border-collapse: collapse; width: 100%; font-size: 14px; }
.manual-page th, .manual-page td { border: 1px solid var(--rule); padding: 5px 8px; text-align: left; vertical-align: top; }
.manual-page th { background: color-mix(in srgb, var(--paper-ink) 8%, transparent); }
.manual-page ol.procedure { counter-reset: step; list-style: none; padding: 0; }
.manual-page ol.procedure li { counter-increment: step; position: relative; padding: 6px 0 6px 44px; border-bottom: 1px dotted var(--rule); }
.manual-page ol.procedure li::before { content: counter(step); position: absolute; left: 0; top: 5px; width: 30px; height: 26px; display: grid; place-items: center; background: var(--chassis); color: var(--ink); font: 700 13px var(--mono); }
.manual-page dt { font-weight: 700; margin-top: 8px; }
.manual-page dd { margin: 2px 0 6px 18px; }
.manual-page code { font-family: var(--mono); font-size: 13px; }"""


MANUAL_FIT_CSS = """.manual-page .sheet { max-width: 780px; }
.manual-page table { table-layout: fixed; }
.manual-page p, .manual-page td, .manual-page th, .manual-page dd { overflow-wrap: anywhere; }"""


def _ink_for(colour: str) -> str:
    return "#f3efe4" if luminance(colour) < 0.3 else "#161513"


def css_vars(design: Design) -> dict[str, str]:
    chassis, accent, ink, plate, face = design.palette
    era = design.era_style
    dark = luminance(chassis) < 0.22
    tuning = design.tuning
    # The measured revision pushes printed legends further from the chassis.
    # The measured revision pushes legends further from what they sit on: printed ink
    # away from the chassis, and a plate away from its own lettering.
    plate_ink = _ink_for(plate)
    if tuning.get("ink", 0):
        ink = shade(ink, tuning["ink"] if luminance(ink) > 0.5 else -tuning["ink"])
        toward = -tuning["ink"] * 0.6 if luminance(plate_ink) > 0.5 else tuning["ink"] * 0.6
        plate = shade(plate, toward)
    paper = {
        "1920s": "#f1e6c8", "1940s": "#efe7d1", "1950s": "#f4eedd", "1960s": "#f7f6f0",
        "1970s": "#f4f1e8", "1980s": "#f2f2ee", "1990s": "#fafaf7", "2000s": "#f5f6f7",
        "2020s": "#f7f7f5", "speculative": "#eef1f0",
    }[design.era]  # fmt: skip
    # The measured revision of the manual: text toward black, paper toward white.
    paper_ink = shade("#1d1c1a", -tuning.get("paper", 0.0))
    paper = shade(paper, tuning.get("paper", 0.0) * 0.6)
    alarm = "#d8281e" if distance_ok(accent, "#d8281e") else "#f0b400"
    lamp_on = "#ffb42a" if design.era in ("1920s", "1940s", "1950s") else "#ff4a2a"
    return {
        "--chassis": chassis,
        "--chassis-hi": shade(chassis, 0.1),
        "--chassis-lo": shade(chassis, -0.18),
        "--edge": shade(chassis, -0.45),
        "--bevel-hi": "rgba(255,255,255,.22)" if not dark else "rgba(255,255,255,.12)",
        "--bevel-lo": "rgba(0,0,0,.35)",
        "--groove-hi": "rgba(255,255,255,.16)" if dark else "rgba(255,255,255,.5)",
        "--groove-lo": "rgba(0,0,0,.45)" if dark else "rgba(0,0,0,.28)",
        "--wall": shade(chassis, -0.72) if dark else shade(mix(chassis, "#6f7274", 0.5), -0.35),
        "--wall-hi": shade(chassis, -0.5) if dark else shade(mix(chassis, "#8a8c8e", 0.5), -0.1),
        "--accent": accent,
        "--ink": ink,
        "--hairline": mix(ink, chassis, 0.55),
        "--plate": plate,
        "--plate-ink": plate_ink,
        "--plate-edge": shade(plate, -0.35),
        "--face": face,
        "--face-ink": _ink_for(face),
        "--needle": "#c2231a" if luminance(face) > 0.4 else accent,
        "--bezel": shade(chassis, -0.55) if not dark else "#1a1a1a",
        "--btn": shade(chassis, -0.12 if not dark else 0.08),
        "--slot": "rgba(0,0,0,.7)",
        "--lamp-on": lamp_on,
        "--lamp-off": "#4a1d14",
        "--lit": accent,
        "--alarm": alarm,
        "--guard": accent,
        "--ack": alarm if design.era != "speculative" else accent,
        "--pointer": "#f4f1e6",
        "--board": "#20262b" if design.era not in ("1920s", "1940s") else "#2b2a24",
        "--board-ink": "#e8e4d8",
        "--pipe": mix("#9aa4ac", accent, 0.25),
        "--font": era.label_font,
        "--mono": era.readout_font,
        "--radius": f"{era.radius}px",
        "--track": ".08em" if era.upper else ".02em",
        "--paper": paper,
        "--paper-ink": paper_ink,
        "--rule": "#b8b3a6",
        "--s": f"{tuning.get('scale', 1.0):.2f}",
        "--gap": f"{tuning.get('gap', 1.0):.2f}",
    }


def distance_ok(a: str, b: str) -> bool:
    from factory.designer.choose import distance

    return distance(a, b) > 90


def machine_css(design: Design) -> str:
    d = design
    variables = "\n".join(f"  {k}: {v};" for k, v in css_vars(d).items())
    kinds = sorted({c.kind.replace(" ", "-") for c in d.controls})
    blocks = [
        f"/* {d.name}: {d.design}. */\n:root {{\n{variables}\n}}",
        BASE_CSS,
        f".chassis {{ {TEXTURES[d.material.texture]} }}",
        LEGENDS[d.legend.style],
        ".badge { " + ("font-family: var(--font); }" if d.legend.style != "tape" else "}"),
        LAMPS[d.lamp.style],
        ".lamp.status[data-lamp=power] { --lamp-on: #3fcf4a; --lamp-off: #163a19; }\n.lamp.status[data-lamp=mains] { --lamp-on: #f4f0dc; --lamp-off: #4a473c; }\n.lamp.status[data-lamp=nominal] { --lamp-on: var(--accent); }",
        READOUTS[d.era_style.readout],
        LAYOUTS[d.layout.key].replace("TEXTURE", TEXTURES[d.material.texture]),
        *(CONTROLS_CSS[k] for k in kinds),
    ]
    era_blocks = [ERA_CSS[d.era]]
    for slot in ("chart", "scope", "trend"):
        if slot in d.layout.instruments:
            blocks.append(CHART_CSS["recorder" if slot == "chart" else slot])
    if "mimic" in d.layout.instruments:
        blocks.append(MIMIC_CSS)
    blocks += era_blocks
    blocks += [PHONE_CSS, MANUAL_CSS, f".manual-page .cover {{ {TEXTURES[d.material.texture]} }}"]
    if d.tuning.get("sheet", 0.0):
        # The measured revision of a manual whose text ran to the dialog's edge.
        narrower = round(780 - 120 * d.tuning["sheet"])
        blocks.append(MANUAL_FIT_CSS.replace("780px", f"{narrower}px"))
    return "\n\n".join(blocks) + "\n"


# --- the manual ------------------------------------------------------------------------

ROLE_TEXT = {
    "master": "Energises the machine. Nothing moves while it is at {p0}.",
    "aux": "{duty} None of this happens until the machine is live.",
    "mode": "Selects the operating mode; only {run} applies the demand.",
    "setpoint": "Sets the demand in percent of rating; the {u} follows it with a lag of about {tau:.0f} s.",
    "ack": "Accepts standing alarms (lamps stop flashing) and, once every cause is gone, resets a trip.",
}


def function_text(design: Design, ctl) -> str:
    """What a control does, in the machine's own words: the manual's Function column
    and the control's tooltip on the panel say the same sentence."""
    f = design.words
    return ROLE_TEXT[ctl.role].format(
        p0=ctl.positions[0],
        duty=f.duty,
        run=design.era_style.run,
        u=f.u.label.lower(),
        tau=design.params["tau"],
    )


def procedure(design: Design) -> list[tuple[str, str, str]]:
    """The cold-to-nominal steps as (control, value, text); the manual and tests read these."""
    by_role = {c.role: c for c in design.controls}
    master, aux, mode, setpoint = (by_role[r] for r in ("master", "aux", "mode", "setpoint"))
    run = design.era_style.run
    return [
        (
            master.name,
            master.positions[1],
            f"Turn the {master.name} ({master.kind}) to {master.positions[1]}. The POWER lamp lights.",
        ),
        (
            aux.name,
            aux.positions[1],
            f"Set the {aux.name} ({aux.kind}) to {aux.positions[1]} before any demand. {design.words.duty}",
        ),
        (mode.name, run, f"Move the {mode.name} ({mode.kind}) to {run}. The RUNNING lamp lights."),
        (
            setpoint.name,
            str(design.target),
            f"Bring the {setpoint.name} ({setpoint.kind}) up to {design.target}.",
        ),
    ]


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


SUPPLY = {
    "1920s": "220 V DC mains", "1940s": "415 V three-phase, 50 Hz", "1950s": "415 V three-phase, 50 Hz",
    "1960s": "440 V three-phase, 60 Hz", "1970s": "400 V three-phase, 50 Hz; 24 V DC controls",
    "1980s": "400 V three-phase; 24 V DC controls", "1990s": "400 V three-phase; 24 V DC PLC supply",
    "2000s": "400 V three-phase; 24 V DC, fieldbus", "2020s": "400 V three-phase via drive; 24 V DC SELV",
    "speculative": "resonant bus, 1.2 kV nominal",
}  # fmt: skip

CASE = {
    "desk": (1800, 1150, 900), "cabinet": (800, 2000, 600), "mimic": (3200, 1800, 250),
    "rack": (600, 1600, 800), "recorder": (1200, 1900, 650), "bench": (520, 300, 480),
    "console": (2400, 1200, 1100), "hmi": (900, 650, 180),
}  # fmt: skip


def overview(design: Design) -> str:
    d = design
    finish = d.material.phrase
    return (
        f"The {d.name} is {article(d.kind)} {d.kind} for {d.domain} work, made by {d.maker} "
        f"{d.era_style.when}. {d.tagline} It is built as {article(d.layout.phrase)} {d.layout.phrase}, "
        f"finished in {finish}, with {d.legend.phrase} and {d.lamp.phrase}."
    )


def _in_words(design: Design, template: str) -> str:
    """An engine's template told in the kind's own words."""
    f = design.words
    return template.format(
        kind=design.kind, u=f.u.label.lower(), v=f.v.label.lower(), w=f.w.label.lower(), aux=f.aux
    )


def physics_text(design: Design) -> str:
    """How the engine behaves, then how this kind's auxiliary does its two jobs."""
    return f"{_in_words(design, parts.ENGINES[design.words.engine].overview)} {design.words.duty}"


def consequence_text(design: Design) -> str:
    return _in_words(design, parts.ENGINES[design.words.engine].consequence)


def plant_specs(design: Design) -> list[tuple[str, str, str]]:
    """Plausible plate data for the object, stable per design."""
    d = design
    width, height, depth = CASE[d.layout.key]
    mass = round(width * height * depth / 1e7 * (0.6 + _variant(d, "mass", 5) / 10)) * 10
    ambient = (
        "0 to +40 °C" if d.domain not in ("space", "deep-sea", "cold-chain") else "-30 to +50 °C"
    )
    return [
        (
            "Rated output",
            f"{d.words.u.hi:g} {d.words.u.unit}",
            f"continuous, at the {d.era_style.run} setting",
        ),
        ("Supply", SUPPLY[d.era], "protected by the " + d.controls[0].name),
        ("Case", f"{width} × {height} × {depth} mm", f"{mass or 8} kg, {d.material.phrase}"),
        ("Ambient", ambient, "relative humidity up to 90 %, non-condensing"),
    ]


def manual_html(design: Design) -> str:
    d = design
    f = d.words
    p = d.params
    run = d.era_style.run
    qs = quantities(d)

    def span(k: str, lo: float, hi: float) -> str:
        q = qs[k]
        a, b = q.lo + lo * (q.hi - q.lo), q.lo + hi * (q.hi - q.lo)
        return (
            f"{a:.0f}&ndash;{b:.0f} {esc(q.unit)}"
            if q.hi - q.lo >= 10
            else f"{a:.1f}&ndash;{b:.1f} {esc(q.unit)}"
        )

    def at(k: str, x: float) -> str:
        q = qs[k]
        value = q.lo + x * (q.hi - q.lo)
        return f"{value:.0f} {esc(q.unit)}" if q.hi - q.lo >= 10 else f"{value:.1f} {esc(q.unit)}"

    rows = []
    for c in d.controls:
        positions = (
            ", ".join(c.positions)
            if len(c.positions) <= 5
            else f"{c.positions[0]} to {c.positions[-1]} in steps of {int(c.positions[1]) - int(c.positions[0])}"
        )
        rows.append(
            f"<tr><td><b>{esc(c.name)}</b></td><td>{esc(c.kind)}</td><td>{esc(positions)}</td>"
            f"<td>{esc(function_text(d, c))}</td></tr>"
        )
    steps = "".join(
        f'<li data-control="{esc(name)}" data-value="{esc(value)}">{esc(text)}</li>'
        for name, value, text in procedure(d)
    )
    steps += (
        f'<li data-wait="120">Wait two minutes. The {esc(f.u.label.lower())} settles at the demand, '
        f"the {esc(f.v.label.lower())} near {at('v', p['v0'] + p['k1'] / p['k2'] * d.target / 100)} and the "
        f"{esc(f.w.label.lower())} above {at('w', p['w_nom'])}. The NOMINAL lamp lights.</li>"
    )
    conditions = {
        "heat": (f"{f.v.label} above {at('v', p['v_high'])}", f.heat),
        "leak": (f"{f.w.label} below {at('w', p['w_low'])}", f.leak),
        "drift": (
            f"the {f.u.label.lower()} and its check reading disagree by more than {p['s_high'] * 100:.0f} %",
            f.drift,
        ),
    }
    alarm_rows = "".join(
        f"<tr><td><b>{esc(fault.alarm)}</b></td><td>{esc(conditions[fault.family][0])}</td>"
        f"<td>After {p['grace']:.0f} s standing, {esc(consequence_text(d))}.</td></tr>"
        for fault in d.faults
    )
    alarm_rows += (
        f"<tr><td><b>{esc(d.trip_alarm)}</b></td><td>An alarm stood for {p['grace']:.0f} s without its cause being cleared.</td>"
        f"<td>Demand is cut to zero; the {esc(f.u.label.lower())} runs down. Latches until reset with the {esc(f.ack)}.</td></tr>"
    )
    recovery = {
        "heat": f"Nothing holds the {f.v.label.lower()} down any more, so it climbs even at rest. Bring the {d.controls[3].name} to 0, have the fitter clear the fault (press its test button again), wait for the {f.v.label.lower()} to fall, then press the {f.ack}.",
        "leak": f"The {f.w.label.lower()} drains faster than it can be made up. Bring the {d.controls[3].name} down to reduce the draw, clear the fault (press its test button again), let the {f.w.label.lower()} recover above {at('w', p['w_nom'])} with the {f.aux} in service, then press the {f.ack}.",
        "drift": f"One sensor wanders away from the other; the machine still runs but cannot be trusted. Clear the fault (press its test button again); the reading converges within a few seconds; then press the {f.ack}.",
    }
    faults = "".join(
        f"<dt>{esc(fault.name)}</dt><dd>Raises <b>{esc(fault.alarm)}</b>. {esc(recovery[fault.family])} "
        f"Rehearse it with the <i>{esc(fault.name)}</i> button on the {esc(d.maintenance)}.</dd>"
        for fault in d.faults
    )
    specs = "".join(
        f"<tr><th>{esc(q.label)}</th><td>{q.lo:g}&ndash;{q.hi:g} {esc(q.unit)}</td><td>{nominal}</td></tr>"
        for q, nominal in (
            (f.u, f"follows the demand (time constant {p['tau']:.1f} s)"),
            (
                f.v,
                f"nominal band {span('v', p['v_nom_lo'], p['v_nom_hi'])}; alarm above {at('v', p['v_high'])}",
            ),
            (f.w, f"above {at('w', p['w_nom'])} in service; alarm below {at('w', p['w_low'])}"),
        )
    )
    specs += "".join(
        f"<tr><th>{esc(name)}</th><td>{esc(value)}</td><td>{esc(note)}</td></tr>"
        for name, value, note in plant_specs(d)
    )
    specs += (
        f"<tr><th>Trip delay</th><td>{p['grace']:.0f} s</td><td>an alarm left standing this long trips the machine</td></tr>"
        f"<tr><th>Modes</th><td>{esc(', '.join(d.era_style.modes))}</td><td>demand applied in {esc(run)}</td></tr>"
        f"<tr><th>Maker</th><td>{esc(d.maker)}</td><td>{esc(d.code)}</td></tr>"
    )
    control_names = ", ".join(c.name for c in d.controls)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(d.name)} &mdash; operating manual</title>
<link rel="stylesheet" href="machine.css">
</head>
<body class="manual-page era-{d.era} tex-{d.material.texture} legend-{d.legend.style}">
<div class="sheet">
<header class="cover">
<span class="maker">{esc(d.maker)} &middot; {esc(d.code)}</span>
<h1>{esc(d.name)}</h1>
<p>{esc(d.tagline)}</p>
<nav><a href="./">Back to the panel</a><a href="../../">The catalogue</a></nav>
</header>

<h2>Overview</h2>
<p>{esc(overview(d))}</p>
<p>{esc(physics_text(d))} An alarm left standing for {p["grace"]:.0f} s is not ignored by the machine: {esc(consequence_text(d))}.</p>

<h2>Controls</h2>
<p>The panel carries {len(d.controls)} controls: {esc(control_names)}. Each works by mouse, by touch, and from the keyboard (Tab to it; arrow keys step it; Enter or Space operate it).</p>
<table><tr><th>Control</th><th>Kind</th><th>Positions</th><th>Function</th></tr>{"".join(rows)}</table>

<h2>Normal operation</h2>
<p>From cold (everything at its first position), this procedure brings the machine to its nominal state.</p>
<ol class="procedure">{steps}</ol>
<p>To shut down, reverse the order: demand to 0, {esc(d.controls[2].name)} to {esc(d.era_style.modes[0])}, then the {esc(d.controls[1].name)} and the {esc(d.controls[0].name)} off.</p>

<h2>Alarms</h2>
<p>A standing alarm flashes its lamp until it is accepted with the {esc(f.ack)}; accepting does not cure the cause.</p>
<table><tr><th>Alarm</th><th>Condition</th><th>If ignored</th></tr>{alarm_rows}</table>

<h2>Faults and recovery</h2>
<p>Every fault can be rehearsed from the {esc(d.maintenance)} on the panel: press a fault's test button to inject it, press it again to clear it.</p>
<dl>{faults}</dl>

<h2>Specifications</h2>
<table><tr><th>Quantity</th><th>Range</th><th>In service</th></tr>{specs}</table>
</div>
</body>
</html>
"""


def render(design: Design) -> dict[str, str]:
    """The four product files, by name, in the order they are written."""
    return {
        "index.html": index_html(design),
        "machine.css": machine_css(design),
        "machine.js": machine_js(design),
        "manual.html": manual_html(design),
    }
