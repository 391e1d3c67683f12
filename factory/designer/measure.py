"""The designer's eyes: measure the probe's screenshots and decide one revision.

Measures the desktop PNG with pillow (how much of the screen the panel leaves
empty, how flat or busy it is, how legible its legends are against the
chassis), and the manual PNG (how legible the manual's text is on its paper,
how close it runs to the dialog's edge), and turns the worst finding into a
change of the design's tuning.
It only reads images and returns numbers and decisions; it never writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageFilter, ImageStat


@dataclass(frozen=True)
class Measures:
    empty_below: float
    """Fraction of the screen height under the panel that is bare wall."""
    flat: float
    """Fraction of the panel's tiles with no detail at all (blank area)."""
    busy: float
    """Fraction of the panel's pixels on a strong edge (crowding)."""
    contrast: float
    """WCAG contrast ratio between the chassis and its most distant legend ink."""
    phone_wide: bool
    """The phone shot has content touching its right edge (a hint of sideways overflow)."""
    manual_contrast: float | None = None
    """WCAG contrast ratio between the manual's paper and its text (None: not measured)."""
    manual_margin: int | None = None
    """Pixels between the manual's rightmost text and the dialog's right edge."""

    def describe(self) -> str:
        manual = ""
        if self.manual_contrast is not None:
            manual = f"; manual text contrast {self.manual_contrast:.1f}:1"
            if self.manual_margin is not None:
                manual += f", right margin {self.manual_margin} px"
        return (
            f"empty below the panel {self.empty_below:.0%}, blank tiles {self.flat:.0%}, "
            f"edge density {self.busy:.1%}, legend contrast {self.contrast:.1f}:1"
            + (", phone content at the right edge" if self.phone_wide else "")
            + manual
        )


def _lum(value: float) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def _panel_bottom(grey: Image.Image) -> int:
    """The last row that is not bare wall (the wall is the bottom-left corner's colour)."""
    width, height = grey.size
    wall = grey.getpixel((2, height - 2))
    for y in range(height - 1, -1, -1):
        row = grey.crop((0, y, width, y + 1))
        lo, hi = row.getextrema()
        if hi - lo > 12 or abs(ImageStat.Stat(row).mean[0] - wall) > 10:
            return y + 1
    return 0


