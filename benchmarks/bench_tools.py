"""The harness's own time per tool round (model latency excluded): target under 5 ms.

A scripted model answers instantly, so everything measured is the loop, the
tools and the fsynced session log. Run: .venv/bin/python benchmarks/bench_tools.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from factory import loop
from factory.config import Settings
from factory.drivers.scripted import Scripted, call, calls
from factory.order import Order

ROUNDS = 400
CONTENT = "".join(f"line {i}: some product text of a plausible length\n" for i in range(200))


def rounds(kind: str) -> list:
    if kind == "write":
        return [calls(call("write", path=f"f{i % 20}.txt", content=CONTENT)) for i in range(ROUNDS)]
    return [
        calls(call("read", path=f"f{i % 20}.txt", start_line=i % 150 + 1)) for i in range(ROUNDS)
    ]


def measure(kind: str, workspace: Path) -> tuple[float, float]:
    stamps: list[float] = []
    model = Scripted([*rounds(kind), calls(call("success", summary="done"))])
    settings = Settings(max_iterations=ROUNDS + 5, max_calls=ROUNDS + 5)
    order = Order(objective="benchmark", name="bench")
    began = time.perf_counter()
    loop.run(
        model,
        order,
        workspace,
        settings,
        secrets=[],
        on_event=lambda name, _: (
            stamps.append(time.perf_counter()) if name == "iteration" else None
        ),
    )
    total = time.perf_counter() - began
    gaps = [b - a for a, b in zip(stamps, stamps[1:], strict=False)]
    return total / (ROUNDS + 1) * 1000, statistics.median(gaps) * 1000


def main() -> None:
    # On disk a round's records (iteration, bot, activity, tool) share one fsync, whose cost
    # the disk decides; on tmpfs fsync is free, leaving the harness's own work.
    places = [("disk", None)] + ([("tmpfs", "/dev/shm")] if Path("/dev/shm").is_dir() else [])
    for place, parent in places:
        with tempfile.TemporaryDirectory(dir=parent) as folder:
            for kind in ("write", "read"):
                mean, median = measure(kind, Path(folder) / kind)
                verdict = "ok" if median < 5 else "over"
                print(
                    f"{place:>5} {kind:>5} round: mean {mean:.2f} ms, median {median:.2f} ms "
                    f"({ROUNDS} rounds; target < 5 ms: {verdict})"
                )


if __name__ == "__main__":
    main()
