"""How long the built-in designer takes: design+render per machine, and one whole shift.

Prints measured numbers; asserts nothing. Run: .venv/bin/python benchmarks/bench_designer.py [shifts]
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from factory.designer.choose import design_for, entry
from factory.designer.render import render

REPO = Path(__file__).resolve().parent.parent


def design_and_render(count: int = 20) -> list[float]:
    catalogue: list[dict] = []
    times = []
    for i in range(count):
        start = time.perf_counter()
        design = design_for(catalogue, f"bench-{i}", created="2025-06-01")
        render(design)
        times.append(time.perf_counter() - start)
        catalogue.append(entry(design))
    return times


def shifts(count: int) -> list[float]:
    from factory import loop
    from factory.designer.driver import Designer
    from factory.order import load_order

    os.environ["PATH"] = f"{REPO / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}"
    root = Path(tempfile.mkdtemp(prefix="bench-designer-"))
    try:
        (root / "catalogue").mkdir()
        (root / "catalogue" / "machines.json").write_text("[]\n")
        (root / "catalogue" / "games.json").write_text("[]\n")
        shutil.copytree(REPO / "orders", root / "orders")
        shutil.copy(REPO / "AGENTS.md", root / "AGENTS.md")
        times = []
        for i in range(count):
            start = time.perf_counter()
            result = loop.run(
                Designer(root, f"bench-{i}"),
                load_order(root, "new-machine"),
                root,
                session_id=f"b{i}",
            )
            times.append(time.perf_counter() - start)
            print(f"  shift {i + 1}: {result.reason} in {times[-1]:.1f} s", flush=True)
        entries = json.loads((root / "catalogue" / "machines.json").read_text())
        print(f"  catalogue holds {len(entries)} machines")
        return times
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main() -> None:
    times = design_and_render()
    print(
        f"design+render: {len(times)} machines, mean {1000 * sum(times) / len(times):.1f} ms, "
        f"max {1000 * max(times):.1f} ms"
    )
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    if count:
        took = shifts(count)
        print(
            f"shift (builtin designer, real tools and probes): mean {sum(took) / len(took):.1f} s, max {max(took):.1f} s"
        )


if __name__ == "__main__":
    main()