def _quantile(values: list[int], fraction: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def measure_manual(shot: Path) -> tuple[float, int | None]:
    """Contrast of the manual's text on its paper, and its right margin in the dialog.

    The dialog is centred and at least 94vw x 90vh up to 920 x 780 px, so the middle
    half of the screen is always manual paper and text. The paper is the commonest
    grey there; text is the darkest 1 % of the rows that are mostly paper (a heading
    plate or a table header is not paper and does not count). The dialog's right edge
    is where, going right from the middle, paper stops filling most rows."""
    grey = Image.open(shot).convert("L")
    width, height = grey.size
    left, top, right, bottom = width // 4, height // 5, width * 3 // 4, height * 4 // 5
    middle = grey.crop((left, top, right, bottom))
    histogram = middle.histogram()
    paper = max(range(256), key=lambda v: histogram[v])
    pixels = grey.tobytes()
    rows = []
    for y in range(top, bottom):
        row = pixels[y * width + left : y * width + right]
        if abs(_quantile(row, 0.5) - paper) <= 6:
            rows.append(y)
    if not rows:
        return 1.0, None
    ink = _quantile([v for y in rows for v in pixels[y * width + left : y * width + right]], 0.01)
    a, b = sorted((_lum(paper), _lum(ink)), reverse=True)
    contrast = (a + 0.05) / (b + 0.05)

    def papery(x: int) -> float:
        return sum(abs(pixels[y * width + x] - paper) <= 8 for y in rows) / len(rows)

    edge = None
    for x in range(width // 2, width):
        if papery(x) < 0.5:
            edge = x
            break
    if edge is None:
        return contrast, None
    dark = paper - 60
    inked = [
        x
        for x in range(width // 2, edge)
        if sum(pixels[y * width + x] < dark for y in rows) > len(rows) * 0.01
    ]
    return contrast, (edge - max(inked)) if inked else edge - width // 2


def measure(desktop: Path, phone: Path | None = None, manual: Path | None = None) -> Measures:
    image = Image.open(desktop).convert("RGB")
    grey = image.convert("L")
    width, height = grey.size
    bottom = max(1, _panel_bottom(grey))
    panel = grey.crop((0, 0, width, bottom))

    tiles = flat = 0
    for top in range(0, bottom - 16, 16):
        for left in range(0, width - 16, 16):
            tiles += 1
            if ImageStat.Stat(panel.crop((left, top, left + 16, top + 16))).stddev[0] < 1.5:
                flat += 1
    edges = panel.filter(ImageFilter.FIND_EDGES).point(lambda v: 255 if v > 48 else 0)
    busy = ImageStat.Stat(edges).mean[0] / 255

    histogram = panel.histogram()
    total = sum(histogram)
    chassis = max(range(256), key=lambda v: histogram[v])
    seen, low, high = 0, 0, 255
    for value in range(256):
        seen += histogram[value]
        if seen >= total * 0.02:
            low = value
            break
    seen = 0
    for value in range(255, -1, -1):
        seen += histogram[value]
        if seen >= total * 0.02:
            high = value
            break
    ink = low if abs(chassis - low) > abs(high - chassis) else high
    a, b = sorted((_lum(chassis), _lum(ink)), reverse=True)
    contrast = (a + 0.05) / (b + 0.05)

    phone_wide = False
    if phone is not None and phone.exists():
        shot = Image.open(phone).convert("L")
        edge = shot.crop((shot.width - 2, 0, shot.width, shot.height))
        lo, hi = edge.getextrema()
        phone_wide = hi - lo > 60 and ImageStat.Stat(edge).stddev[0] > 25
    manual_contrast = manual_margin = None
    if manual is not None and manual.exists():
        manual_contrast, manual_margin = measure_manual(manual)
    return Measures(
        empty_below=(height - bottom) / height,
        flat=flat / max(1, tiles),
        busy=busy,
        contrast=contrast,
        phone_wide=phone_wide,
        manual_contrast=manual_contrast,
        manual_margin=manual_margin,
    )


# What "good" is for each measure, and which tuning knob fixes a shortfall. The margin
# of a measure is how far it sits inside its bound, as a fraction of the bound; the
# weakest margin is what the critique round improves when nothing is outright wrong.
BLANK_MAX = 0.12
CROWD_MAX = 0.16
CONTRAST_MIN = 7.0
MANUAL_CONTRAST_MIN = 7.0
MANUAL_MARGIN_MIN = 12


def margins(m: Measures) -> dict[str, float]:
    out = {
        "blank": (BLANK_MAX - m.empty_below) / BLANK_MAX,
        "crowding": (CROWD_MAX - m.busy) / CROWD_MAX,
        "contrast": (m.contrast - CONTRAST_MIN) / CONTRAST_MIN,
    }
    if m.manual_contrast is not None:
        out["manual"] = (m.manual_contrast - MANUAL_CONTRAST_MIN) / MANUAL_CONTRAST_MIN
    return out


def revise(tuning: dict[str, float], m: Measures) -> tuple[dict[str, float], list[str]]:
    """The new tuning and the reasons (what was measured, what changed, from and to);
    there is always at least one change: a failed measure is fixed, and when none
    failed the weakest one is improved."""
    new = dict(tuning)
    reasons = []
    scale, gap, ink = new.get("scale", 1.0), new.get("gap", 1.0), new.get("ink", 0.0)

    def grow(amount: float, why: str) -> None:
        new["scale"] = round(min(1.25, scale + amount), 2)
        reasons.append(f"{why}: instruments scaled {scale:.2f} -> {new['scale']:.2f}")

    def space(amount: float, why: str) -> None:
        new["gap"] = round(gap + amount, 2)
        reasons.append(f"{why}: spacing {gap:.2f} -> {new['gap']:.2f}")

    def darken(amount: float, why: str) -> None:
        new["ink"] = round(min(0.6, ink + amount), 2)
        reasons.append(f"{why}: legend ink and plates pushed apart {ink:.2f} -> {new['ink']:.2f}")

    def print_darker(amount: float, why: str) -> None:
        paper = new.get("paper", 0.0)
        new["paper"] = round(min(0.8, paper + amount), 2)
        reasons.append(
            f"{why}: manual text and paper pushed apart {paper:.2f} -> {new['paper']:.2f}"
        )

    if m.empty_below > BLANK_MAX:
        grow(
            min(0.18, m.empty_below * 0.6),
            f"{m.empty_below:.0%} of the screen is bare wall under the panel",
        )
    elif m.empty_below < 0.005:
        new["scale"] = round(max(0.85, scale - 0.08), 2)
        reasons.append(
            f"the panel runs to the bottom edge: instruments scaled {scale:.2f} -> {new['scale']:.2f}"
        )
    if m.busy > CROWD_MAX:
        space(0.35, f"edge density {m.busy:.1%} reads crowded (limit {CROWD_MAX:.0%})")
    elif m.flat < 0.05:
        space(0.25, f"only {m.flat:.0%} of the panel is quiet")
    if m.contrast < CONTRAST_MIN:
        darken(0.35, f"legend contrast {m.contrast:.1f}:1 is under {CONTRAST_MIN:.0f}:1")
    if m.manual_contrast is not None and m.manual_contrast < MANUAL_CONTRAST_MIN:
        print_darker(
            0.5,
            f"manual text contrast {m.manual_contrast:.1f}:1 is under {MANUAL_CONTRAST_MIN:.0f}:1",
        )
    if m.manual_margin is not None and m.manual_margin < MANUAL_MARGIN_MIN:
        sheet = new.get("sheet", 0.0)
        new["sheet"] = round(min(1.0, sheet + 0.5), 2)
        reasons.append(
            f"the manual's text runs {m.manual_margin} px from the dialog's edge: "
            f"sheet narrowed and long words wrapped {sheet:.2f} -> {new['sheet']:.2f}"
        )
    if not reasons:
        weakest = min(margins(m).items(), key=lambda item: item[1])
        if weakest[0] == "blank":
            grow(
                0.08,
                f"weakest measure is the blank wall ({m.empty_below:.0%} of {BLANK_MAX:.0%} allowed)",
            )
        elif weakest[0] == "manual":
            print_darker(
                0.3,
                f"weakest measure is the manual's text contrast ({m.manual_contrast:.1f}:1, "
                f"floor {MANUAL_CONTRAST_MIN:.0f}:1)",
            )
        elif weakest[0] == "crowding":
            space(
                0.2,
                f"weakest measure is crowding (edge density {m.busy:.1%} of {CROWD_MAX:.0%} allowed)",
            )
        else:
            darken(
                0.2,
                f"weakest measure is legend contrast ({m.contrast:.1f}:1, floor {CONTRAST_MIN:.0f}:1)",
            )
    return new, reasons
