"""Images the model is shown: recognised by their bytes, scaled, stored as PNG.

Endpoints accept a bounded picture size, so every image is scaled to a longest
edge of at most `MAX_EDGE` pixels and re-encoded as PNG (one format in the row).
This module never trusts a file name for the format, and never writes anywhere
but where it is told.
"""

from __future__ import annotations

import io

from PIL import Image

MAX_EDGE = 1568
MAX_PER_TURN = 8

MAGIC = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
)


class NotAnImage(ValueError):
    pass


def sniff(data: bytes) -> str | None:
    """The format by magic bytes (png, jpeg, gif, webp), or None."""
    for magic, kind in MAGIC:
        if data.startswith(magic):
            return kind
    if len(data) >= 12 and data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def to_png(data: bytes) -> tuple[bytes, tuple[int, int], tuple[int, int]]:
    """PNG bytes scaled to MAX_EDGE; also the original and the final size."""
    if sniff(data) is None:
        raise NotAnImage("not a PNG, JPEG, GIF or WebP image")
    try:
        with Image.open(io.BytesIO(data)) as image:
            image.seek(0)  # an animated GIF or WebP: its first frame
            original = image.size
            frame = image.convert("RGBA" if _has_alpha(image) else "RGB")
    except (OSError, ValueError) as error:
        raise NotAnImage(f"unreadable image ({error})") from None
    longest = max(frame.size)
    if longest > MAX_EDGE:
        scale = MAX_EDGE / longest
        size = (max(1, round(frame.width * scale)), max(1, round(frame.height * scale)))
        frame = frame.resize(size, Image.Resampling.LANCZOS)
    out = io.BytesIO()
    frame.save(out, format="PNG", optimize=False)
    return out.getvalue(), original, frame.size


def _has_alpha(image: Image.Image) -> bool:
    return image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info


def describe(data: bytes) -> str | None:
    """A one-line description of an image file, or None when it is not one."""
    kind = sniff(data)
    if kind is None:
        return None
    try:
        with Image.open(io.BytesIO(data)) as image:
            width, height = image.size
    except (OSError, ValueError):
        return f"a {kind.upper()} image ({len(data)} bytes, unreadable)"
    return f"a {kind.upper()} image, {width}x{height} px, {len(data)} bytes"
