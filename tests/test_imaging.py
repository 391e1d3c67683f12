"""Images by their bytes, scaled to the 1568 px edge, re-encoded as PNG."""

import io

import pytest
from PIL import Image

from factory import imaging


def encoded(size: tuple[int, int], fmt: str, mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, size, "#336699").save(out, format=fmt)
    return out.getvalue()


@pytest.mark.parametrize(
    ("fmt", "kind"), [("PNG", "png"), ("JPEG", "jpeg"), ("GIF", "gif"), ("WEBP", "webp")]
)
def test_formats_are_known_by_magic_bytes(fmt: str, kind: str) -> None:
    assert imaging.sniff(encoded((10, 10), fmt)) == kind


@pytest.mark.parametrize("data", [b"", b"hello", b"<svg></svg>", b"RIFF0000WAVE"])
def test_other_bytes_are_not_images(data: bytes) -> None:
    assert imaging.sniff(data) is None
    with pytest.raises(imaging.NotAnImage):
        imaging.to_png(data)


@pytest.mark.parametrize(
    ("size", "expected"),
    [((3136, 1000), (1568, 500)), ((1000, 4000), (392, 1568)), ((800, 600), (800, 600))],
)
def test_the_longest_edge_is_scaled_to_1568(
    size: tuple[int, int], expected: tuple[int, int]
) -> None:
    png, original, final = imaging.to_png(encoded(size, "JPEG"))
    assert original == size and final == expected
    assert imaging.sniff(png) == "png"
    assert Image.open(io.BytesIO(png)).size == expected


def test_transparency_survives() -> None:
    png, _, _ = imaging.to_png(encoded((20, 20), "PNG", "RGBA"))
    assert Image.open(io.BytesIO(png)).mode == "RGBA"
