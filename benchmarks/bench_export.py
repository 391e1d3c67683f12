"""Export speed: a 400-message session with 20 screenshots, target under 1 s.

Run: .venv/bin/python benchmarks/bench_export.py
Prints the measured seconds of a first export (images copied) and a re-export.
"""

from __future__ import annotations

import io
import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from factory import export, messages, session  # noqa: E402
from factory.model import Reply, ToolCall  # noqa: E402

MESSAGES = 400
SCREENSHOTS = 20
TARGET_SECONDS = 1.0


def screenshot(seed: int) -> bytes:
    """A 1440x900 PNG with noise, so it is screenshot-sized (not a tiny flat file)."""
    rng = random.Random(seed)
    image = Image.new("RGB", (1440, 900), (rng.randrange(256), 40, 90))
    noise = Image.frombytes("RGB", (360, 225), rng.randbytes(360 * 225 * 3))
    image.paste(noise.resize((1440, 900)), (0, 0))
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def record(workspace: Path) -> None:
    log = session.SessionLog.create(workspace, "bench")
    log.append("meta", id="bench", order="new-machine", task="Build a machine. " * 200,
               model="m", provider="p", driver="scripted", line="machines",
               tools=[], started=session.now())  # fmt: skip
    log.message(messages.user("Begin working on your task."))
    code = "function tick(s) { state.t += s; }\n" * 120  # ~4 KB of product text per write
    shots = 0
    n = 1
    while n < MESSAGES:
        call = ToolCall(
            f"c{n}", "write", json.dumps({"path": "shelf/x/machine.js", "content": code})
        )
        log.message(messages.bot(Reply(reasoning="thinking " * 40, tool_calls=[call])))
        log.message(messages.activity(call.id, "write", "wrote 4096 bytes"))
        n += 2
        if shots < SCREENSHOTS and n % (MESSAGES // SCREENSHOTS) < 3:
            image = log.store_image(screenshot(shots))
            log.message(messages.attachment([(f"shot {shots}", image)]))
            shots += 1
            n += 1
        log.event("iteration")
    log.append("outcome", reason="settled", iterations=n, calls=n, ended=session.now())
    log.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workspace = Path(tmp)
        record(workspace)
        loaded = session.load(session.find(workspace, "bench"))
        size = os.path.getsize(loaded.path)
        start = time.perf_counter()
        path = export.export_row(workspace, "bench", workspace / "out", secrets=["x" * 40])
        first = time.perf_counter() - start
        start = time.perf_counter()
        export.export_row(workspace, "bench", workspace / "out", secrets=["x" * 40])
        again = time.perf_counter() - start
        row = json.loads(path.read_text())
        images = sum(f.stat().st_size for f in (path.parent / "images").iterdir())
        print(f"session: {len(row['messages'])} messages, {len(row['images'])} screenshots, "
              f"log {size / 1e6:.1f} MB, images {images / 1e6:.1f} MB")  # fmt: skip
        print(f"first export (images copied): {first:.3f} s")
        print(f"re-export: {again:.3f} s")
        print(f"target {TARGET_SECONDS:.1f} s: {'met' if first < TARGET_SECONDS else 'MISSED'}")


if __name__ == "__main__":
    main()
