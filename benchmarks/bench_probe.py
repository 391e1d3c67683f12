"""How fast `factory probe` is: a shelf of 12 machines with --all, and one machine alone.

Prints measured numbers; asserts nothing. The issue's targets: --all at 1.1 s
per machine or less, a single probe no slower than the reference's 4.5 s.

    .venv/bin/python benchmarks/bench_probe.py [--machines 12] [--jobs 2] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
from pathlib import Path

from factory.probe import probe

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"
MACHINE = "saltmarsh-evaporator"


def shelf(root: Path, count: int) -> Path:
    """A workspace holding `count` copies of the corpus machine under different slugs."""
    shutil.copytree(CORPUS, root, dirs_exist_ok=True)
    path = root / "catalogue" / "machines.json"
    first = json.loads(path.read_text())[0]
    entries = []
    for n in range(count):
        slug = f"{MACHINE}-{n + 1:02d}"
        shutil.copytree(root / "shelf" / "machines" / MACHINE, root / "shelf" / "machines" / slug)
        entries.append({**first, "slug": slug})
    path.write_text(json.dumps(entries))
    return root


def timed(**kwargs) -> tuple[float, object]:
    started = time.perf_counter()
    report = probe(**kwargs)
    return time.perf_counter() - started, report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--machines", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workspace = shelf(Path(tmp), args.machines)
        alls, singles = [], []
        for _ in range(args.rounds):
            seconds, report = timed(workspace=workspace, all=True, jobs=args.jobs, line="machines")
            assert report.ok, [r.problems for r in report.results if not r.ok]
            alls.append(seconds)
            seconds, report = timed(workspace=workspace, line="machines")
            assert report.ok
            singles.append(seconds)
    best, worst = min(alls), max(alls)
    print(
        f"probe --all, {args.machines} machines, --jobs {args.jobs}: best {best:.2f} s, worst {worst:.2f} s"
    )
    print(
        f"  per machine: best {best / args.machines:.2f} s, worst {worst / args.machines:.2f} s (target <= 1.10)"
    )
    print(
        f"probe, one machine (browser launch included): best {min(singles):.2f} s, worst {max(singles):.2f} s (target <= 4.50)"
    )


if __name__ == "__main__":
    main()
