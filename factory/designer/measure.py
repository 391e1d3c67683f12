"""The designer's eyes: measure the probe's screenshots and decide one revision.

Measures the desktop PNG with pillow (how much of the screen the panel leaves
empty, how flat or busy it is, how legible its legends are against the
chassis) and turns the worst finding into a change of the design's tuning.
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

    def describe(self) -> str:
        return (
            f"empty below the panel {self.empty_below:.0%}, blank tiles {self.flat:.0%}, "
            f"edge density {self.busy:.1%}, legend contrast {self.contrast:.1f}:1"
            + (", phone content at the right edge" if self.phone_wide else "")
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


def measure(desktop: Path, phone: Path | None = None) -> Measures:
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
    return Measures(
        empty_below=(height - bottom) / height,
        flat=flat / max(1, tiles),
        busy=busy,
        contrast=contrast,
        phone_wide=phone_wide,
    )


def revise(tuning: dict[str, float], m: Measures) -> tuple[dict[str, float], list[str]]:
    """The new tuning and the reasons, one per change; there is always at least one change."""
    new = dict(tuning)
    reasons = []
    if m.empty_below > 0.12:
        new["scale"] = round(min(1.2, new.get("scale", 1.0) + min(0.18, m.empty_below * 0.6)), 2)
        reasons.append(
            f"{m.empty_below:.0%} of the screen is bare wall under the panel: "
            f"instruments scaled to {new['scale']:.2f}"
        )
    elif m.empty_below < 0.005:
        new["scale"] = round(max(0.85, new.get("scale", 1.0) - 0.08), 2)
        reasons.append("the panel runs to the bottom edge: instruments scaled down")
    if m.busy > 0.16:
        new["gap"] = round(new.get("gap", 1.0) + 0.35, 2)
        reasons.append(f"edge density {m.busy:.1%} reads crowded: spacing opened")
    elif m.flat < 0.05:
        new["gap"] = round(new.get("gap", 1.0) + 0.25, 2)
        reasons.append(f"only {m.flat:.0%} of the panel is quiet: spacing opened")
    if m.contrast < 7.0:
        new["ink"] = round(min(0.6, new.get("ink", 0.0) + 0.35), 2)
        reasons.append(f"legend contrast only {m.contrast:.1f}:1: legend ink strengthened")
    if not reasons:
        new["gap"] = round(new.get("gap", 1.0) + 0.2, 2)
        reasons.append(
            f"blank tiles {m.flat:.0%} and edge density {m.busy:.1%}: spacing eased a little"
        )
    return new, reasons
